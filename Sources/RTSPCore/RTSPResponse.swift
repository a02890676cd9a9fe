import NIOCore

/// An RTSP response (RFC 2326 §7): `RTSP-Version SP Status-Code SP Reason-Phrase CRLF`,
/// headers, an empty line and an optional body (a DESCRIBE's SDP, a GET_PARAMETER's
/// parameters).
public struct RTSPResponse: Sendable, Equatable {
    /// RFC 2326 §3.1 RTSP-Version as received, normally "RTSP/1.0".
    public var version: String
    /// RFC 2326 §7.1.1 Status-Code (3 digits).
    public var statusCode: Int
    /// RFC 2326 §7.1.1 Reason-Phrase; empty when the server sent none ("RTSP/1.0 200").
    public var reasonPhrase: String
    public var headers: RTSPHeaders
    public var body: ByteBuffer?

    public init(statusCode: Int, reasonPhrase: String, headers: RTSPHeaders = RTSPHeaders(), body: ByteBuffer? = nil, version: String = "RTSP/1.0") {
        self.version = version
        self.statusCode = statusCode
        self.reasonPhrase = reasonPhrase
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

    /// Serialises the response with CRLF line endings (RFC 2326 §4.1); see
    /// ``RTSPRequest/write(into:)`` for Content-Length handling.
    public func write(into buffer: inout ByteBuffer) {
        let statusLine = reasonPhrase.isEmpty
            ? "\(version) \(statusCode)"
            : "\(version) \(statusCode) \(reasonPhrase)"
        RTSPMessageWriter.writeLine(into: &buffer, statusLine)
        RTSPMessageWriter.writeHeadersAndBody(into: &buffer, headers: headers, body: body)
    }
}

extension RTSPResponse: CustomStringConvertible {
    /// The status line and headers, for logs.
    public var description: String {
        let bodyNote = body.map { "\n(\($0.readableBytes) body bytes)" } ?? ""
        return "\(version) \(statusCode) \(reasonPhrase)\n\(headers)\(bodyNote)"
    }
}

/// Shared serialisation for requests and responses (RFC 2326 §4).
enum RTSPMessageWriter {
    static func cseq(_ headers: RTSPHeaders) -> Int? {
        guard let raw = headers.first(name: "CSeq") else { return nil }
        return Int(raw.trimmingASCIIWhitespace())
    }

    static func bodyString(_ body: ByteBuffer?) -> String? {
        guard let body else { return nil }
        return String(decoding: body.readableBytesView, as: UTF8.self)
    }

    static func writeLine(into buffer: inout ByteBuffer, _ line: String) {
        buffer.writeString(sanitized(line))
        buffer.writeStaticString("\r\n")
    }

    static func writeHeadersAndBody(into buffer: inout ByteBuffer, headers: RTSPHeaders, body: ByteBuffer?) {
        let bodyLength = body?.readableBytes ?? 0
        for (name, value) in headers {
            if bodyLength > 0, RTSPHeaders.namesEqual(name, "Content-Length") { continue }
            buffer.writeString(sanitized(name))
            buffer.writeStaticString(": ")
            buffer.writeString(sanitized(value))
            buffer.writeStaticString("\r\n")
        }
        if bodyLength > 0 {
            buffer.writeString("Content-Length: \(bodyLength)\r\n")
        }
        buffer.writeStaticString("\r\n")
        if let body, bodyLength > 0 {
            buffer.writeImmutableBuffer(body)
        }
    }

    /// CR or LF inside a field would end the line early (header injection): replace them.
    static func sanitized(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }) else { return text }
        return String(text.map { ($0 == "\r" || $0 == "\n" || $0 == "\r\n") ? " " : $0 })
    }
}
