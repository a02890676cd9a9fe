import Foundation
import Logging
import NIOHTTP1
import RTSPCore

/// How requests to one device are authenticated (ONVIF Core §5.12: WS-Security UsernameToken and
/// HTTP Digest are both allowed; a device may support only one of them).
public enum ONVIFAuthenticationMode: String, Sendable, Codable {
    case wsSecurity = "ws-security"
    case httpDigest = "http-digest"
    case none = "none"
}

/// The per-query state: the clock offset, the authentication mode that worked, the HTTP Digest
/// challenge being answered. Sequential use only (one query at a time).
struct ONVIFSession {
    let transport: SOAPHTTPTransport
    let timeout: Duration
    let credentials: (username: String, password: String)?
    let logger: Logger
    var clockOffset: Double = 0
    var authentication: ONVIFAuthenticationMode
    private var digest: RTSPAuthenticator?

    init(transport: SOAPHTTPTransport, timeout: Duration, credentials: (username: String, password: String)?, logger: Logger) {
        self.transport = transport
        self.timeout = timeout
        self.credentials = credentials
        self.logger = logger
        self.authentication = credentials == nil ? .none : .wsSecurity
    }

    /// An authenticated call whose body is required: a fault becomes `.fault` (or
    /// `.authenticationFailed`), the body's first element is returned.
    mutating func call(_ request: ONVIFRequest, _ endpoint: HTTPEndpoint) async throws(ONVIFError) -> XMLTreeElement {
        switch try await send(request, to: endpoint, authenticate: true) {
        case .body(let element):
            return element
        case .fault(let fault):
            throw .fault(url: endpoint.redacted, code: fault.codeDescription, reason: "\(request.operation): \(fault.reason)")
        }
    }

    /// GetStreamUri/GetSnapshotUri: a fault (snapshots unsupported, a profile without RTSP) is nil, not an error.
    mutating func optionalURI(_ request: ONVIFRequest, _ endpoint: HTTPEndpoint) async throws(ONVIFError) -> String? {
        switch try await send(request, to: endpoint, authenticate: true) {
        case .body(let element):
            return ONVIFMediaURI.parse(response: element)
        case .fault(let fault):
            logger.debug("\(request.operation) refused: \(fault.codeDescription) \(fault.reason)")
            return nil
        }
    }

    /// Sends `request`, authenticating as the session's mode says; on a rejected WS-Security token
    /// switches to HTTP Digest once and remembers it. Authentication failures throw.
    mutating func send(_ request: ONVIFRequest, to endpoint: HTTPEndpoint, authenticate: Bool) async throws(ONVIFError) -> SOAPResponse {
        let url = endpoint.redacted
        guard authenticate, let credentials else {
            let (response, status, _) = try await exchange(request, endpoint, header: nil, authorization: nil)
            if status == .unauthorized || Self.isAuthFault(response) {
                // An authenticated call without credentials: the device wants some.
                if authenticate { throw .authenticationFailed(url: url) }
                // An unauthenticated call refused (GetSystemDateAndTime on some devices): a fault the caller tolerates.
                return response ?? .fault(SOAPFault(code: "HTTP 401", reason: "Unauthorized"))
            }
            guard let response else { throw .malformedResponse(url: url, detail: "HTTP \(status.code) with an empty body") }
            return response
        }

        if authentication == .wsSecurity {
            let token = WSSecurityUsernameToken(username: credentials.username, password: credentials.password, clockOffset: clockOffset)
            let (response, status, challenges) = try await exchange(request, endpoint, header: token.headerXML, authorization: nil)
            if status != .unauthorized && !Self.isAuthFault(response), let response {
                return response
            }
            if status != .unauthorized && !Self.isAuthFault(response) {
                throw .malformedResponse(url: url, detail: "HTTP \(status.code) with an empty body")
            }
            // Rejected: try HTTP Digest (the device may support only that, Core §5.12.1).
            logger.debug("\(request.operation): WS-Security rejected (HTTP \(status.code)); trying HTTP Digest")
            var digestChallenges = challenges
            if digestChallenges.isEmpty { digestChallenges = try await fetchChallenges(request, endpoint) }
            guard let authenticator = RTSPAuthenticator(credentials: RTSPCredentials(username: credentials.username, password: credentials.password),
                                                        challenges: digestChallenges.filter { if case .digest = $0 { return true } else { return false } }) else {
                throw .authenticationFailed(url: url)
            }
            digest = authenticator
            authentication = .httpDigest
        }
        return try await sendWithDigest(request, endpoint, credentials: credentials, retryOnStale: true)
    }

    private mutating func sendWithDigest(_ request: ONVIFRequest, _ endpoint: HTTPEndpoint,
                                         credentials: (username: String, password: String),
                                         retryOnStale: Bool) async throws(ONVIFError) -> SOAPResponse {
        let url = endpoint.redacted
        if digest == nil {
            let challenges = try await fetchChallenges(request, endpoint)
            digest = RTSPAuthenticator(credentials: RTSPCredentials(username: credentials.username, password: credentials.password),
                                       challenges: challenges.filter { if case .digest = $0 { return true } else { return false } })
            guard digest != nil else { throw .authenticationFailed(url: url) }
        }
        let authorization = digest!.authorization(method: "POST", uri: endpoint.target)
        let (response, status, challenges) = try await exchange(request, endpoint, header: nil, authorization: authorization)
        if status == .unauthorized || Self.isAuthFault(response) {
            // A new nonce (stale, or per-connection nonces): answer it once, then give up.
            let fresh = challenges.filter { if case .digest = $0 { return true } else { return false } }
            if retryOnStale, !fresh.isEmpty,
               let renewed = RTSPAuthenticator(credentials: RTSPCredentials(username: credentials.username, password: credentials.password), challenges: fresh),
               renewed.challenge != digest?.challenge {
                digest = renewed
                return try await sendWithDigest(request, endpoint, credentials: credentials, retryOnStale: false)
            }
            throw .authenticationFailed(url: url)
        }
        guard let response else { throw .malformedResponse(url: url, detail: "HTTP \(status.code) with an empty body") }
        return response
    }

    /// Sends the request without credentials to collect the `WWW-Authenticate` challenges.
    private func fetchChallenges(_ request: ONVIFRequest, _ endpoint: HTTPEndpoint) async throws(ONVIFError) -> [AuthChallenge] {
        let (_, _, challenges) = try await exchange(request, endpoint, header: nil, authorization: nil)
        return challenges
    }

    /// One HTTP exchange: the parsed SOAP response (nil for an empty body), the status, and the
    /// Digest/Basic challenges of a 401.
    private func exchange(_ request: ONVIFRequest, _ endpoint: HTTPEndpoint, header: String?,
                          authorization: String?) async throws(ONVIFError) -> (SOAPResponse?, HTTPResponseStatus, [AuthChallenge]) {
        let url = endpoint.redacted
        let envelope = SOAPEnvelope(body: request.body, headerBlocks: header.map { [$0] } ?? [])
        let http: SOAPHTTPTransport.Response
        do {
            http = try await transport.post(endpoint, body: envelope.xml, action: request.action,
                                            authorization: authorization, timeout: timeout)
        } catch {
            switch error {
            case .timedOut:
                throw .timedOut(url: url, seconds: Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
            case .unreachable(let reason):
                throw .unreachable(url: url, reason: reason)
            case .tooLarge:
                throw .malformedResponse(url: url, detail: "\(request.operation) answer larger than \(SOAPHTTPTransport.maximumBodySize) bytes")
            }
        }
        let challenges = http.status == .unauthorized ? AuthChallenge.parse(http.headers["WWW-Authenticate"]) : []
        if http.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            if http.status == .unauthorized { return (nil, http.status, challenges) }
            if (200..<300).contains(http.status.code) {
                throw .malformedResponse(url: url, detail: "\(request.operation): HTTP \(http.status.code) with an empty body")
            }
            throw .malformedResponse(url: url, detail: "\(request.operation): HTTP \(http.status.code) \(http.status.reasonPhrase)")
        }
        do {
            return (try SOAPResponse.parse(http.body), http.status, challenges)
        } catch {
            if http.status == .unauthorized { return (nil, http.status, challenges) }
            throw .malformedResponse(url: url, detail: "\(request.operation): HTTP \(http.status.code), \(error.detail)")
        }
    }

    static func isAuthFault(_ response: SOAPResponse?) -> Bool {
        if case .fault(let fault) = response { return fault.isAuthenticationFailure }
        return false
    }
}
