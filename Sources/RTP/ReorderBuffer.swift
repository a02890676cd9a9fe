/// A small reorder window for RTP over UDP, where datagrams can arrive out of order
/// (RFC 3550 §2.2, A.1 "misordered").
///
/// Packets come out in sequence-number order. One that arrives ahead of a missing number is held
/// until the gap fills, or until the window moves past the gap: the window spans the next
/// expected number plus `capacity` more, and a packet beyond it pushes the window forward,
/// giving up on the missing numbers it leaves behind (counted in `skipped`). With `maxDelay`,
/// a held packet also stops waiting for the gap before it once it is that old.
///
/// Dropped: a second copy of a packet (held or already released, `droppedDuplicates`) and a packet
/// whose number the window has already passed (`droppedLate`). A jump ahead by
/// `SequenceTracker.maxDropout` or more, or behind by more than the late window, is taken as a source
/// restart: everything held is released, then the packet, and ordering starts again from it.
public struct ReorderBuffer: Sendable {
    /// The most packets held at once.
    public let capacity: Int
    /// How long a held packet waits for the gap before it, nil to wait only for the window to fill.
    public let maxDelay: Duration?

    /// Packets held.
    public private(set) var held = 0
    /// Copies of a packet already held or released.
    public private(set) var droppedDuplicates = 0
    /// Packets that arrived after the window had moved past their number.
    public private(set) var droppedLate = 0
    /// Sequence numbers given up on: the window moved past them before they arrived.
    public private(set) var skipped = 0
    /// Jumps taken as a source restart.
    public private(set) var restarts = 0

    /// The largest `capacity` allowed: the window must stay well inside `SequenceTracker.maxDropout`.
    public static let maximumCapacity = 2048

    private struct Entry: Sendable {
        var packet: RTPPacket
        var arrival: ContinuousClock.Instant?
    }

    /// `slots[(head + k) % slots.count]` holds the packet numbered `nextSequence + k`, k in 0...capacity.
    private var slots: [Entry?]
    private var head = 0
    /// The number to release next; nil before the first packet.
    private var nextSequence: UInt16?
    /// Numbers released, with `nextSequence − 1` on top.
    private var released = SequenceHistory()

    /// - Precondition: `capacity` in 0...`maximumCapacity` (0 releases at once and only drops duplicates and late packets).
    public init(capacity: Int = 64) {
        self.init(capacity: capacity, optionalMaxDelay: nil)
    }

    /// A buffer whose held packets stop waiting after `maxDelay`; pass arrival times to
    /// `insert(_:arrival:)` and call `releaseExpired(now:)` when `nextDeadline` passes.
    public init(capacity: Int = 64, maxDelay: Duration) {
        self.init(capacity: capacity, optionalMaxDelay: maxDelay)
    }

    private init(capacity: Int, optionalMaxDelay: Duration?) {
        precondition((0...Self.maximumCapacity).contains(capacity),
                     "a reorder buffer capacity must be in 0...\(Self.maximumCapacity), got \(capacity)")
        self.capacity = capacity
        self.maxDelay = optionalMaxDelay
        self.slots = Array(repeating: nil, count: capacity + 1)
    }

    /// The next sequence number the buffer will release, nil before the first packet.
    public var expectedSequenceNumber: UInt16? {
        nextSequence
    }

    /// How far behind the next expected number a packet may be and still count as late rather than a restart.
    private var lateWindow: Int {
        max(SequenceTracker.maxMisorder, capacity)
    }

    /// Adds a packet; returns the packets now released, in order (possibly none).
    public mutating func insert(_ packet: RTPPacket) -> [RTPPacket] {
        insert(packet, arrival: nil)
    }

    /// Adds a packet that arrived at `arrival`; returns the packets now released, in order. With
    /// `maxDelay`, packets held for that long are released too, as `releaseExpired(now: arrival)` would.
    public mutating func insert(_ packet: RTPPacket, arrival: ContinuousClock.Instant?) -> [RTPPacket] {
        let sequenceNumber = packet.sequenceNumber
        guard let next = nextSequence else {
            startOver(after: sequenceNumber)
            return [packet]
        }
        var out: [RTPPacket] = []
        let ahead = Int(sequenceNumber &- next)
        if ahead < SequenceTracker.maxDropout {
            if ahead > capacity {
                slide(by: ahead - capacity, into: &out)
            }
            let index = slotIndex(sequenceNumber &- nextSequence!)
            if slots[index] != nil {
                droppedDuplicates += 1
            } else {
                slots[index] = Entry(packet: packet, arrival: arrival)
                held += 1
                releaseConsecutive(into: &out)
            }
        } else {
            let behind = 65536 - ahead
            if behind <= lateWindow {
                if released.contains(behind: behind - 1) {
                    droppedDuplicates += 1
                } else {
                    droppedLate += 1
                }
            } else {
                restarts += 1
                out = drain()
                startOver(after: sequenceNumber)
                out.append(packet)
                return out
            }
        }
        if let arrival {
            out += releaseExpired(now: arrival)
        }
        return out
    }

    /// Releases everything held, in order; the gaps between are given up on.
    public mutating func drain() -> [RTPPacket] {
        guard held > 0 else { return [] }
        var last = 0
        for k in 0..<slots.count where slots[slotIndex(k)] != nil {
            last = k
        }
        var out: [RTPPacket] = []
        slide(by: last + 1, into: &out)
        return out
    }

    /// With `maxDelay`: releases, in order, every held packet that has waited `maxDelay` by `now`,
    /// giving up on the gaps before it, and the packets that then follow without a gap.
    public mutating func releaseExpired(now: ContinuousClock.Instant) -> [RTPPacket] {
        guard let maxDelay, held > 0 else { return [] }
        var lastExpired: Int?
        for k in 0..<slots.count {
            if let arrival = slots[slotIndex(k)]?.arrival, arrival + maxDelay <= now {
                lastExpired = k
            }
        }
        guard let lastExpired else { return [] }
        var out: [RTPPacket] = []
        slide(by: lastExpired + 1, into: &out)
        releaseConsecutive(into: &out)
        return out
    }

    /// With `maxDelay`: when the oldest held packet stops waiting, nil if none is held (or none has an arrival time).
    public var nextDeadline: ContinuousClock.Instant? {
        guard let maxDelay, held > 0 else { return nil }
        var earliest: ContinuousClock.Instant?
        for slot in slots {
            if let arrival = slot?.arrival, earliest.map({ arrival < $0 }) ?? true {
                earliest = arrival
            }
        }
        return earliest.map { $0 + maxDelay }
    }

    /// Forgets everything, held packets included, as for a new stream; counters are kept.
    public mutating func reset() {
        for i in slots.indices {
            slots[i] = nil
        }
        held = 0
        head = 0
        nextSequence = nil
        released.removeAll()
    }

    private func slotIndex<Offset: BinaryInteger>(_ offset: Offset) -> Int {
        (head + Int(offset)) % slots.count
    }

    private mutating func startOver(after sequenceNumber: UInt16) {
        nextSequence = sequenceNumber &+ 1
        released.removeAll()
        released.insert(behind: 0)
    }

    /// Moves the window one number forward, releasing the packet at its start if held.
    private mutating func step(into out: inout [RTPPacket]) {
        released.advance(by: 1)
        if let entry = slots[head] {
            out.append(entry.packet)
            slots[head] = nil
            held -= 1
            released.insert(behind: 0)
        } else {
            skipped += 1
        }
        head = (head + 1) % slots.count
        nextSequence = nextSequence! &+ 1
    }

    /// Releases held packets from the start of the window while there is no gap.
    private mutating func releaseConsecutive(into out: inout [RTPPacket]) {
        while slots[head] != nil {
            step(into: &out)
        }
    }

    /// Moves the window `distance` numbers forward, releasing what it passes and giving up on the gaps.
    private mutating func slide(by distance: Int, into out: inout [RTPPacket]) {
        let stepped = min(distance, slots.count)
        for _ in 0..<stepped {
            step(into: &out)
        }
        let rest = distance - stepped
        if rest > 0 {
            skipped += rest
            released.advance(by: rest)
            nextSequence = nextSequence! &+ UInt16(truncatingIfNeeded: rest)
        }
    }
}
