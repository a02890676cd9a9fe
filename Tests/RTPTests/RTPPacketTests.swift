import NIOCore
import Testing
@testable import RTP

@Suite("RTPPacket (RFC 3550 §5.1)")
struct RTPPacketTests {
    /// V=2 P=1 X=1 CC=2, M=1 PT=96, seq 0x1234, ts 0xDEADBEEF, SSRC 0x01020304,
    /// CSRCs 0x11111111 0x22222222, extension profile 0xBEDE with one word, payload AA BB CC,
    /// three padding octets (00 00 03).
    static let fullPacket: [UInt8] = [
        0xB2, 0xE0, 0x12, 0x34,
        0xDE, 0xAD, 0xBE, 0xEF,
        0x01, 0x02, 0x03, 0x04,
        0x11, 0x11, 0x11, 0x11,
        0x22, 0x22, 0x22, 0x22,
        0xBE, 0xDE, 0x00, 0x01,
        0x10, 0x20, 0x30, 0x40,
        0xAA, 0xBB, 0xCC,
        0x00, 0x00, 0x03,
    ]

    /// The same header and extension without padding (P clear), payload AA BB CC DD.
    static let unpaddedPacket: [UInt8] = [
        0x92, 0xE0, 0x12, 0x34,
        0xDE, 0xAD, 0xBE, 0xEF,
        0x01, 0x02, 0x03, 0x04,
        0x11, 0x11, 0x11, 0x11,
        0x22, 0x22, 0x22, 0x22,
        0xBE, 0xDE, 0x00, 0x01,
        0x10, 0x20, 0x30, 0x40,
        0xAA, 0xBB, 0xCC, 0xDD,
    ]

    @Test func parsesMinimalHeader() throws {
        let packet = try RTPPacket(parsing: buffer([0x80, 0x60, 0xFF, 0xFE, 0, 0, 0x0B, 0xB8, 0xCA, 0xFE, 0xBA, 0xBE, 0x65, 0x88]))
        #expect(packet.version == 2)
        #expect(!packet.padding)
        #expect(packet.paddingLength == 0)
        #expect(!packet.marker)
        #expect(packet.payloadType == 96)
        #expect(packet.sequenceNumber == 0xFFFE)
        #expect(packet.timestamp == 3000)
        #expect(packet.ssrc == 0xCAFE_BABE)
        #expect(packet.csrcs.isEmpty)
        #expect(packet.extensionProfile == nil)
        #expect(packet.extensionData == nil)
        #expect(bytes(packet.payload) == [0x65, 0x88])
    }

    @Test func parsesCSRCsExtensionAndPadding() throws {
        let packet = try RTPPacket(parsing: buffer(Self.fullPacket))
        #expect(packet.version == 2)
        #expect(packet.padding)
        #expect(packet.paddingLength == 3)
        #expect(packet.marker)
        #expect(packet.payloadType == 96)
        #expect(packet.sequenceNumber == 0x1234)
        #expect(packet.timestamp == 0xDEAD_BEEF)
        #expect(packet.ssrc == 0x0102_0304)
        #expect(packet.csrcs == [0x1111_1111, 0x2222_2222])
        #expect(packet.extensionProfile == 0xBEDE)
        #expect(packet.extensionData.map(bytes) == [0x10, 0x20, 0x30, 0x40])
        #expect(bytes(packet.payload) == [0xAA, 0xBB, 0xCC])
    }

    @Test func extensionWithZeroLengthIsEmptyNotNil() throws {
        let packet = try RTPPacket(parsing: buffer([0x90, 0x60, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0x10, 0x00, 0x00, 0x00, 0x42]))
        #expect(packet.extensionProfile == 0x1000)
        #expect(packet.extensionData?.readableBytes == 0)
        #expect(bytes(packet.payload) == [0x42])
    }

    @Test func payloadIsASliceOfTheInputNotACopy() throws {
        let input = buffer(Self.fullPacket)
        let packet = try RTPPacket(parsing: input)
        let inputBase = input.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) }
        let payloadBase = packet.payload.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) }
        let extensionBase = try #require(packet.extensionData).withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) }
        #expect(payloadBase == inputBase + 28)
        #expect(extensionBase == inputBase + 24)
    }

    @Test func parsesFromTheReaderIndex() throws {
        var input = buffer([0xFF, 0xFF, 0xFF] + Self.fullPacket)
        input.moveReaderIndex(forwardBy: 3)
        #expect(try RTPPacket(parsing: input) == RTPPacket(parsing: buffer(Self.fullPacket)))
    }

    @Test func acceptsAPacketOfPaddingOnly() throws {
        // Header, then 4 padding octets: an empty payload (as sent to probe bandwidth).
        let packet = try RTPPacket(parsing: buffer([0xA0, 0x60, 0, 7, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 4]))
        #expect(packet.paddingLength == 4)
        #expect(packet.payload.readableBytes == 0)
    }

    static let malformed: [(name: String, bytes: [UInt8], kind: RTPParseError.Kind)] = [
        ("empty", [], .truncated),
        ("11 bytes", [0x80, 0x60, 0, 1, 0, 0, 0, 2, 0, 0, 0], .truncated),
        ("version 0", [0x00, 0x60, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3], .unsupportedVersion),
        ("version 1", [0x40, 0x60, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3], .unsupportedVersion),
        ("version 3", [0xC0, 0x60, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3], .unsupportedVersion),
        ("RTSP text on an RTP channel", Array("RTSP/1.0 200 OK\r\n".utf8), .unsupportedVersion),
        ("CC=1 with no CSRC", [0x81, 0x60, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3], .csrcOverrun),
        ("CC=15 with 3 CSRCs", [0x8F, 0x60, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3] + Array(repeating: 7, count: 12), .csrcOverrun),
        ("X with no extension header", [0x90, 0x60, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0xBE, 0xDE], .extensionOverrun),
        ("X with length past the end", [0x90, 0x60, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0xBE, 0xDE, 0, 2, 1, 2, 3, 4], .extensionOverrun),
        ("X with length 0xFFFF", [0x90, 0x60, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0xBE, 0xDE, 0xFF, 0xFF], .extensionOverrun),
        ("padding count 0", [0xA0, 0x60, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0xAA, 0x00], .invalidPadding),
        ("padding past the header", [0xA0, 0x60, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0xAA, 0x03], .invalidPadding),
        ("padding 255 in a short packet", [0xA0, 0x60, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0xFF], .invalidPadding),
        ("padding into the CSRCs", [0xA1, 0x60, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0xAA, 0x03], .invalidPadding),
        ("padding into the extension", [0xB0, 0x60, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0xBE, 0xDE, 0, 0, 0x05], .invalidPadding),
    ]

    @Test(arguments: malformed)
    func rejectsMalformedPackets(_ testCase: (name: String, bytes: [UInt8], kind: RTPParseError.Kind)) {
        let error = #expect(throws: RTPParseError.self, "\(testCase.name)") {
            try RTPPacket(parsing: buffer(testCase.bytes))
        }
        #expect(error?.kind == testCase.kind, "\(testCase.name)")
        #expect(error?.description.contains("RFC 3550") == true, "\(testCase.name)")
    }

    @Test func errorMessagesGiveTheNumbers() {
        let error = #expect(throws: RTPParseError.self) {
            try RTPPacket(parsing: buffer([0x8F, 0x60, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3]))
        }
        #expect(error?.description == "RTP CSRC list overruns the packet: CC=15 needs 72 header bytes but the packet has 12 (RFC 3550 §5.1)")
    }

    /// Every cut of an unpadded packet: before the end of the header it is an error of the right kind,
    /// from there on a valid packet whose payload is the bytes kept.
    @Test func everyTruncationIsAnErrorOrAShorterPayload() throws {
        let whole = Self.unpaddedPacket
        let headerEnd = 28
        for length in 0...whole.count {
            let prefix = Array(whole[..<length])
            if length < headerEnd {
                let expected: RTPParseError.Kind = length < 12 ? .truncated : length < 20 ? .csrcOverrun : .extensionOverrun
                let error = #expect(throws: RTPParseError.self, "length \(length)") {
                    try RTPPacket(parsing: buffer(prefix))
                }
                #expect(error?.kind == expected, "length \(length)")
            } else {
                let packet = try RTPPacket(parsing: buffer(prefix))
                #expect(bytes(packet.payload) == Array(whole[headerEnd..<length]), "length \(length)")
                #expect(packet.csrcs.count == 2)
            }
        }
    }

    @Test func roundTripsThroughWriteAndParse() throws {
        let original = RTPPacket(
            payloadType: 97, sequenceNumber: 65535, timestamp: 0xFFFF_FFFF, ssrc: 42, marker: true,
            csrcs: [1, 2, 3], extensionProfile: 0x1000, extensionData: buffer([1, 2, 3, 4, 5, 6, 7, 8]),
            payload: buffer(Array(0..<200)), paddingLength: 7)
        var wire = ByteBuffer()
        original.write(into: &wire)
        #expect(wire.readableBytes == original.encodedLength)
        #expect(wire.readableBytes == 12 + 12 + 4 + 8 + 200 + 7)
        let parsed = try RTPPacket(parsing: wire)
        #expect(parsed == original)
        // Padding octets are zero but for the count.
        #expect(Array(bytes(wire).suffix(7)) == [0, 0, 0, 0, 0, 0, 7])
    }

    @Test func writesTheReferenceBytes() throws {
        let packet = try RTPPacket(parsing: buffer(Self.fullPacket))
        var wire = ByteBuffer()
        packet.write(into: &wire)
        #expect(bytes(wire) == Self.fullPacket)
    }

    @Test func roundTripsAPlainPacket() throws {
        let original = RTPPacket(payloadType: 0, sequenceNumber: 1, timestamp: 160, ssrc: 0x1234_5678, payload: buffer([9, 8, 7]))
        var wire = ByteBuffer()
        original.write(into: &wire)
        #expect(bytes(wire) == [0x80, 0x00, 0x00, 0x01, 0, 0, 0, 160, 0x12, 0x34, 0x56, 0x78, 9, 8, 7])
        #expect(try RTPPacket(parsing: wire) == original)
    }

    @Test func extensionDataIsPaddedToAWord() throws {
        let original = RTPPacket(payloadType: 96, sequenceNumber: 5, timestamp: 6, ssrc: 7,
                                 extensionProfile: 0xBEDE, extensionData: buffer([0x22, 0x33, 0x44, 0x55, 0x66]),
                                 payload: buffer([0xEE]))
        var wire = ByteBuffer()
        original.write(into: &wire)
        #expect(wire.readableBytes == original.encodedLength)
        #expect(bytes(wire)[12..<16] == [0xBE, 0xDE, 0x00, 0x02])
        let parsed = try RTPPacket(parsing: wire)
        #expect(parsed.extensionData.map(bytes) == [0x22, 0x33, 0x44, 0x55, 0x66, 0, 0, 0])
        #expect(bytes(parsed.payload) == [0xEE])
    }

    @Test func extensionDataWithoutProfileIsDropped() {
        let packet = RTPPacket(payloadType: 96, sequenceNumber: 0, timestamp: 0, ssrc: 0,
                               extensionData: buffer([1, 2, 3, 4]), payload: ByteBuffer())
        #expect(packet.extensionData == nil)
        var wire = ByteBuffer()
        packet.write(into: &wire)
        #expect(wire.readableBytes == 12)
        #expect(bytes(wire)[0] == 0x80)
    }

    @Test func paddingFlagFollowsPaddingLength() {
        var packet = RTPPacket(payloadType: 96, sequenceNumber: 0, timestamp: 0, ssrc: 0, payload: ByteBuffer())
        #expect(!packet.padding)
        packet.padding = true
        #expect(packet.paddingLength == 1)
        packet.paddingLength = 12
        packet.padding = true
        #expect(packet.paddingLength == 12)
        packet.padding = false
        #expect(packet.paddingLength == 0)
    }

    /// Random bytes with a valid first byte: parsing never crashes, and whatever parses
    /// survives write → parse unchanged.
    @Test func randomInputNeverCrashesAndReparsesStably() throws {
        var generator = SeededGenerator(seed: 3550)
        var parsedCount = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...48, using: &generator)
            var input = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if !input.isEmpty, Bool.random(using: &generator) {
                input[0] = 0x80 | input[0] & 0x3F  // version 2, random P/X/CC
            }
            guard let packet = try? RTPPacket(parsing: buffer(input)) else { continue }
            parsedCount += 1
            var wire = ByteBuffer()
            packet.write(into: &wire)
            #expect(wire.readableBytes == input.count)
            #expect(try RTPPacket(parsing: wire) == packet)
        }
        #expect(parsedCount > 500)  // the success path was exercised
    }
}
