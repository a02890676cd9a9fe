/// Counters an audio depacketizer keeps about the stream it has seen.
public struct AudioDepacketizerStatistics: Sendable, Equatable {
    /// Access units returned to the caller.
    public var frames: Int = 0
    /// Packets that violate the payload format and were skipped whole: empty payloads, an
    /// AU-headers-length larger than the payload, AU-headers that describe more data than the packet
    /// holds, a fragment bigger than its AU-size, or no AU at all.
    public var malformedPackets: Int = 0
    /// Packets carrying a fragment of an access unit (RFC 3640 §3.2.3) that could not be completed,
    /// because a packet of it was lost or never came, and were discarded.
    public var droppedFragments: Int = 0
    /// Access units lost that way: one for each partly received fragmented access unit given up.
    public var droppedFrames: Int = 0
    /// Sequence-number discontinuities seen (one per gap, whatever its length).
    public var lossEvents: Int = 0
    /// Packets ignored because they repeat the previous sequence number.
    public var duplicatePackets: Int = 0

    public init() {}
}
