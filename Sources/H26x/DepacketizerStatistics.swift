/// Counters a depacketizer keeps about the stream it has seen.
public struct DepacketizerStatistics: Sendable, Equatable {
    /// Access units returned to the caller.
    public var accessUnits: Int = 0
    /// Returned access units that were keyframes (H.264 IDR, H.265 IRAP).
    public var keyframes: Int = 0
    /// Access units discarded because they were damaged by loss or a malformed packet, or because
    /// they arrived while waiting for a keyframe (before the first one, or after a loss).
    public var droppedUnits: Int = 0
    /// Sequence-number gaps seen (one per gap, whatever its length).
    public var lossEvents: Int = 0
    /// Packets that violate the payload format: FU without a start, truncated STAP/AP,
    /// forbidden_zero_bit set, FU types that change mid-NAL, empty payloads.
    public var malformedPackets: Int = 0
    /// Packets in a form this depacketizer does not handle: H.264 STAP-B, MTAP16/24, FU-B and
    /// undefined types (0, 30, 31); H.265 PACI and undefined types (51...63); H.265 DON fields that
    /// go backwards (interleaved transmission, RFC 7798 §6).
    public var unsupportedPackets: Int = 0

    public init() {}
}
