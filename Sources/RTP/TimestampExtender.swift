/// Extends 32-bit RTP timestamps (RFC 3550 §5.1, which wrap every 2^32 ticks: 13.25 hours at 90 kHz)
/// to a 64-bit timeline that keeps counting across the wrap.
///
/// Each timestamp is placed relative to the previous one by their signed 32-bit difference, so
/// forward wraps and backward steps (B-frames sent in decode order, audio/video jitter) both come
/// out right as long as consecutive timestamps are less than 2^31 ticks apart. The first timestamp
/// maps to its own value, so the low 32 bits of the result always equal the input.
public struct TimestampExtender: Sendable {
    private var last: (timestamp: UInt32, extended: Int64)?

    public init() {}

    /// The 64-bit timestamp for `timestamp`.
    public mutating func extend(_ timestamp: UInt32) -> Int64 {
        guard let last else {
            let extended = Int64(timestamp)
            self.last = (timestamp, extended)
            return extended
        }
        let extended = last.extended + Int64(Int32(bitPattern: timestamp &- last.timestamp))
        self.last = (timestamp, extended)
        return extended
    }

    /// The last extended value, nil before the first timestamp.
    public var lastExtended: Int64? {
        last?.extended
    }

    /// Starts over, as for a new stream (after `SequenceTracker.Outcome.restart`).
    public mutating func reset() {
        last = nil
    }
}
