import Foundation
import H26x
@testable import Hub
import MP4
import NIOCore
import Testing

@Suite("Live fragments pre-framed as WebSocket messages, once for every viewer")
struct LiveFragmentFramingTests {
    /// RFC 6455 §5.2, as a browser reads it: FIN + opcode, then the 7-, 16- or 64-bit length.
    func unframe(_ buffer: ByteBuffer) -> (fin: Bool, opcode: UInt8, masked: Bool, payload: [UInt8])? {
        let bytes = Array(buffer.readableBytesView)
        guard bytes.count >= 2 else { return nil }
        var length = Int(bytes[1] & 0x7F)
        var start = 2
        if length == 126 {
            length = Int(bytes[2]) << 8 | Int(bytes[3])
            start = 4
        } else if length == 127 {
            length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
            start = 10
        }
        guard bytes.count == start + length else { return nil }
        return (bytes[0] & 0x80 != 0, bytes[0] & 0x0F, bytes[1] & 0x80 != 0, Array(bytes[start...]))
    }

    @Test(arguments: [0, 1, 125, 126, 127, 65_535, 65_536, 300_000])
    func everyLengthFormRoundTrips(length: Int) throws {
        let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for headroom in [0, 10] {
            var fragment = ByteBufferAllocator().buffer(capacity: headroom + length)
            fragment.moveWriterIndex(to: headroom)
            fragment.moveReaderIndex(to: headroom)
            fragment.writeBytes(payload)
            let framed = try #require(unframe(LiveFragmentFraming.webSocketBinary.wrap(fragment)))
            #expect(framed.fin && framed.opcode == 0x2 && !framed.masked)
            #expect(framed.payload == payload)
        }
    }

    @Test func withHeadroomTheHeaderGoesInPlaceAndNothingIsCopied() {
        var fragment = ByteBufferAllocator().buffer(capacity: 10 + 1000)
        fragment.moveWriterIndex(to: 10)
        fragment.moveReaderIndex(to: 10)
        fragment.writeBytes([UInt8](repeating: 7, count: 1000))
        let storage = fragment.withVeryUnsafeBytes { Int(bitPattern: $0.baseAddress) }
        // Handed over, as the live stream does with what the muxer returns: the only reference.
        let framed = LiveFragmentFraming.webSocketBinary.wrap(consume fragment)
        // 1000 bytes take a 4-byte header, written into the 10 free bytes: same storage, reader index moved back.
        #expect(framed.readerIndex == 6)
        #expect(framed.withVeryUnsafeBytes { Int(bitPattern: $0.baseAddress) } == storage)
    }

    @Test func aSharedFragmentIsCopiedNotChangedUnderItsOtherHolders() {
        var fragment = ByteBufferAllocator().buffer(capacity: 10 + 3)
        fragment.moveWriterIndex(to: 10)
        fragment.moveReaderIndex(to: 10)
        fragment.writeBytes([1, 2, 3])
        let framed = LiveFragmentFraming.webSocketBinary.wrap(fragment)
        #expect(Array(framed.readableBytesView) == [0x82, 3, 1, 2, 3])
        #expect(Array(fragment.readableBytesView) == [1, 2, 3])
    }

    @Test func bareFramingLeavesTheFragmentAlone() {
        let fragment = ByteBuffer(bytes: [1, 2, 3])
        #expect(LiveFragmentFraming.none.wrap(fragment) == fragment)
        #expect(LiveFragmentFraming.none.headroom == 0)
    }

    /// The muxer leaves the room: a live fragment from it is framed without a copy and is byte for byte
    /// the fragment a muxer without headroom writes.
    @Test func theMuxersHeadroomTakesTheHeader() throws {
        let clip = try DemoUpstream.loadClip(DemoUpstream.bundledClip)
        let format = clip.format
        var plain = try FragmentedMP4Muxer(video: format, policy: .everyFrame)
        var roomy = try FragmentedMP4Muxer(video: format, policy: .everyFrame)
        roomy.fragmentHeadroom = LiveFragmentFraming.webSocketBinary.headroom
        var compared = 0
        for (index, unit) in clip.units.prefix(10).enumerated() {
            let timestamp = Int64(index * 3600)
            for (a, b) in zip(plain.appendVideo(unit, timestamp: timestamp), roomy.appendVideo(unit, timestamp: timestamp)) {
                guard case .fragment(let bare, _) = a, case .fragment(let spaced, _) = b else { continue }
                #expect(bare == spaced)
                #expect(spaced.readerIndex == 10)
                let framed = LiveFragmentFraming.webSocketBinary.wrap(spaced)
                #expect(framed.capacity == spaced.capacity, "framed in place")
                #expect(unframe(framed)?.payload == Array(bare.readableBytesView))
                compared += 1
            }
        }
        #expect(compared >= 8)
    }
}
