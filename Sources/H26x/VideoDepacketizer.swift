import NIOCore

/// Turns the payloads of one RTP video stream into access units (RFC 6184, RFC 7798).
///
/// Implementations are value types and do no I/O. Feed packets in sequence order (the RTP layer
/// reorders); the depacketizer tracks sequence numbers itself to detect loss.
public protocol VideoDepacketizer: Sendable {
    var codec: VideoCodec { get }
    /// The current format; nil until the needed parameter sets (H.264 SPS+PPS; H.265 VPS+SPS+PPS)
    /// are known, from the SDP or in-band.
    var format: VideoFormat? { get }
    /// Feed one RTP packet's fields, in sequence order. Returns the access units completed by it
    /// (0, 1, or 2: a timestamp change completes the previous unit even without a marker bit).
    mutating func push(payload: ByteBuffer, sequenceNumber: UInt16, timestamp: UInt32, marker: Bool) -> [AccessUnit]
    /// Emit any unit still being assembled (end of stream).
    mutating func flush() -> [AccessUnit]
    /// Drop partial state (used after a reconnect): keep the parameter sets, wait for the next keyframe.
    mutating func reset()
    var statistics: DepacketizerStatistics { get }
    /// Set to true by push when the format (parameter sets) changed since it was last read; the caller clears it.
    ///
    /// In-band parameter sets take effect when the access unit that carries them completes, so the
    /// push (or flush) that sets this flag is the one that returns the first unit coded with the new
    /// format, as the last unit of its result.
    var formatChanged: Bool { get set }
}
