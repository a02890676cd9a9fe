/// What a server that does not speak RTSP sent instead, told from the first bytes it answered with.
///
/// An RTSP response starts with a status line "RTSP/1.0 200 OK" (RFC 2326 §7.1). A port that answers
/// with anything else is another service (a camera's web interface on 80/8080, SSH, a TLS listener)
/// or a wrong port: the client says so at once instead of waiting for a timeout. Pure: no I/O.
public struct ForeignReply: Sendable, Equatable {
    public enum Guess: String, Sendable, Equatable {
        /// "HTTP/1.x …" (RFC 9112 §4 status line): a web server, often the camera's own web interface.
        case http
        /// "SSH-2.0-…" (RFC 4253 §4.2 identification string).
        case ssh
        /// A TLS record (RFC 8446 §5.1: content type 21 alert or 22 handshake, version 3.x): an RTSPS or HTTPS port.
        case tls
        /// Anything else.
        case unknown
    }

    public var guess: Guess
    /// How many bytes the peer had sent when it was judged.
    public var byteCount: Int

    /// Judges the first bytes a peer sent (`prefix`, any length) out of `byteCount` received.
    public init(prefix: some Collection<UInt8>, byteCount: Int) {
        self.byteCount = byteCount
        let head = Array(prefix.prefix(16))
        if Self.startsWith(head, "HTTP/") {
            guess = .http
        } else if Self.startsWith(head, "SSH-") {
            guess = .ssh
        } else if head.count >= 3, head[0] == 0x15 || head[0] == 0x16, head[1] == 0x03, head[2] <= 0x04 {
            guess = .tls
        } else {
            guess = .unknown
        }
    }

    /// The part in brackets: "it looks like an HTTP server".
    public var explanation: String {
        switch guess {
        case .http: return "it looks like an HTTP server"
        case .ssh: return "it looks like an SSH server"
        case .tls: return "it speaks TLS: for a camera that uses RTSPS, write the URL as rtsps://"
        case .unknown: return byteCount == 1 ? "it sent 1 byte that is not an RTSP response"
                                               : "it sent \(byteCount) bytes that are not an RTSP response"
        }
    }

    /// The whole sentence for `host:port`: what happened and what to do.
    public func message(where address: String) -> String {
        "\(address) answered, but not with RTSP (\(explanation)): check the port and the URL"
    }

    private static func startsWith(_ bytes: [UInt8], _ text: String) -> Bool {
        let expected = Array(text.utf8)
        return bytes.count >= expected.count && Array(bytes[0..<expected.count]) == expected
    }
}
