import Foundation
import NIOCore

/// One coded picture: all NAL units of one access unit, in decode order, without start codes or
/// length prefixes (ITU-T H.264 §7.4.1.2.3, ITU-T H.265 §7.4.2.4.4).
public struct AccessUnit: Sendable {
    public var codec: VideoCodec
    /// The NAL units, each starting with its NAL unit header (1 byte for H.264, 2 for H.265).
    public var nalUnits: [ByteBuffer] {
        didSet {
            sampleBytes = nil
            frontRoom = nil
        }
    }
    /// The same NAL units in MP4 sample format, what `avcc()` returns, when the depacketizer built the unit
    /// that way (it does: it copies each NAL unit once, there): the muxers then take them without a copy.
    /// nil for units made otherwise, or once `nalUnits` is changed.
    public private(set) var sampleBytes: ByteBuffer?
    /// The free bytes in front of `sampleBytes` (all bytes before its reader index), for the one muxer that
    /// claims them to write a fragment's header there (``SampleFrontRoom``).
    public private(set) var frontRoom: SampleFrontRoom?
    /// How many bytes the depacketizer leaves in front of `sampleBytes`: a one-sample `moof` and the `mdat`
    /// header (at most 112 bytes) and a transport header (a WebSocket message's is at most 10).
    public static let sampleFrontRoom = 128
    /// H.264: contains an IDR slice (nal_unit_type 5); H.265: contains an IRAP picture (types 16...23).
    public var isKeyframe: Bool
    /// The RTP timestamp shared by the unit's packets (90 kHz clock for video, RFC 6184 §5.1).
    public var rtpTimestamp: UInt32
    /// Left nil by the depacketizer; the caller fills it (from RTCP sender reports or arrival time).
    public var wallClock: Date?

    public init(codec: VideoCodec, nalUnits: [ByteBuffer], isKeyframe: Bool, rtpTimestamp: UInt32, wallClock: Date? = nil) {
        self.codec = codec
        self.nalUnits = nalUnits
        self.isKeyframe = isKeyframe
        self.rtpTimestamp = rtpTimestamp
        self.wallClock = wallClock
    }

    /// A unit whose `sample` holds `nalUnits` in MP4 sample format (4-byte sizes), with ``sampleFrontRoom``
    /// free bytes before its reader index that nothing else uses.
    init(codec: VideoCodec, nalUnits: [ByteBuffer], sample: ByteBuffer, isKeyframe: Bool, rtpTimestamp: UInt32) {
        self.init(codec: codec, nalUnits: nalUnits, isKeyframe: isKeyframe, rtpTimestamp: rtpTimestamp)
        sampleBytes = sample
        frontRoom = SampleFrontRoom(bytes: sample.readerIndex)
    }

    /// This unit as a depacketizer makes it: its NAL units copied once into sample bytes with front room (for a
    /// source that is not RTP, such as the demo camera, so that its frames take the same path as a camera's).
    public func packed() -> AccessUnit {
        var sample = Self.emptySample(capacity: byteCount + 4 * nalUnits.count)
        let starts = nalUnits.map { Self.append($0, to: &sample) }
        let slices = zip(starts, nalUnits).map { sample.getSlice(at: $0, length: $1.readableBytes)! }
        var unit = AccessUnit(codec: codec, nalUnits: slices, sample: sample, isKeyframe: isKeyframe, rtpTimestamp: rtpTimestamp)
        unit.wallClock = wallClock
        return unit
    }

    /// Sample bytes with nothing in them yet: ``sampleFrontRoom`` free bytes, then room for `capacity` more.
    static func emptySample(capacity: Int) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: sampleFrontRoom + capacity)
        buffer.moveWriterIndex(to: sampleFrontRoom)
        buffer.moveReaderIndex(to: sampleFrontRoom)
        return buffer
    }

    /// Writes `nal` after its 4-byte size; returns where the NAL unit itself starts.
    static func append(_ nal: ByteBuffer, to sample: inout ByteBuffer) -> Int {
        sample.writeInteger(UInt32(nal.readableBytes))
        let start = sample.writerIndex
        sample.writeImmutableBuffer(nal)
        return start
    }

    /// The sum of the NAL unit sizes (headers included, no prefixes).
    public var byteCount: Int {
        var total = 0
        for nal in nalUnits { total += nal.readableBytes }
        return total
    }

    /// The sample format of MP4 files: each NAL unit preceded by its size as a big-endian integer of
    /// `lengthSize` bytes (ISO/IEC 14496-15 §5.3.2 and §8.3.2; lengthSizeMinusOne + 1 of the avcC/hvcC).
    ///
    /// - Precondition: `lengthSize` is 1, 2, 3 or 4, and every NAL unit fits in that many bytes
    ///   (always true for the default of 4).
    public func avcc(lengthSize: Int = 4) -> ByteBuffer {
        precondition((1...4).contains(lengthSize), "AccessUnit.avcc: lengthSize must be 1, 2, 3 or 4, not \(lengthSize)")
        if lengthSize == 4, let sampleBytes { return sampleBytes }
        let limit = lengthSize == 4 ? Int(UInt32.max) : (1 << (8 * lengthSize)) - 1
        var out = ByteBufferAllocator().buffer(capacity: byteCount + nalUnits.count * lengthSize)
        for nal in nalUnits {
            let size = nal.readableBytes
            precondition(size <= limit, "AccessUnit.avcc: a \(size)-byte NAL unit does not fit a \(lengthSize)-byte length field; use lengthSize 4")
            switch lengthSize {
            case 4: out.writeInteger(UInt32(size))
            case 2: out.writeInteger(UInt16(size))
            case 1: out.writeInteger(UInt8(size))
            default:
                out.writeInteger(UInt8(truncatingIfNeeded: size >> 16))
                out.writeInteger(UInt16(truncatingIfNeeded: size))
            }
            out.writeImmutableBuffer(nal)
        }
        return out
    }

    /// The Annex B byte-stream format (ITU-T H.264 Annex B): each NAL unit preceded by the 4-byte
    /// start code 00 00 00 01.
    public func annexB() -> ByteBuffer {
        annexB(prepending: [])
    }

    /// The Annex B byte stream, with `parameterSets` (for example `VideoFormat.parameterSets`) written
    /// first when the unit does not carry an SPS of its own. A decoder started on this unit alone (a
    /// snapshot) then has everything it needs.
    public func annexB(parameterSets: [[UInt8]]) -> ByteBuffer {
        let spsType: UInt8 = codec == .h264 ? NALUnitType.H264.sps : NALUnitType.H265.sps
        let hasSPS = nalUnits.contains { NALUnitType.of($0, codec: codec) == spsType }
        return annexB(prepending: hasSPS ? [] : parameterSets)
    }

    private func annexB(prepending parameterSets: [[UInt8]]) -> ByteBuffer {
        var capacity = byteCount + 4 * nalUnits.count
        for ps in parameterSets { capacity += ps.count + 4 }
        var out = ByteBufferAllocator().buffer(capacity: capacity)
        for ps in parameterSets where !ps.isEmpty {
            out.writeInteger(UInt32(1))
            out.writeBytes(ps)
        }
        for nal in nalUnits {
            out.writeInteger(UInt32(1))
            out.writeImmutableBuffer(nal)
        }
        return out
    }
}
