import Foundation

/// Why an ONVIF request failed, in words a person can act on. URLs never carry userinfo.
public enum ONVIFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Neither WS-Security UsernameToken nor HTTP Digest was accepted.
    case authenticationFailed(url: String)
    /// No TCP connection (refused, no route, unknown host).
    case unreachable(url: String, reason: String)
    /// The device did not answer within the timeout.
    case timedOut(url: String, seconds: Double)
    /// The device answered something that is not ONVIF SOAP (garbage XML, HTML, an empty body, …).
    case malformedResponse(url: String, detail: String)
    /// A SOAP Fault other than an authentication failure (SOAP 1.2 Part 1 §5.4).
    case fault(url: String, code: String, reason: String)
    /// The device service URL cannot be used.
    case invalidURL(String)

    public var description: String {
        switch self {
        case .authenticationFailed(let url):
            return "authentication failed for \(url): check the username and password"
        case .unreachable(let url, let reason):
            return "cannot reach \(url): \(reason); check the address and that the camera is on and has ONVIF enabled"
        case .timedOut(let url, let seconds):
            return "no answer from \(url) within \(Self.format(seconds)) s: check the address and that ONVIF is enabled on the camera"
        case .malformedResponse(let url, let detail):
            return "\(url) answered something that isn't ONVIF SOAP (\(detail)): check that this is the camera's ONVIF device service URL"
        case .fault(let url, let code, let reason):
            return "\(url) refused the request with SOAP fault \(code): \(reason.isEmpty ? "no reason given" : reason)"
        case .invalidURL(let url):
            return "invalid ONVIF device service URL '\(url)': use http://HOST[:PORT]/onvif/device_service"
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }
}
