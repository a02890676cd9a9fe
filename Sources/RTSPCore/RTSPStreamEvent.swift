import NIOCore

/// One item decoded from the RTSP control connection (RFC 2326 §10.12: when RTP runs
/// over the RTSP TCP connection, `$`-framed packets and RTSP messages share one stream).
public enum RTSPStreamEvent: Sendable, Equatable {
    /// A response to one of our requests.
    case response(RTSPResponse)
    /// A request the server sent us (RFC 2326 §10: GET_PARAMETER, SET_PARAMETER,
    /// ANNOUNCE, OPTIONS, REDIRECT); the client should answer it.
    case request(RTSPRequest)
    /// RFC 2326 §10.12 embedded (interleaved) binary data: `$`, a one-byte channel
    /// identifier, a two-byte big-endian length, then that many bytes (an RTP or RTCP
    /// packet). `payload` is a slice of the parser's buffer, not a copy.
    case interleaved(channel: UInt8, payload: ByteBuffer)
}
