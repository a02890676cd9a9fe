import Foundation

/// Everything that can end an RTSP client session, with a message a person can act on.
///
/// Errors never carry credentials: the URL is always the redacted form (`RTSPURL.redacted`).
public struct RTSPClientError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: String, Sendable, Codable, Equatable {
        case malformedURL
        case nameResolution
        case connectionRefused
        case unreachable
        case timeout
        case tls
        case authenticationFailed
        case notFound
        case noVideoTrack
        case unsupportedCodec
        case unsupportedTransport
        case redirectLoop
        case serverError
        case protocolError
        case noData
        case connectionClosed
        /// The port answered, but not with RTSP (an HTTP server, an SSH banner, garbage): a wrong port or URL.
        case notRTSP
    }

    public var kind: Kind
    /// The full sentence shown to a person: what happened, where, and what to do.
    public var message: String
    /// The URL without credentials.
    public var url: String?
    /// The RTSP method that was in flight, when there was one.
    public var method: String?
    /// The CSeq of that request.
    public var cseq: Int?
    /// The RTSP status code the server answered, when there was one.
    public var statusCode: Int?

    public init(_ kind: Kind, _ message: String, url: String? = nil, method: String? = nil, cseq: Int? = nil, statusCode: Int? = nil) {
        self.kind = kind
        self.message = message
        self.url = url
        self.method = method
        self.cseq = cseq
        self.statusCode = statusCode
    }

    public var description: String { message }

    /// Whether trying again later can help (used by the reconnect supervisor to choose its pace).
    /// Authentication failures and unsupported streams are permanent until someone changes the configuration.
    public var isPermanent: Bool {
        switch kind {
        case .malformedURL, .authenticationFailed, .noVideoTrack, .unsupportedCodec, .unsupportedTransport, .notRTSP:
            return true
        default:
            return false
        }
    }
}

extension RTSPClientError {
    static func authenticationFailed(_ url: RTSPURL, method: String, cseq: Int?) -> RTSPClientError {
        RTSPClientError(.authenticationFailed,
                        "authentication failed for \(url.redacted): check the username and password",
                        url: url.redacted, method: method, cseq: cseq, statusCode: 401)
    }

    static func missingCredentials(_ url: RTSPURL, method: String, cseq: Int?) -> RTSPClientError {
        RTSPClientError(.authenticationFailed,
                        "\(url.redacted) requires a username and password: add them (rtsp://user:password@host/path or --username/--password)",
                        url: url.redacted, method: method, cseq: cseq, statusCode: 401)
    }
}
