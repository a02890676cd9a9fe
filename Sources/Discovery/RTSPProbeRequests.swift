import Foundation
import NIOCore
import RTSPCore

/// The requests the scanner sends and how it reads the answers (pure: no I/O).
///
/// OPTIONS (RFC 2326 §10.1) confirms that a port speaks RTSP and reads its `Server` (§12.36) and `Public`
/// (§12.28) headers; DESCRIBE (§10.2) on a path answers 200 with an SDP when a stream is there, 401 (§11.2)
/// when it needs credentials, 404 when the path is not one of the device's.
public enum RTSPProbeRequests {
    public static let userAgent = "WatchBox discovery"

    /// `OPTIONS rtsp://host:port/ RTSP/1.0`. The Request-URI may be "*" (RFC 2326 §10.1) but many cameras
    /// only answer an absolute URI, so we send the device's root.
    public static func options(uri: String, cseq: Int) -> RTSPRequest {
        RTSPRequest(method: "OPTIONS", uri: uri, headers: ["CSeq": String(cseq), "User-Agent": userAgent])
    }

    public static func describe(uri: String, cseq: Int, authorization: String?) -> RTSPRequest {
        var headers: RTSPHeaders = ["CSeq": String(cseq), "User-Agent": userAgent, "Accept": "application/sdp"]
        if let authorization { headers.add(name: "Authorization", value: authorization) }
        return RTSPRequest(method: "DESCRIBE", uri: uri, headers: headers)
    }

    /// "rtsp://10.0.0.5:8554/stream": the port is always written, so that a URL names the endpoint it was found on.
    public static func url(host: IPv4Address, port: Int, path: String) -> String {
        "rtsp://\(host):\(port)\(path.hasPrefix("/") ? path : "/" + path)"
    }

    /// What a DESCRIBE answer says about a path.
    public enum Outcome: Sendable, Equatable {
        /// 200 with an SDP body: a stream is there.
        case works
        /// 401: credentials needed (or, when we sent some, refused).
        case unauthorized([AuthChallenge])
        /// 404 and every other status: not a stream path of this device.
        case absent(status: Int)
    }

    public static func outcome(of response: RTSPResponse) -> Outcome {
        switch response.statusCode {
        case 200..<300: return .works
        case 401: return .unauthorized(AuthChallenge.parse(response.headers["WWW-Authenticate"]))
        default: return .absent(status: response.statusCode)
        }
    }

    /// The methods a `Public` header lists (RFC 2326 §12.28), upper-cased.
    public static func publicMethods(_ response: RTSPResponse) -> [String] {
        response.headers["Public"].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
            .filter { !$0.isEmpty }
    }
}
