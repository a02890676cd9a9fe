import NIOCore

/// An RTSP request (RFC 2326 §6): `Method SP Request-URI SP RTSP-Version CRLF`, headers,
/// an empty line and an optional body.
///
/// Sent by the client (OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN, GET_PARAMETER, …) and,
/// over the same TCP connection, by the server (RFC 2326 §10: GET_PARAMETER,
/// SET_PARAMETER, ANNOUNCE, OPTIONS, REDIRECT).
public struct RTSPRequest: Sendable, Equatable {
    /// RFC 2326 §6.1 Method, e.g. "OPTIONS", "DESCRIBE", "GET_PARAMETER".
    public var method: String
    /// RFC 2326 §6.1 Request-URI: an absolute rtsp:// URL or `*`.
    public var uri: String
    /// RFC 2326 §3.1 RTSP-Version, "RTSP/1.0".
    public var version: String
    public var headers: RTSPHeaders
    /// RFC 2326 §4.3 message body; its length is announced with Content-Length (§12.14).
    public var body: ByteBuffer?

    public init(method: String, uri: String, headers: RTSPHeaders = RTSPHeaders(), body: ByteBuffer? = nil) {
        self.method = method
        self.uri = uri
        self.version = "RTSP/1.0"
        self.headers = headers
        self.body = body
    }

    /// RFC 2326 §12.17 CSeq, when present and a non-negative integer.
    public var cseq: Int? {
        RTSPMessageWriter.cseq(headers)
    }

    /// The body decoded as UTF-8 (invalid bytes replaced), nil when there is no body.
    public var bodyString: String? {
        RTSPMessageWriter.bodyString(body)
    }

    /// Serialises the request with CRLF line endings (RFC 2326 §4.1). When the body is
    /// non-empty a correct `Content-Length` is written in place of any given one.
    /// CR and LF inside header values become spaces so a value cannot split the message.
    public func write(into buffer: inout ByteBuffer) {
        RTSPMessageWriter.writeLine(into: &buffer, "\(method) \(uri) \(version)")
        RTSPMessageWriter.writeHeadersAndBody(into: &buffer, headers: headers, body: body)
    }
}

extension RTSPRequest: CustomStringConvertible {
    /// The request line and headers (credentials redacted), for logs.
    public var description: String {
        let bodyNote = body.map { "\n(\($0.readableBytes) body bytes)" } ?? ""
        return "\(method) \(uri) \(version)\n\(headers)\(bodyNote)"
    }
}
