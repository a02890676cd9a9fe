import Foundation
import NIOCore
import Testing
@testable import RTP

@Suite("RTCPPacket compound parsing (RFC 3550 §6)")
struct RTCPPacketTests {
    /// 2024-01-01T00:00:00.5Z as an NTP timestamp.
    static let ntp2024: UInt64 = 0xE93C_7F00_8000_0000

    static let expectedBlock = RTCPReportBlock(
        ssrc: 0xAABB_CCDD, fractionLost: 0x40, cumulativeLost: -2, extendedHighestSequence: 0x0001_0005,
        jitter: 37, lastSR: 0x4A80_8000, delaySinceLastSR: 0x0001_0000)

    /// SR with one report block (52 bytes) followed by SDES with a CNAME "cam@host1" (20 bytes),
    /// laid out field by field after RFC 3550 §6.4.1 and §6.5.
    static var senderReportAndSDES: [UInt8] {
        var b = Bytes()
        b.u8(0x81); b.u8(200); b.u16(12)
        b.u32(0x1122_3344)
        b.u64(ntp2024)
        b.u32(123_456)
        b.u32(1000)
        b.u32(1_000_000)
        b.u32(0xAABB_CCDD)
        b.u8(0x40); b.raw([0xFF, 0xFF, 0xFE])
        b.u32(0x0001_0005)
        b.u32(37)
        b.u32(0x4A80_8000)
        b.u32(0x0001_0000)
        b.u8(0x81); b.u8(202); b.u16(4)
        b.u32(0x1122_3344)
        b.u8(1); b.u8(9); b.text("cam@host1")
        b.raw([0, 0, 0, 0, 0])
        return b.array
    }

    @Test func parsesSenderReportAndSDES() throws {
        let packets = try RTCPPacket.parseCompound(buffer(Self.senderReportAndSDES))
        #expect(packets.count == 2)
        guard case .senderReport(let report, let blocks)? = packets.first else {
            Issue.record("expected an SR first, got \(packets)")
            return
        }
        #expect(report.ssrc == 0x1122_3344)
        #expect(report.ntpTimestamp == Self.ntp2024)
        #expect(report.rtpTimestamp == 123_456)
        #expect(report.packetCount == 1000)
        #expect(report.octetCount == 1_000_000)
        #expect(report.date == Date(timeIntervalSince1970: 1_704_067_200.5))
        #expect(report.compactNTPTimestamp == 0x7F00_8000)
        #expect(blocks == [Self.expectedBlock])
        #expect(packets[1] == .sourceDescription)
    }

    @Test func senderReportWriterMatchesTheReferenceBytes() {
        let report = RTCPSenderReport(ssrc: 0x1122_3344, ntpTimestamp: Self.ntp2024, rtpTimestamp: 123_456,
                                      packetCount: 1000, octetCount: 1_000_000)
        var wire = ByteBuffer()
        report.write(reports: [Self.expectedBlock], into: &wire)
        #expect(bytes(wire) == Array(Self.senderReportAndSDES.prefix(52)))
    }

    /// Every cut of the compound packet: the packets wholly before the cut, or an error if there are none.
    @Test func everyTruncationKeepsTheWholePackets() throws {
        let whole = Self.senderReportAndSDES
        for length in 0...whole.count {
            let prefix = buffer(Array(whole[..<length]))
            if length < 52 {
                #expect(throws: RTPParseError.self, "length \(length)") {
                    try RTCPPacket.parseCompound(prefix)
                }
            } else {
                let packets = try RTCPPacket.parseCompound(prefix)
                #expect(packets.count == (length < 72 ? 1 : 2), "length \(length)")
            }
        }
    }

    @Test func builtReceiverReportReparses() throws {
        let blocks = [
            Self.expectedBlock,
            RTCPReportBlock(ssrc: 7, fractionLost: 0, cumulativeLost: 0x7F_FFFF, extendedHighestSequence: 3,
                            jitter: 0, lastSR: 0, delaySinceLastSR: 0),
        ]
        let rr = RTCPReceiverReport(ssrc: 0x5EED_0001, cname: "watchbox@hub", reports: blocks)
        var wire = ByteBuffer()
        rr.write(into: &wire)
        let raw = bytes(wire)
        // RR: 8 + 2 × 24 bytes; SDES: 4 + SSRC 4 + type, length, 12 text bytes, null, padding to 24.
        #expect(raw.count == 56 + 24)
        #expect(raw[0...3] == [0x82, 201, 0x00, 0x0D])
        #expect(raw[56...59] == [0x81, 202, 0x00, 0x05])
        #expect(raw[64...65] == [1, 12])
        #expect(Array(raw[66..<78]) == Array("watchbox@hub".utf8))
        #expect(raw[78...79] == [0, 0])
        let packets = try RTCPPacket.parseCompound(wire)
        #expect(packets == [.receiverReport(ssrc: 0x5EED_0001, reports: blocks), .sourceDescription])
    }

    @Test(arguments: 0...8)
    func sdesChunkIsAlwaysNullTerminatedAndWordAligned(cnameLength: Int) throws {
        let rr = RTCPReceiverReport(ssrc: 1, cname: String(repeating: "x", count: cnameLength), reports: [])
        var wire = ByteBuffer()
        rr.write(into: &wire)
        let raw = bytes(wire)
        #expect(raw.count % 4 == 0)
        let sdes = Array(raw[8...])
        #expect(sdes.count == 4 + 4 + ((2 + cnameLength + 1 + 3) / 4) * 4)
        #expect(Int(sdes[9]) == cnameLength)
        #expect(sdes[(10 + cnameLength)...].allSatisfy { $0 == 0 })
        #expect(try RTCPPacket.parseCompound(wire) == [.receiverReport(ssrc: 1, reports: []), .sourceDescription])
    }

    @Test func moreThan31BlocksSplitIntoSeveralReceiverReports() throws {
        let blocks = (0..<40).map {
            RTCPReportBlock(ssrc: UInt32($0), fractionLost: UInt8($0), cumulativeLost: Int32($0), extendedHighestSequence: 0,
                            jitter: 0, lastSR: 0, delaySinceLastSR: 0)
        }
        var wire = ByteBuffer()
        RTCPReceiverReport(ssrc: 9, cname: "a", reports: blocks).write(into: &wire)
        let packets = try RTCPPacket.parseCompound(wire)
        #expect(packets == [
            .receiverReport(ssrc: 9, reports: Array(blocks[..<31])),
            .receiverReport(ssrc: 9, reports: Array(blocks[31...])),
            .sourceDescription,
        ])
    }

    @Test func longCNAMEIsCutOnACharacterBoundary() throws {
        let cname = String(repeating: "é", count: 200)  // 400 UTF-8 bytes
        var wire = ByteBuffer()
        RTCPReceiverReport(ssrc: 1, cname: cname, reports: []).write(into: &wire)
        let raw = bytes(wire)
        let length = Int(raw[17])
        #expect(length == 254)
        #expect(String(decoding: raw[18..<(18 + length)], as: UTF8.self) == String(repeating: "é", count: 127))
        #expect(try RTCPPacket.parseCompound(wire).count == 2)
    }

    @Test func cumulativeLostIsSignExtendedAndClamped() throws {
        for (value, expected) in [(Int32(-1), Int32(-1)), (-0x80_0000, -0x80_0000), (0x7F_FFFF, 0x7F_FFFF),
                                  (0x100_0000, 0x7F_FFFF), (-0x100_0000, -0x80_0000), (Int32.min, -0x80_0000)] {
            let block = RTCPReportBlock(ssrc: 1, fractionLost: 255, cumulativeLost: value, extendedHighestSequence: 2,
                                        jitter: 3, lastSR: 4, delaySinceLastSR: 5)
            var wire = ByteBuffer()
            RTCPReceiverReport(ssrc: 1, cname: "c", reports: [block]).write(into: &wire)
            let packets = try RTCPPacket.parseCompound(wire)
            guard case .receiverReport(_, let reports)? = packets.first else {
                Issue.record("no RR in \(packets)")
                continue
            }
            #expect(reports.first?.cumulativeLost == expected, "\(value)")
            #expect(reports.first?.fractionLost == 255)
        }
    }

    @Test func parsesGoodbyeWithAndWithoutReason() throws {
        var b = Bytes()
        // BYE, 2 sources, reason "restart" (1 + 7 bytes): 20 bytes, length field 4.
        b.u8(0x82); b.u8(203); b.u16(4)
        b.u32(10); b.u32(11)
        b.u8(7); b.text("restart")
        // BYE, 1 source, no reason.
        b.u8(0x81); b.u8(203); b.u16(1)
        b.u32(12)
        let packets = try RTCPPacket.parseCompound(b.buffer)
        #expect(packets == [.goodbye(ssrcs: [10, 11], reason: "restart"), .goodbye(ssrcs: [12], reason: nil)])
    }

    @Test func otherPacketTypesAreSkippedByLength() throws {
        var b = Bytes()
        b.u8(0x80); b.u8(204); b.u16(2)  // APP, name and one word of data
        b.u32(1); b.text("TEST")
        b.u8(0x81); b.u8(206); b.u16(2)  // PSFB (RFC 4585)
        b.u32(1); b.u32(2)
        b.u8(0x81); b.u8(203); b.u16(1)
        b.u32(3)
        let packets = try RTCPPacket.parseCompound(b.buffer)
        #expect(packets == [.other(packetType: 204), .other(packetType: 206), .goodbye(ssrcs: [3], reason: nil)])
    }

    @Test func paddedPacketIsParsedWithoutItsPadding() throws {
        var b = Bytes()
        // RR, no blocks, padded with 4 octets: length = 1 + 1 + 1 = 3.
        b.u8(0xA0); b.u8(201); b.u16(2)
        b.u32(99)
        b.raw([0, 0, 0, 4])
        #expect(try RTCPPacket.parseCompound(b.buffer) == [.receiverReport(ssrc: 99, reports: [])])
    }

    @Test func senderReportProfileExtensionIsSkipped() throws {
        var b = Bytes()
        b.u8(0x80); b.u8(200); b.u16(7)  // SR, no blocks, one extension word
        b.u32(1); b.u64(2); b.u32(3); b.u32(4); b.u32(5)
        b.u32(0xFFFF_FFFF)
        let packets = try RTCPPacket.parseCompound(b.buffer)
        #expect(packets == [.senderReport(RTCPSenderReport(ssrc: 1, ntpTimestamp: 2, rtpTimestamp: 3, packetCount: 4, octetCount: 5), reports: [])])
    }

    @Test func stopsAtTheFirstMalformedPacket() throws {
        var b = Bytes()
        b.raw(Array(Self.senderReportAndSDES.prefix(52)))
        b.raw([0x40, 201, 0, 1, 0, 0, 0, 1])  // version 1
        b.raw(Array(Self.senderReportAndSDES.suffix(20)))  // a valid SDES that is never reached
        let packets = try RTCPPacket.parseCompound(b.buffer)
        #expect(packets.count == 1)
        guard case .senderReport? = packets.first else {
            Issue.record("expected the SR, got \(packets)")
            return
        }
    }

    @Test func parsesFromTheReaderIndex() throws {
        var input = buffer([1, 2, 3] + Self.senderReportAndSDES)
        input.moveReaderIndex(forwardBy: 3)
        #expect(try RTCPPacket.parseCompound(input) == RTCPPacket.parseCompound(buffer(Self.senderReportAndSDES)))
    }

    static let malformed: [(name: String, bytes: [UInt8], kind: RTPParseError.Kind)] = [
        ("empty", [], .truncated),
        ("3 bytes", [0x80, 201, 0], .truncated),
        ("version 1", [0x40, 201, 0, 1, 0, 0, 0, 1], .unsupportedVersion),
        ("RTP on the RTCP channel", [0x10, 0x60, 0, 1, 0, 0, 0, 1], .unsupportedVersion),
        ("length past the end", [0x80, 201, 0, 2, 0, 0, 0, 1], .truncated),
        ("RR without its SSRC", [0x80, 201, 0, 0], .malformedRTCP),
        ("RR with RC=1 and no block", [0x81, 201, 0, 1, 0, 0, 0, 1], .malformedRTCP),
        ("SR without sender info", [0x80, 200, 0, 1, 0, 0, 0, 1], .malformedRTCP),
        ("SR with RC=2 and one block", [0x82, 200, 0, 12] + Array(repeating: 0, count: 48), .malformedRTCP),
        ("BYE with more sources than bytes", [0x83, 203, 0, 1, 0, 0, 0, 1], .malformedRTCP),
        ("BYE reason past the end", [0x81, 203, 0, 2, 0, 0, 0, 1, 9, 0x41, 0x42, 0x43], .malformedRTCP),
        ("SDES with more chunks than bytes", [0x82, 202, 0, 2, 0, 0, 0, 1, 1, 0, 0, 0], .malformedRTCP),
        ("padding count 0", [0xA0, 201, 0, 1, 0, 0, 0, 0], .invalidPadding),
        ("padding into the header", [0xA0, 201, 0, 1, 0, 0, 0, 5], .invalidPadding),
        ("padding eats the SSRC", [0xA0, 201, 0, 1, 0, 0, 0, 4], .malformedRTCP),
    ]

    @Test(arguments: malformed)
    func rejectsMalformedPackets(_ testCase: (name: String, bytes: [UInt8], kind: RTPParseError.Kind)) {
        let error = #expect(throws: RTPParseError.self, "\(testCase.name)") {
            try RTCPPacket.parseCompound(buffer(testCase.bytes))
        }
        #expect(error?.kind == testCase.kind, "\(testCase.name)")
        #expect(error?.description.contains("RFC 3550") == true, "\(testCase.name)")
    }

    /// Random bytes, half of them starting like RTCP: never a crash, and a result is never empty.
    @Test func randomInputNeverCrashes() {
        var generator = SeededGenerator(seed: 6_1)
        var parsedCount = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...80, using: &generator)
            var input = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if length >= 4, Bool.random(using: &generator) {
                input[0] = 0x80 | input[0] & 0x3F
                input[1] = UInt8.random(in: 200...204, using: &generator)
                input[2] = 0
                input[3] = UInt8.random(in: 0...UInt8(length / 4), using: &generator)
            }
            if let packets = try? RTCPPacket.parseCompound(buffer(input)) {
                parsedCount += 1
                #expect(!packets.isEmpty)
            }
        }
        #expect(parsedCount > 1000)
    }
}
