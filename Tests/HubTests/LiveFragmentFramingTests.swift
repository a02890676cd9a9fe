import Foundation
import H26x
@testable import Hub
import MP4
import NIOCore
import Testing

@Suite("Live fragments written around the picture where it lies, pre-framed as WebSocket messages")
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
        let header = LiveFragmentFraming.webSocketBinaryHeader(length: length)
        #expect(header.count <= LiveFragmentFraming.maxHeaderBytes)
        let framed = try #require(unframe(ByteBuffer(bytes: header + payload)))
        #expect(framed.fin && framed.opcode == 0x2 && !framed.masked)
        #expect(framed.payload == payload)
        #expect(LiveFragmentFraming.none.prefix == nil)
    }

    /// The demo clip's pictures as a depacketizer hands them out: each in its own sample bytes, room in front.
    func pictures() throws -> (format: VideoFormat, units: [AccessUnit]) {
        let clip = try DemoUpstream.loadClip(DemoUpstream.bundledClip)
        return (clip.format, clip.units.prefix(30).map { $0.packed() })
    }

    func fragments(_ outputs: [FragmentedMP4Muxer.Output]) -> [ByteBuffer] {
        outputs.compactMap { if case .fragment(let bytes, _) = $0 { bytes } else { nil } }
    }

    /// A live muxer (in place, framed) writes, byte for byte, the WebSocket message of the fragment a plain
    /// muxer copies together; in the picture's own storage, and without changing what the unit's other readers
    /// see. A second in-place muxer of the same units finds the room taken, and copies.
    @Test func theLiveMuxerWritesAroundThePictureWithoutACopy() throws {
        let (format, units) = try pictures()
        var plain = try FragmentedMP4Muxer(video: format, policy: .everyFrame)
        var live = try FragmentedMP4Muxer(video: format, policy: .everyFrame)
        live.fragmentPrefix = LiveFragmentFraming.webSocketBinary.prefix
        live.writesInPlace = true
        var second = try FragmentedMP4Muxer(video: format, policy: .everyFrame)
        second.writesInPlace = true
        var compared = 0
        var previous: AccessUnit?
        for (index, unit) in units.enumerated() {
            let before = (unit.nalUnits.map { Array($0.readableBytesView) }, Array(unit.sampleBytes!.readableBytesView))
            let timestamp = Int64(index * 3600)
            let bare = fragments(plain.appendVideo(unit, timestamp: timestamp))
            let framed = fragments(live.appendVideo(unit, timestamp: timestamp))
            let copied = fragments(second.appendVideo(unit, timestamp: timestamp))
            #expect(bare.count == framed.count && bare.count == copied.count)
            for ((bare, framed), copied) in zip(zip(bare, framed), copied) {
                #expect(unframe(framed)?.payload == Array(bare.readableBytesView))
                #expect(copied == bare)
                compared += 1
            }
            // A fragment comes out a frame late (its duration is the next frame's start): the previous picture's.
            if let previous, !previous.isKeyframe, let fragment = framed.first {
                let storage = previous.sampleBytes!.withVeryUnsafeBytes { $0.baseAddress }
                #expect(fragment.withVeryUnsafeBytes { $0.baseAddress } == storage, "written where the picture lies")
                #expect(fragment.readableBytes - previous.sampleBytes!.readableBytes <= AccessUnit.sampleFrontRoom)
            }
            #expect(unit.nalUnits.map { Array($0.readableBytesView) } == before.0)
            #expect(Array(unit.sampleBytes!.readableBytesView) == before.1)
            previous = unit
        }
        #expect(compared >= 25)
        // The clip's keyframe repeats the SPS and PPS the init segment has: its sample leaves them out, a copy.
        #expect(live.statistics.fragmentsInPlace >= compared - 2)
        #expect(second.statistics.fragmentsInPlace == 0)
        #expect(plain.statistics.fragmentsInPlace == 0)
    }
}
