/// Follows one source's RTP sequence numbers across the 16-bit wrap and counts loss,
/// duplicates, late (reordered) packets and restarts, after RFC 3550 Appendix A.1 and A.3.
///
/// Each number fed to `record(_:)` is classified against the highest number seen so far:
/// - ahead by 1: `.inOrder`; ahead by 2 up to `maxDropout − 1` (A.1 MAX_DROPOUT): `.gap(missing:)`;
/// - equal, or behind and already seen: `.duplicate`;
/// - behind by at most `maxMisorder` (A.1 MAX_MISORDER) and not seen yet: `.late`;
/// - anything further (ahead by `maxDropout` or more, behind by more than `maxMisorder`):
///   `.restart`, and tracking starts afresh from that number.
///
/// Deviation from A.1: A.1 drops the first packet of a large jump and only restarts when the next
/// one follows it. A camera that restarts its stream sends a key frame first, and dropping its
/// first packet would cost a whole GOP, so here the jump itself is the restart. A stray packet
/// from elsewhere therefore shows as two restarts (there and back); filter by SSRC upstream.
///
/// Counters span restarts: loss is "expected − received" (A.3) summed over each run between restarts.
public struct SequenceTracker: Sendable {
    /// How a packet's sequence number relates to the ones before it.
    public enum Outcome: Sendable, Equatable {
        /// The first packet: tracking starts here.
        case first
        /// The next number after the highest so far.
        case inOrder
        /// Ahead of the highest by more than one: `missing` numbers were skipped (lost or still to come).
        case gap(missing: Int)
        /// Seen before: drop it.
        case duplicate
        /// Behind the highest but not seen before: it arrived after a later packet (reordered).
        case late
        /// A jump too large to be loss or reordering: the source restarted its numbering.
        case restart
    }

    /// RFC 3550 A.1 MAX_DROPOUT: the largest forward jump still taken as loss.
    public static let maxDropout = 3000
    /// RFC 3550 A.1 MAX_MISORDER: the furthest behind a packet may be and count as reordered.
    public static let maxMisorder = 100

    /// Unique packets accepted (first, in order, gap, late, restart); duplicates are not counted.
    public private(set) var packetsReceived = 0
    /// Packets reported as `.duplicate`.
    public private(set) var duplicates = 0
    /// Packets reported as `.late`.
    public private(set) var latePackets = 0
    /// Packets reported as `.restart`.
    public private(set) var restarts = 0

    /// A.1 max_seq: the highest sequence number seen in the current run.
    private var maxSequence: UInt16 = 0
    /// A.1 cycles: wraps of the sequence number in the current run (not shifted).
    private var cycles = 0
    /// A.1 base_seq as an extended number: the lowest number of the current run.
    private var baseSequence = 0
    private var started = false
    private var history = SequenceHistory()
    /// Expected packets of the runs before the last restart.
    private var expectedInEarlierRuns = 0
    /// A.3 expected_prior / received_prior, for the fraction lost between reports.
    private var expectedPrior = 0
    private var receivedPrior = 0

    public init() {}

    /// Classifies `sequenceNumber` and updates the counters.
    public mutating func record(_ sequenceNumber: UInt16) -> Outcome {
        guard started else {
            startRun(at: sequenceNumber)
            return .first
        }
        let ahead = Int(sequenceNumber &- maxSequence)
        if ahead == 0 {
            duplicates += 1
            return .duplicate
        }
        if ahead < Self.maxDropout {
            if sequenceNumber < maxSequence {
                cycles += 1
            }
            maxSequence = sequenceNumber
            history.advance(by: ahead)
            history.insert(behind: 0)
            packetsReceived += 1
            return ahead == 1 ? .inOrder : .gap(missing: ahead - 1)
        }
        let behind = 65536 - ahead
        if behind <= Self.maxMisorder {
            if history.contains(behind: behind) {
                duplicates += 1
                return .duplicate
            }
            history.insert(behind: behind)
            packetsReceived += 1
            latePackets += 1
            // A late packet from before the first one received extends the run backwards.
            baseSequence = min(baseSequence, extendedMaximum - behind)
            return .late
        }
        expectedInEarlierRuns += expectedInRun
        restarts += 1
        startRun(at: sequenceNumber)
        return .restart
    }

    /// A.1 extended highest sequence number received (cycles in the high 16 bits) of the current run;
    /// nil before the first packet.
    public var extendedHighestSequence: UInt32? {
        started ? UInt32(truncatingIfNeeded: extendedMaximum) : nil
    }

    /// A.3 expected: the packets the numbering says were sent, over all runs.
    public var packetsExpected: Int {
        expectedInEarlierRuns + expectedInRun
    }

    /// A.3 cumulative packets lost: expected − received, never negative.
    public var packetsLost: Int {
        max(0, packetsExpected - packetsReceived)
    }

    /// An RFC 3550 §6.4.1 report block for this source. The fraction lost covers the packets since
    /// the previous call (A.3 expected_prior / received_prior), so call it once per report sent.
    public mutating func reportBlock(ssrc: UInt32, jitter: UInt32, lastSR: UInt32, delaySinceLastSR: UInt32) -> RTCPReportBlock {
        let expected = packetsExpected
        let expectedInterval = expected - expectedPrior
        let receivedInterval = packetsReceived - receivedPrior
        expectedPrior = expected
        receivedPrior = packetsReceived
        let lostInterval = expectedInterval - receivedInterval
        let fraction = expectedInterval <= 0 || lostInterval <= 0 ? 0 : min(255, (lostInterval << 8) / expectedInterval)
        return RTCPReportBlock(
            ssrc: ssrc,
            fractionLost: UInt8(fraction),
            cumulativeLost: Int32(min(packetsLost, Int(RTCPReportBlock.cumulativeLostRange.upperBound))),
            extendedHighestSequence: extendedHighestSequence ?? 0,
            jitter: jitter,
            lastSR: lastSR,
            delaySinceLastSR: delaySinceLastSR
        )
    }

    private var extendedMaximum: Int {
        cycles << 16 | Int(maxSequence)
    }

    private var expectedInRun: Int {
        started ? extendedMaximum - baseSequence + 1 : 0
    }

    /// A.1 init_seq.
    private mutating func startRun(at sequenceNumber: UInt16) {
        started = true
        maxSequence = sequenceNumber
        cycles = 0
        baseSequence = Int(sequenceNumber)
        history.removeAll()
        history.insert(behind: 0)
        packetsReceived += 1
    }
}
