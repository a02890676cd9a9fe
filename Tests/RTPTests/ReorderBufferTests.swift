import NIOCore
import Testing
@testable import RTP

@Suite("ReorderBuffer")
struct ReorderBufferTests {
    private func packet(_ sequenceNumber: UInt16, payload: UInt8 = 0) -> RTPPacket {
        RTPPacket(payloadType: 96, sequenceNumber: sequenceNumber, timestamp: UInt32(sequenceNumber) * 3000, ssrc: 1,
                  payload: buffer([payload]))
    }

    /// Inserts each number; returns the numbers released after each insert.
    private func insert(_ numbers: [UInt16], into reorder: inout ReorderBuffer) -> [[UInt16]] {
        numbers.map { reorder.insert(packet($0)).map(\.sequenceNumber) }
    }

    @Test func inOrderPacketsPassStraightThrough() {
        var reorder = ReorderBuffer()
        #expect(insert([7, 8, 9], into: &reorder) == [[7], [8], [9]])
        #expect(reorder.held == 0)
        #expect(reorder.expectedSequenceNumber == 10)
    }

    @Test func holdsUntilTheGapFills() {
        var reorder = ReorderBuffer()
        #expect(insert([1, 3, 4, 2, 5], into: &reorder) == [[1], [], [], [2, 3, 4], [5]])
        #expect(reorder.held == 0)
        #expect(reorder.skipped == 0)
    }

    @Test func releasesWholePacketsUnchanged() {
        var reorder = ReorderBuffer()
        _ = reorder.insert(packet(1, payload: 0x11))
        _ = reorder.insert(packet(3, payload: 0x33))
        let released = reorder.insert(packet(2, payload: 0x22))
        #expect(released == [packet(2, payload: 0x22), packet(3, payload: 0x33)])
    }

    @Test func handlesTheWrap() {
        var reorder = ReorderBuffer()
        #expect(insert([65534, 0, 1, 65535, 2], into: &reorder) == [[65534], [], [], [65535, 0, 1], [2]])
        #expect(reorder.expectedSequenceNumber == 3)
    }

    @Test func dropsDuplicatesHeldOrReleased() {
        var reorder = ReorderBuffer()
        #expect(insert([1, 3, 3, 2, 2, 1, 3], into: &reorder) == [[1], [], [], [2, 3], [], [], []])
        #expect(reorder.droppedDuplicates == 4)
        #expect(reorder.droppedLate == 0)
    }

    @Test func overflowGivesUpOnTheGap() {
        var reorder = ReorderBuffer(capacity: 4)
        #expect(insert([1, 3, 4, 5, 6], into: &reorder) == [[1], [], [], [], []])
        #expect(reorder.held == 4)
        // 7 does not fit in the window [2 … 6]: give up on 2.
        #expect(insert([7], into: &reorder) == [[3, 4, 5, 6, 7]])
        #expect(reorder.skipped == 1)
        #expect(reorder.held == 0)
        // 2 turns up after all: too late.
        #expect(insert([2, 8], into: &reorder) == [[], [8]])
        #expect(reorder.droppedLate == 1)
    }

    @Test func overflowKeepsWhatStillFits() {
        var reorder = ReorderBuffer(capacity: 4)
        #expect(insert([1, 4, 6], into: &reorder) == [[1], [], []])
        // 8 needs the window to start at 4: 2 and 3 are given up, 4 is released, 6 and 8 wait for 5 and 7.
        #expect(insert([8], into: &reorder) == [[4]])
        #expect(reorder.skipped == 2)
        #expect(reorder.held == 2)
        #expect(insert([5, 7], into: &reorder) == [[5, 6], [7, 8]])
    }

    @Test func aFarJumpAheadWithinTheDropoutSkipsEverything() {
        var reorder = ReorderBuffer(capacity: 8)
        #expect(insert([10, 12, 1000], into: &reorder) == [[10], [], [12]])
        #expect(reorder.skipped == 1 + (999 - 8 - 12))
        #expect(reorder.held == 1)
        // The window now starts at 992: 991 is late, 992 is next.
        #expect(insert([991, 992], into: &reorder) == [[], [992]])
        #expect(reorder.droppedLate == 1)
    }

    @Test func capacityZeroReleasesAtOnce() {
        var reorder = ReorderBuffer(capacity: 0)
        #expect(insert([1, 3, 2, 4, 4], into: &reorder) == [[1], [3], [], [4], []])
        #expect(reorder.droppedLate == 1)
        #expect(reorder.droppedDuplicates == 1)
    }

    @Test func drainReleasesEverythingInOrder() {
        var reorder = ReorderBuffer()
        #expect(insert([1, 5, 3, 4], into: &reorder) == [[1], [], [], []])
        #expect(reorder.drain().map(\.sequenceNumber) == [3, 4, 5])
        #expect(reorder.held == 0)
        #expect(reorder.drain().isEmpty)
        #expect(insert([2, 6], into: &reorder) == [[], [6]])
        #expect(reorder.droppedLate == 1)
    }

    @Test func restartFlushesAndStartsOver() {
        var reorder = ReorderBuffer()
        #expect(insert([100, 102, 103], into: &reorder) == [[100], [], []])
        #expect(insert([30000], into: &reorder) == [[102, 103, 30000]])
        #expect(reorder.restarts == 1)
        #expect(insert([30001], into: &reorder) == [[30001]])
        // Far behind the new numbering: another restart, not a late packet.
        #expect(insert([101], into: &reorder) == [[101]])
        #expect(reorder.restarts == 2)
    }

    @Test func maxDelayReleasesPastAStaleGap() {
        let start = ContinuousClock.now
        var reorder = ReorderBuffer(capacity: 64, maxDelay: .milliseconds(50))
        #expect(reorder.insert(packet(1), arrival: start).map(\.sequenceNumber) == [1])
        #expect(reorder.nextDeadline == nil)
        #expect(reorder.insert(packet(3), arrival: start + .milliseconds(10)).isEmpty)
        #expect(reorder.insert(packet(4), arrival: start + .milliseconds(20)).isEmpty)
        #expect(reorder.insert(packet(6), arrival: start + .milliseconds(30)).isEmpty)
        #expect(reorder.nextDeadline == start + .milliseconds(60))
        #expect(reorder.releaseExpired(now: start + .milliseconds(59)).isEmpty)
        // 3 has waited 50 ms: give up on 2; 4 follows; 6 still waits for 5.
        #expect(reorder.releaseExpired(now: start + .milliseconds(60)).map(\.sequenceNumber) == [3, 4])
        #expect(reorder.nextDeadline == start + .milliseconds(80))
        // An insert at a later time also releases what has expired by then.
        #expect(reorder.insert(packet(8), arrival: start + .milliseconds(85)).map(\.sequenceNumber) == [6])
        #expect(reorder.skipped == 2)
        #expect(reorder.held == 1)
    }

    @Test func withoutMaxDelayNothingExpires() {
        let start = ContinuousClock.now
        var reorder = ReorderBuffer()
        _ = reorder.insert(packet(1), arrival: start)
        _ = reorder.insert(packet(3), arrival: start)
        #expect(reorder.releaseExpired(now: start + .seconds(100)).isEmpty)
        #expect(reorder.nextDeadline == nil)
        #expect(reorder.held == 1)
    }

    @Test func resetForgetsHeldPackets() {
        var reorder = ReorderBuffer()
        _ = insert([1, 3], into: &reorder)
        reorder.reset()
        #expect(reorder.held == 0)
        #expect(reorder.expectedSequenceNumber == nil)
        #expect(insert([500], into: &reorder) == [[500]])
    }

    /// Packets displaced by less than the capacity, with duplicates, across the wrap: all come out
    /// once, in order, and nothing is given up on.
    @Test(arguments: [1, 2, 3])
    func shuffledTrafficComesOutInOrder(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let capacity = 16
        let first: UInt16 = 65000
        let count = 2000
        // Swap packets within blocks of `capacity` numbers: each is at most `capacity − 1` early.
        var order: [UInt16] = []
        for blockStart in stride(from: 0, to: count, by: capacity) {
            var block = (blockStart..<min(blockStart + capacity, count)).map { first &+ UInt16($0) }
            block.shuffle(using: &generator)
            order += block
        }
        var duplicates = 0
        var arrivals: [UInt16] = []
        for number in order {
            arrivals.append(number)
            if Int.random(in: 0..<10, using: &generator) == 0 {
                arrivals.append(number)
                duplicates += 1
            }
        }
        var reorder = ReorderBuffer(capacity: capacity)
        var released: [UInt16] = []
        for number in arrivals {
            released += reorder.insert(packet(number)).map(\.sequenceNumber)
        }
        released += reorder.drain().map(\.sequenceNumber)
        // The first arrival starts the numbering, so anything of its block before it is late.
        let startIndex = Int(released.first! &- first)
        let expected = (startIndex..<count).map { first &+ UInt16($0) }
        #expect(released == expected)
        #expect(reorder.skipped == 0)
        #expect(reorder.droppedDuplicates + reorder.droppedLate == duplicates + startIndex)
    }
}
