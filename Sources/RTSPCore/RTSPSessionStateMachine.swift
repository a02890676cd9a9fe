import Foundation
import NIOCore

/// The client side of an RTSP 1.0 session (RFC 2326) as a pure state machine:
/// OPTIONS → DESCRIBE → SETUP (one per track) → PLAY → keepalive → TEARDOWN,
/// with Basic/Digest authentication retried once after a 401, and 3xx redirects.
///
/// It owns no socket. The caller performs each returned ``Action`` (write a request, open a
/// connection, bind UDP ports) and feeds back what happened. That keeps every branch testable
/// without a network.
public struct RTSPSessionStateMachine: Sendable {
    public struct Configuration: Sendable, Equatable {
        public enum Transport: String, Sendable, Codable, CaseIterable { case tcp, udp }
        public var transport: Transport
        public var userAgent: String
        /// Also set up the first AAC (`MPEG4-GENERIC`) audio track when there is one.
        public var includeAudio: Bool
        public var maxRedirects: Int
        /// RFC 2326 §12.37: the session timeout when the server does not state one.
        public var defaultSessionTimeout: Int

        public init(transport: Transport = .tcp, userAgent: String = "WatchBox/0.1",
                    includeAudio: Bool = false, maxRedirects: Int = 5, defaultSessionTimeout: Int = 60) {
            self.transport = transport
            self.userAgent = userAgent
            self.includeAudio = includeAudio
            self.maxRedirects = maxRedirects
            self.defaultSessionTimeout = defaultSessionTimeout
        }
    }

    /// One media section of the SDP chosen for SETUP.
    public struct Track: Sendable, Equatable {
        public enum Kind: String, Sendable, Equatable { case video, audio }
        public var kind: Kind
        /// Index of the media section in the SDP.
        public var mediaIndex: Int
        public var media: MediaDescription
        public var controlURL: RTSPURL
        /// Upper-cased encoding name from `a=rtpmap` or the static payload table ("H264", "H265", "MPEG4-GENERIC").
        public var encodingName: String
        public var payloadType: UInt8
        public var clockRate: Int
        /// The transport the server agreed to in its SETUP answer.
        public var transport: TransportHeader?
        /// Our UDP ports for this track (UDP only).
        public var clientPorts: TransportHeader.PortPair?
    }

    /// What the caller knows once PLAY has succeeded.
    public struct SessionInfo: Sendable, Equatable {
        public var url: RTSPURL
        public var baseURL: RTSPURL
        public var server: String?
        public var sessionDescription: SessionDescription
        /// The SDP as the server sent it.
        public var sdpText: String
        public var tracks: [Track]
        public var sessionID: String
        /// Seconds (RFC 2326 §12.37); keepalives go out 5 s before it runs out.
        public var sessionTimeout: Int
        /// "GET_PARAMETER" or "OPTIONS".
        public var keepaliveMethod: String
        public var rtpInfo: [RTPInfoEntry]
        public var authenticationScheme: String?
    }

    public enum Action: Sendable, Equatable {
        /// Write this request on the current connection.
        case send(RTSPRequest)
        /// Close the current connection and open one to this URL (a redirect to another authority), then call ``connectionOpened()``.
        case openConnection(RTSPURL)
        /// Bind an even/odd pair of UDP ports for this track, then call ``udpPortsBound(track:ports:)``.
        case bindUDPPorts(track: Int)
        /// The session is playing.
        case playing(SessionInfo)
        /// A keepalive or other in-session request was answered; nothing to do.
        case none
        /// TEARDOWN answered (or not needed): close the connection.
        case close
        case fail(RTSPClientError)
    }

    enum State: Sendable, Equatable {
        case idle
        case options
        case describe
        case setup(track: Int)
        case play
        case playing
        case tearingDown
        case closed
        case failed
    }

    public private(set) var url: RTSPURL
    public let configuration: Configuration
    var state: State = .idle
    var cseq = 0
    var outstanding: RTSPRequest?
    var authenticator: RTSPAuthenticator?
    /// Whether the outstanding request was already retried after a 401.
    var retriedAuthentication = false
    var redirects = 0
    var server: String?
    var publicMethods: Set<String> = []
    var sessionDescription: SessionDescription?
    var sdpText = ""
    var baseURL: RTSPURL
    var tracks: [Track] = []
    var sessionID: String?
    var sessionTimeout: Int?
    var rtpInfo: [RTPInfoEntry] = []
    var keepaliveMethod = "OPTIONS"
    var keepaliveFallbackTried = false

    public init(url: RTSPURL, configuration: Configuration = Configuration()) {
        self.url = url
        self.baseURL = url
        self.configuration = configuration
    }

    /// The session id once the first SETUP was answered.
    public var currentSessionID: String? { sessionID }
    /// The `Server` header of the last response that had one.
    public var serverHeader: String? { server }
    /// The tracks chosen from the SDP (after DESCRIBE).
    public var selectedTracks: [Track] { tracks }
    public var isPlaying: Bool { state == .playing }

    // MARK: - Inputs

    /// Begin on a freshly opened connection.
    public mutating func connectionOpened() -> Action {
        retriedAuthentication = false
        state = .options
        return send(method: "OPTIONS", uri: url.requestURI)
    }

    /// Feed the response to the outstanding request.
    public mutating func receive(_ response: RTSPResponse) -> Action {
        guard let request = outstanding else { return .none }
        // RFC 2326 §12.17: responses echo the CSeq. Some cameras omit it; accept those as the answer.
        if let cseq = response.cseq, cseq != request.cseq { return .none }
        outstanding = nil

        if response.headers.first(name: "Server") != nil { server = response.headers.first(name: "Server") }

        if response.statusCode == 401 {
            return handleUnauthorized(response, request: request)
        }
        if [301, 302, 303, 305, 307].contains(response.statusCode), state != .playing, state != .tearingDown {
            return handleRedirect(response, request: request)
        }
        retriedAuthentication = false

        switch state {
        case .options:
            if (200..<300).contains(response.statusCode) {
                publicMethods = PublicMethods.parse(response.headers["Public"])
            }
            // Tolerance: some cameras answer OPTIONS with an error (or 404) yet serve DESCRIBE fine.
            state = .describe
            var headers = RTSPHeaders()
            headers.add(name: "Accept", value: "application/sdp")
            return send(method: "DESCRIBE", uri: url.requestURI, headers: headers)

        case .describe:
            guard (200..<300).contains(response.statusCode) else {
                return fail(statusError(response, request: request))
            }
            return handleDescribe(response, request: request)

        case .setup(let index):
            guard (200..<300).contains(response.statusCode) else {
                if response.statusCode == 461 {
                    let hint = configuration.transport == .udp ? "try the TCP transport (--transport tcp)" : "try the UDP transport (--transport udp)"
                    return fail(RTSPClientError(.unsupportedTransport,
                        "\(url.redacted) refused the \(configuration.transport.rawValue.uppercased()) transport (461 Unsupported Transport): \(hint)",
                        url: url.redacted, method: "SETUP", cseq: request.cseq, statusCode: 461))
                }
                return fail(statusError(response, request: request))
            }
            return handleSetup(response, trackIndex: index, request: request)

        case .play:
            guard (200..<300).contains(response.statusCode) else {
                return fail(statusError(response, request: request))
            }
            if let value = response.headers.first(name: "RTP-Info") { rtpInfo = RTPInfoEntry.parse(value) }
            if let header = response.headers.first(name: "Session").flatMap(SessionHeader.init(parsing:)), let timeout = header.timeout {
                sessionTimeout = timeout
            }
            keepaliveMethod = publicMethods.contains("GET_PARAMETER") ? "GET_PARAMETER" : "OPTIONS"
            state = .playing
            return .playing(makeSessionInfo())

        case .playing:
            // Keepalive answered. A server that rejects the method gets the other one next time.
            if !(200..<300).contains(response.statusCode), request.method == keepaliveMethod, !keepaliveFallbackTried {
                keepaliveFallbackTried = true
                keepaliveMethod = keepaliveMethod == "GET_PARAMETER" ? "OPTIONS" : "GET_PARAMETER"
            }
            return .none

        case .tearingDown:
            state = .closed
            return .close

        case .idle, .closed, .failed:
            return .none
        }
    }

    /// The UDP ports bound for a track (after ``Action/bindUDPPorts(track:)``).
    public mutating func udpPortsBound(track index: Int, ports: TransportHeader.PortPair) -> Action {
        guard case .setup(let current) = state, current == index, tracks.indices.contains(index) else { return .none }
        tracks[index].clientPorts = ports
        return sendSetup(index)
    }

    /// Time for a keepalive (every session timeout − 5 s while playing).
    public mutating func keepalive() -> Action {
        guard state == .playing else { return .none }
        // Do not pile keepalives on an unanswered request.
        if outstanding != nil { return .none }
        let uri = keepaliveMethod == "GET_PARAMETER" ? baseURL.requestURI : url.requestURI
        return send(method: keepaliveMethod, uri: uri)
    }

    /// Seconds between keepalives: the session timeout less 5 s, at least 1 s.
    public var keepaliveInterval: Int {
        max(1, (sessionTimeout ?? configuration.defaultSessionTimeout) - 5)
    }

    /// End the session. Returns the TEARDOWN to send, or `.close` when there is no session to tear down.
    public mutating func teardown() -> Action {
        switch state {
        case .closed, .failed:
            return .close
        default:
            guard sessionID != nil else {
                state = .closed
                return .close
            }
            state = .tearingDown
            return send(method: "TEARDOWN", uri: baseURL.requestURI)
        }
    }

    // MARK: - Steps

    private mutating func handleDescribe(_ response: RTSPResponse, request: RTSPRequest) -> Action {
        guard let text = response.bodyString, !text.isEmpty else {
            return fail(RTSPClientError(.protocolError,
                "\(url.redacted) answered DESCRIBE without a session description (SDP): the camera may need another stream path",
                url: url.redacted, method: "DESCRIBE", cseq: request.cseq, statusCode: response.statusCode))
        }
        let sdp: SessionDescription
        do {
            sdp = try SessionDescription.parse(text)
        } catch {
            return fail(RTSPClientError(.protocolError,
                "\(url.redacted) answered DESCRIBE with a session description that could not be read (\(error))",
                url: url.redacted, method: "DESCRIBE", cseq: request.cseq))
        }
        sessionDescription = sdp
        sdpText = text
        // RFC 2326 §C.1.1: the base for relative control URLs.
        if let base = response.headers.first(name: "Content-Base") ?? response.headers.first(name: "Content-Location") {
            baseURL = url.resolving(base.trimmingCharacters(in: .whitespaces))
        } else {
            baseURL = url
        }
        if let sessionControl = sdp.control, sessionControl != "*" {
            baseURL = baseURL.resolving(sessionControl)
        }

        switch Self.selectTracks(sdp, baseURL: baseURL, includeAudio: configuration.includeAudio) {
        case .failure(let reason):
            var error = reason
            error.url = url.redacted
            error.message = error.message.replacingOccurrences(of: "{url}", with: url.redacted)
            return fail(error)
        case .success(let chosen):
            tracks = chosen
        }
        return beginSetup(0)
    }

    /// Choose the first H.264/H.265 video section (and optionally the first AAC audio section).
    static func selectTracks(_ sdp: SessionDescription, baseURL: RTSPURL, includeAudio: Bool) -> Result<[Track], RTSPClientError> {
        var chosen: [Track] = []
        var otherVideo: [String] = []
        for (index, media) in sdp.media.enumerated() where media.type.lowercased() == "video" {
            guard let pt = media.payloadType else { continue }
            let name = (media.encodingName ?? "payload type \(pt)").uppercased()
            let normalized = name == "HEVC" ? "H265" : name
            guard normalized == "H264" || normalized == "H265" else {
                otherVideo.append(name)
                continue
            }
            let control = media.control.map { baseURL.resolving($0) } ?? baseURL
            chosen.append(Track(kind: .video, mediaIndex: index, media: media, controlURL: control,
                                encodingName: normalized, payloadType: pt, clockRate: media.clockRate ?? 90_000))
            break
        }
        if chosen.isEmpty {
            if let codec = otherVideo.first {
                return .failure(RTSPClientError(.unsupportedCodec,
                    "{url} sends \(codec) video, which WatchBox does not handle: set the camera's encoder to H.264 or H.265"))
            }
            return .failure(RTSPClientError(.noVideoTrack,
                "{url} offers no video track: check the stream path (it may be an audio-only or metadata stream)"))
        }
        if includeAudio {
            for (index, media) in sdp.media.enumerated() where media.type.lowercased() == "audio" {
                guard let pt = media.payloadType, let name = media.encodingName?.uppercased() else { continue }
                guard name == "MPEG4-GENERIC" else { continue }
                let control = media.control.map { baseURL.resolving($0) } ?? baseURL
                chosen.append(Track(kind: .audio, mediaIndex: index, media: media, controlURL: control,
                                    encodingName: name, payloadType: pt, clockRate: media.clockRate ?? 8000))
                break
            }
        }
        return .success(chosen)
    }

    private mutating func beginSetup(_ index: Int) -> Action {
        state = .setup(track: index)
        if configuration.transport == .udp && tracks[index].clientPorts == nil {
            return .bindUDPPorts(track: index)
        }
        return sendSetup(index)
    }

    private mutating func sendSetup(_ index: Int) -> Action {
        let track = tracks[index]
        let transport: TransportHeader
        switch configuration.transport {
        case .tcp:
            transport = .tcpInterleaved(UInt8(2 * index), UInt8(2 * index + 1))
        case .udp:
            let ports = track.clientPorts ?? TransportHeader.PortPair(rtp: 0, rtcp: 1)
            transport = .udpUnicast(clientRTPPort: ports.rtp, clientRTCPPort: ports.rtcp)
        }
        var headers = RTSPHeaders()
        headers.add(name: "Transport", value: transport.headerValue)
        return send(method: "SETUP", uri: track.controlURL.requestURI, headers: headers)
    }

    private mutating func handleSetup(_ response: RTSPResponse, trackIndex index: Int, request: RTSPRequest) -> Action {
        if let value = response.headers.first(name: "Session") {
            guard let header = SessionHeader(parsing: value) else {
                return fail(RTSPClientError(.protocolError, "\(url.redacted) answered SETUP with an unreadable Session header \"\(value)\"",
                                            url: url.redacted, method: "SETUP", cseq: request.cseq))
            }
            if sessionID == nil { sessionID = header.id }
            if let timeout = header.timeout { sessionTimeout = timeout }
        }
        guard sessionID != nil else {
            return fail(RTSPClientError(.protocolError, "\(url.redacted) answered SETUP without a Session header",
                                        url: url.redacted, method: "SETUP", cseq: request.cseq))
        }
        var agreed: TransportHeader?
        if let value = response.headers.first(name: "Transport") {
            agreed = try? TransportHeader(parsing: value)
        }
        // Tolerance: a server that omits the Transport header (or the interleaved channels) gets the ones we asked for.
        let requested = try? TransportHeader(parsing: request.headers.first(name: "Transport") ?? "")
        if var answer = agreed {
            if configuration.transport == .tcp, answer.interleaved == nil { answer.interleaved = requested?.interleaved }
            if configuration.transport == .udp, !answer.isTCP, answer.clientPort == nil { answer.clientPort = requested?.clientPort }
            tracks[index].transport = answer
        } else {
            tracks[index].transport = requested
        }
        if index + 1 < tracks.count {
            return beginSetup(index + 1)
        }
        state = .play
        var headers = RTSPHeaders()
        headers.add(name: "Range", value: "npt=0.000-")
        return send(method: "PLAY", uri: baseURL.requestURI, headers: headers)
    }

    private mutating func handleUnauthorized(_ response: RTSPResponse, request: RTSPRequest) -> Action {
        guard let credentials = url.credentials else {
            return fail(.missingCredentials(url, method: request.method, cseq: request.cseq))
        }
        let challenges = AuthChallenge.parse(response.headers["WWW-Authenticate"])
        let stale = challenges.contains { if case .digest(let c) = $0 { return c.stale } else { return false } }
        if retriedAuthentication && !stale {
            return fail(.authenticationFailed(url, method: request.method, cseq: request.cseq))
        }
        guard let auth = RTSPAuthenticator(credentials: credentials, challenges: challenges) else {
            return fail(RTSPClientError(.authenticationFailed,
                "\(url.redacted) asks for an authentication scheme WatchBox does not support (\(response.headers["WWW-Authenticate"].joined(separator: "; ")))",
                url: url.redacted, method: request.method, cseq: request.cseq, statusCode: 401))
        }
        authenticator = auth
        retriedAuthentication = true
        var headers = request.headers
        headers.remove(name: "CSeq")
        headers.remove(name: "Authorization")
        headers.remove(name: "User-Agent")
        headers.remove(name: "Session")
        return send(method: request.method, uri: request.uri, headers: headers, body: request.body)
    }

    private mutating func handleRedirect(_ response: RTSPResponse, request: RTSPRequest) -> Action {
        guard let location = response.headers.first(name: "Location")?.trimmingCharacters(in: .whitespaces), !location.isEmpty else {
            return fail(RTSPClientError(.protocolError, "\(url.redacted) redirected (\(response.statusCode)) without a Location header",
                                        url: url.redacted, method: request.method, cseq: request.cseq, statusCode: response.statusCode))
        }
        redirects += 1
        if redirects > configuration.maxRedirects {
            return fail(RTSPClientError(.redirectLoop, "\(url.redacted) redirected more than \(configuration.maxRedirects) times: check the stream URL",
                                        url: url.redacted, method: request.method, cseq: request.cseq, statusCode: response.statusCode))
        }
        var target = url.resolving(location)
        if target.credentials == nil { target = target.withCredentials(url.credentials) }
        url = target
        baseURL = target
        authenticator = nil
        retriedAuthentication = false
        state = .idle
        return .openConnection(target)
    }

    private func statusError(_ response: RTSPResponse, request: RTSPRequest) -> RTSPClientError {
        let code = response.statusCode
        let reason = response.reasonPhrase.isEmpty ? "" : " \(response.reasonPhrase)"
        switch code {
        case 404:
            return RTSPClientError(.notFound, "stream not found: \(url.redacted) answered 404\(reason) to \(request.method): check the stream path",
                                   url: url.redacted, method: request.method, cseq: request.cseq, statusCode: code)
        case 403:
            return RTSPClientError(.authenticationFailed, "\(url.redacted) refused access (403\(reason)): the user may lack permission for this stream",
                                   url: url.redacted, method: request.method, cseq: request.cseq, statusCode: code)
        case 453:
            return RTSPClientError(.serverError, "\(url.redacted) has not enough bandwidth or too many clients (453\(reason)): close other viewers or lower the stream's bitrate",
                                   url: url.redacted, method: request.method, cseq: request.cseq, statusCode: code)
        default:
            return RTSPClientError(.serverError, "\(url.redacted) answered \(request.method) with \(code)\(reason)",
                                   url: url.redacted, method: request.method, cseq: request.cseq, statusCode: code)
        }
    }

    private mutating func fail(_ error: RTSPClientError) -> Action {
        state = .failed
        return .fail(error)
    }

    private mutating func send(method: String, uri: String, headers extra: RTSPHeaders = RTSPHeaders(), body: ByteBuffer? = nil) -> Action {
        cseq += 1
        var headers = RTSPHeaders()
        headers.add(name: "CSeq", value: String(cseq))
        headers.add(name: "User-Agent", value: configuration.userAgent)
        for (name, value) in extra { headers.add(name: name, value: value) }
        if let sessionID, !headers.contains(name: "Session") {
            headers.add(name: "Session", value: sessionID)
        }
        if var auth = authenticator {
            headers.replaceOrAdd(name: "Authorization", value: auth.authorization(method: method, uri: uri))
            authenticator = auth
        }
        let request = RTSPRequest(method: method, uri: uri, headers: headers, body: body)
        outstanding = request
        return .send(request)
    }

    private func makeSessionInfo() -> SessionInfo {
        SessionInfo(url: url, baseURL: baseURL, server: server,
                           sessionDescription: sessionDescription!, sdpText: sdpText, tracks: tracks, sessionID: sessionID ?? "",
                           sessionTimeout: sessionTimeout ?? configuration.defaultSessionTimeout,
                           keepaliveMethod: keepaliveMethod, rtpInfo: rtpInfo, authenticationScheme: authenticator?.schemeDescription)
    }
}
