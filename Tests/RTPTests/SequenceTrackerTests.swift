import Testing
@testable import RTP

@Suite("SequenceTracker (RFC 3550 A.1, A.3)")
struct SequenceTrackerTests {
    private func record(_ numbers: [UInt16], into tracker: inout SequenceTracker) -> [SequenceTracker.Outcome] {
        numbers.map { tracker.record($0) }
    }

    @Test func startsEmpty() {
        let tracker = SequenceTracker()
        #expect(tracker.extendedHighestSequence == nil)
        #expect(tracker.packetsReceived == 0)
        #expect(tracker.packetsLost == 0)
        #expect(tracker.packetsExpected == 0)
    }

    @Test func inOrderAndGaps() {
        var tracker = SequenceTracker()
        #expect(record([100, 101, 102, 105, 106, 116], into: &tracker) == [.first, .inOrder, .inOrder, .gap(missing: 2), .inOrder, .gap(missing: 9)])
        #expect(tracker.packetsReceived == 6)
        #expect(tracker.packetsExpected == 17)
        #expect(tracker.packetsLost == 11)
        #expect(tracker.extendedHighestSequence == 116)
    }

    @Test func followsTheWrapFrom65535To0() {
        var tracker = SequenceTracker()
        #expect(record([65533, 65534, 65535, 0, 1], into: &tracker) == [.first, .inOrder, .inOrder, .inOrder, .inOrder])
        #expect(tracker.extendedHighestSequence == UInt32(65536 + 1))
        #expect(tracker.packetsLost == 0)
        #expect(tracker.packetsExpected == 5)
    }

    @Test func countsLossAcrossTheWrap() {
        var tracker = SequenceTracker()
        #expect(record([65533, 65535, 2], into: &tracker) == [.first, .gap(missing: 1), .gap(missing: 2)])
        #expect(tracker.packetsLost == 3)
        #expect(tracker.extendedHighestSequence == UInt32(65536 + 2))
    }

    @Test func countsManyWraps() {
        var tracker = SequenceTracker()
        var sequence: UInt16 = 60000
        _ = tracker.record(sequence)
        for _ in 0..<(3 * 65536) {
            sequence &+= 1
            #expect(tracker.record(sequence) == .inOrder)
        }
        #expect(tracker.extendedHighestSequence == UInt32(3 * 65536 + 60000))
        #expect(tracker.packetsReceived == 3 * 65536 + 1)
        #expect(tracker.packetsLost == 0)
    }

    @Test func duplicatesAreCountedButNotReceived() {
        var tracker = SequenceTracker()
        #expect(record([10, 11, 11, 12, 10, 12], into: &tracker) == [.first, .inOrder, .duplicate, .inOrder, .duplicate, .duplicate])
        #expect(tracker.duplicates == 3)
        #expect(tracker.packetsReceived == 3)
        #expect(tracker.packetsLost == 0)
    }

    @Test func latePacketsFillTheirGap() {
        var tracker = SequenceTracker()
        #expect(record([10, 13, 11, 12, 11], into: &tracker) == [.first, .gap(missing: 2), .late, .late, .duplicate])
        #expect(tracker.latePackets == 2)
        #expect(tracker.duplicates == 1)
        #expect(tracker.packetsLost == 0)
        #expect(tracker.extendedHighestSequence == 13)
    }

    @Test func latePacketAcrossTheWrap() {
        var tracker = SequenceTracker()
        #expect(record([65534, 0, 65535, 1], into: &tracker) == [.first, .gap(missing: 1), .late, .inOrder])
        #expect(tracker.packetsLost == 0)
        #expect(tracker.extendedHighestSequence == 65537)
    }

    @Test func latePacketFromBeforeTheFirstOneIsNotANegativeLoss() {
        var tracker = SequenceTracker()
        #expect(record([5, 3, 4, 65535], into: &tracker) == [.first, .late, .late, .late])
        #expect(tracker.packetsExpected == 7)  // 65535, (0, 1, 2 missing), 3, 4, 5
        #expect(tracker.packetsReceived == 4)
        #expect(tracker.packetsLost == 3)
    }

    @Test func misorderLimitSeparatesLateFromRestart() {
        var tracker = SequenceTracker()
        _ = tracker.record(1000)
        #expect(tracker.record(900) == .late)  // 100 behind: A.1 MAX_MISORDER
        #expect(tracker.record(899) == .restart)  // 101 behind
        #expect(tracker.restarts == 1)
        #expect(tracker.extendedHighestSequence == 899)
    }

    @Test func dropoutLimitSeparatesGapFromRestart() {
        var tracker = SequenceTracker()
        _ = tracker.record(0)
        #expect(tracker.record(2999) == .gap(missing: 2998))  // A.1 MAX_DROPOUT − 1 ahead
        #expect(tracker.record(5999) == .restart)  // 3000 ahead
    }

    @Test func restartRebasesAndKeepsTotals() {
        var tracker = SequenceTracker()
        #expect(record([100, 101, 103, 40000, 40001, 40003], into: &tracker)
            == [.first, .inOrder, .gap(missing: 1), .restart, .inOrder, .gap(missing: 1)])
        #expect(tracker.restarts == 1)
        #expect(tracker.packetsReceived == 6)
        #expect(tracker.packetsExpected == 8)
        #expect(tracker.packetsLost == 2)
        #expect(tracker.extendedHighestSequence == 40003)
    }

    @Test func reportBlockGivesFractionLostSinceThePreviousReport() {
        var tracker = SequenceTracker()
        for n: UInt16 in 1...10 where n != 5 {
            _ = tracker.record(n)
        }
        let first = tracker.reportBlock(ssrc: 0xABCD, jitter: 12, lastSR: 34, delaySinceLastSR: 56)
        #expect(first == RTCPReportBlock(ssrc: 0xABCD, fractionLost: 25, cumulativeLost: 1, extendedHighestSequence: 10,
                                         jitter: 12, lastSR: 34, delaySinceLastSR: 56))  // 1/10 lost → 256/10 = 25
        let quiet = tracker.reportBlock(ssrc: 0xABCD, jitter: 0, lastSR: 0, delaySinceLastSR: 0)
        #expect(quiet.fractionLost == 0)
        #expect(quiet.cumulativeLost == 1)
        _ = tracker.record(14)  // 3 lost of 4 expected since the last report
        let third = tracker.reportBlock(ssrc: 0xABCD, jitter: 0, lastSR: 0, delaySinceLastSR: 0)
        #expect(third.fractionLost == 192)
        #expect(third.cumulativeLost == 4)
        _ = tracker.record(12)  // a late packet makes up for an earlier loss: no negative fraction
        #expect(tracker.reportBlock(ssrc: 0, jitter: 0, lastSR: 0, delaySinceLastSR: 0).fractionLost == 0)
    }

    @Test func reportBlockBeforeAnyPacket() {
        var tracker = SequenceTracker()
        #expect(tracker.reportBlock(ssrc: 1, jitter: 0, lastSR: 0, delaySinceLastSR: 0)
            == RTCPReportBlock(ssrc: 1, fractionLost: 0, cumulativeLost: 0, extendedHighestSequence: 0, jitter: 0, lastSR: 0, delaySinceLastSR: 0))
    }

    @Test func cumulativeLostSaturatesAt24Bits() {
        var tracker = SequenceTracker()
        var sequence: UInt16 = 0
        _ = tracker.record(sequence)
        for _ in 0..<3000 {
            sequence &+= 2999  // 2998 lost each step
            _ = tracker.record(sequence)
        }
        #expect(tracker.packetsLost == 3000 * 2998)
        #expect(tracker.reportBlock(ssrc: 1, jitter: 0, lastSR: 0, delaySinceLastSR: 0).cumulativeLost == 0x7F_FFFF)
    }

    /// A random walk of in-order packets, losses, duplicates and late arrivals checked against a plain model.
    @Test func agreesWithAModelOnRandomTraffic() {
        var generator = SeededGenerator(seed: 42)
        var tracker = SequenceTracker()
        var next: Int = 65000  // extended number of the next packet to send
        var seen = Set<Int>()
        var lowest = next
        var highest = next
        var missing: [Int] = []
        _ = tracker.record(UInt16(truncatingIfNeeded: next))
        seen.insert(next)
        next += 1
        for _ in 0..<20_000 {
            switch Int.random(in: 0..<100, using: &generator) {
            case 0..<80:  // in order
                let outcome = tracker.record(UInt16(truncatingIfNeeded: next))
                #expect(outcome == .inOrder)
                seen.insert(next); highest = next; next += 1
            case 80..<90:  // lose a few
                let lost = Int.random(in: 1...5, using: &generator)
                missing += (next..<(next + lost))
                next += lost
                #expect(tracker.record(UInt16(truncatingIfNeeded: next)) == .gap(missing: lost))
                seen.insert(next); highest = next; next += 1
            case 90..<95:  // a recent one again
                let old = highest - Int.random(in: 0...50, using: &generator)
                if seen.contains(old) {
                    #expect(tracker.record(UInt16(truncatingIfNeeded: old)) == .duplicate)
                }
            default:  // a missing one turns up late
                missing.removeAll { highest - $0 > SequenceTracker.maxMisorder }
                if let late = missing.popLast() {
                    #expect(tracker.record(UInt16(truncatingIfNeeded: late)) == .late)
                    seen.insert(late)
                    lowest = min(lowest, late)
                }
            }
        }
        #expect(tracker.packetsReceived == seen.count)
        #expect(tracker.packetsExpected == highest - lowest + 1)
        #expect(tracker.packetsLost == highest - lowest + 1 - seen.count)
        #expect(tracker.extendedHighestSequence == UInt32(highest))  // the run started below 65536
    }
}
