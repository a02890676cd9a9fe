import FuzzSupport
import H26x
import NIOCore

/// Plays a fuzz input into a depacketizer as a sequence of RTP packets (RFC 6184 / RFC 7798
/// payloads), letting the input decide every packet's header fields as well as its bytes.
///
/// Input layout (Fuzz/Seeds/make_seeds.py writes seeds this way):
///
///     flags:1  first sequence number:2  first timestamp:4
///     [if flags bit 0: length:2 + Annex-B parameter sets, as from an SDP's sprop-*]
///     then packets, each: control:1  length:1 (or 2 when control bit 5 is set)  payload
///
/// control bit 0: marker; bits 1-2: timestamp step (same, +3600, +3000, -3600);
/// bits 3-4: sequence step (+1, +1, +2 = one lost, +0 = duplicate); bit 6: flush() first;
/// bit 7: reset() first.
///
/// Checks every access unit that comes out: its codec, no empty NAL units (the contract
/// drops them), byteCount equal to the NAL sizes, and AVCC / Annex-B renderings of the
/// expected size; keyframes never outnumber access units in the statistics.
public struct DepacketizerSession {
    public private(set) var packets = 0
    public private(set) var accessUnits = 0

    public init() {}

    public mutating func run<Depacketizer: VideoDepacketizer>(
        _ input: inout FuzzInput,
        make: ([[UInt8]]) -> Depacketizer,
        payloadCheck: (ArraySlice<UInt8>) -> Void
    ) {
        let flags = input.byte()
        var sequenceNumber = input.uint16()
        var timestamp = input.uint32()
        var parameterSets: [[UInt8]] = []
        if flags & 1 == 1 {
            let length = Int(input.uint16())
            parameterSets = AnnexB.split(Array(input.take(length)))
            for set in parameterSets {
                payloadCheck(set[...])
            }
        }
        var depacketizer = make(parameterSets)
        let codec = depacketizer.codec

        while !input.isEmpty {
            let control = input.byte()
            let length = control & 0x20 != 0 ? Int(input.uint16()) : Int(input.byte())
            let payload = input.take(length)
            if control & 0x40 != 0 {
                check(depacketizer.flush(), codec: codec)
            }
            if control & 0x80 != 0 {
                depacketizer.reset()
            }
            switch (control >> 1) & 3 {
            case 1: timestamp &+= 3600
            case 2: timestamp &+= 3000
            case 3: timestamp &-= 3600
            default: break
            }
            switch (control >> 3) & 3 {
            case 2: sequenceNumber &+= 2
            case 3: break
            default: sequenceNumber &+= 1
            }
            payloadCheck(payload)
            let units = depacketizer.push(payload: ByteBuffer(bytes: payload), sequenceNumber: sequenceNumber,
                                          timestamp: timestamp, marker: control & 1 == 1)
            packets += 1
            check(units, codec: codec)
            if depacketizer.formatChanged {
                depacketizer.formatChanged = false
                if let format = depacketizer.format {
                    fuzzCheck(format.codec == codec, "a \(codec) depacketizer reports a \(format.codec) format")
                    _ = format.codecString
                    _ = format.decoderConfigurationRecord.count
                }
            }
        }
        check(depacketizer.flush(), codec: codec)
        let statistics = depacketizer.statistics
        fuzzCheck(statistics.keyframes <= statistics.accessUnits,
                  "statistics count \(statistics.keyframes) keyframes in \(statistics.accessUnits) access units")
        fuzzCheck(statistics.droppedUnits >= 0 && statistics.lossEvents >= 0
                  && statistics.malformedPackets >= 0 && statistics.unsupportedPackets >= 0,
                  "a statistics counter went negative: \(statistics)")
    }

    private mutating func check(_ units: [AccessUnit], codec: VideoCodec) {
        for unit in units {
            accessUnits += 1
            fuzzCheck(unit.codec == codec, "a \(codec) depacketizer produced a \(unit.codec) access unit")
            fuzzCheck(!unit.nalUnits.isEmpty, "an access unit without NAL units came out")
            var total = 0
            for nal in unit.nalUnits {
                fuzzCheck(nal.readableBytes > 0, "an access unit holds an empty NAL unit")
                total += nal.readableBytes
            }
            fuzzCheck(unit.byteCount == total, "byteCount \(unit.byteCount) but the NAL units hold \(total) bytes")
            let count = unit.nalUnits.count
            let avcc = unit.avcc().readableBytes
            fuzzCheck(avcc == total + 4 * count, "avcc() is \(avcc) bytes for \(count) NAL units of \(total) bytes")
            let annexB = unit.annexB().readableBytes
            fuzzCheck(annexB == total + 4 * count, "annexB() is \(annexB) bytes for \(count) NAL units of \(total) bytes")
        }
    }
}
