import FuzzSupport
import NIOCore
import RTP

/// Fuzzes the RTP module (RFC 3550) three ways with the same input:
///  1. the whole input as one RTP packet (§5.1): a packet that parses must serialise and
///     parse back to an equal packet;
///  2. the whole input as a compound RTCP packet (§6.1), each sender report also fed to a
///     WallClockMapper;
///  3. the input as a run of 8-byte records (sequence number, timestamp, arrival step) for
///     the receive-side state: SequenceTracker (Appendix A.1/A.3), JitterEstimator (A.8),
///     TimestampExtender and ReorderBuffer. They must not trap on any order of numbers,
///     and the reorder buffer must never release more packets than it was given.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let buffer = ByteBuffer(bytes: UnsafeBufferPointer(start: data, count: size))

    if let packet = try? RTPPacket(parsing: buffer) {
        var written = ByteBuffer()
        packet.write(into: &written)
        do {
            let again = try RTPPacket(parsing: written)
            fuzzCheck(again == packet, "an RTP packet did not survive write/parse: \(packet) became \(again)")
        } catch {
            fuzzCheck(false, "RTPPacket.write produced bytes RTPPacket(parsing:) rejects: \(error); packet \(packet)")
        }
    }

    var mapper = WallClockMapper(clockRate: 90_000)
    if let packets = try? RTCPPacket.parseCompound(buffer) {
        fuzzCheck(!packets.isEmpty, "RTCPPacket.parseCompound returned no packet instead of throwing")
        for packet in packets {
            if case .senderReport(let report, _) = packet {
                _ = report.date
                mapper.update(with: report)
            }
        }
    }

    var input = FuzzInput(data, size)
    var tracker = SequenceTracker()
    var jitter = JitterEstimator(clockRate: 90_000)
    var extender = TimestampExtender()
    var reorder = ReorderBuffer(capacity: 1 + Int(input.byte() % 64))
    var arrival = 0.0
    var released = 0
    var inserted = 0
    while input.remaining >= 8 {
        let sequenceNumber = input.uint16()
        let timestamp = input.uint32()
        arrival += Double(input.uint16()) / 1000
        _ = tracker.record(sequenceNumber)
        jitter.record(rtpTimestamp: timestamp, arrival: arrival)
        _ = extender.extend(timestamp)
        _ = mapper.date(forRTPTimestamp: timestamp)
        let packet = RTPPacket(payloadType: 96, sequenceNumber: sequenceNumber, timestamp: timestamp,
                               ssrc: 0x1234_5678, payload: ByteBuffer())
        inserted += 1
        released += reorder.insert(packet).count
    }
    released += reorder.drain().count
    fuzzCheck(released <= inserted, "ReorderBuffer released \(released) packets of \(inserted) inserted")
    fuzzCheck(reorder.held == 0, "ReorderBuffer holds \(reorder.held) packets after drain()")
    _ = tracker.packetsLost
    _ = tracker.extendedHighestSequence
    _ = tracker.reportBlock(ssrc: 1, jitter: jitter.jitter, lastSR: 0, delaySinceLastSR: 0)
    return 0
}
