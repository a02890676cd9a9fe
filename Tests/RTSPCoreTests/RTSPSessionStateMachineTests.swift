import Foundation
import NIOCore
import Testing
@testable import RTSPCore

/// The session logic without a socket: each test plays the server's part.
@Suite struct RTSPSessionStateMachineTests {
    static let sdp = """
        v=0\r
        o=- 0 0 IN IP4 127.0.0.1\r
        s=Session\r
        t=0 0\r
        a=control:*\r
        m=video 0 RTP/AVP 96\r
        a=rtpmap:96 H264/90000\r
        a=fmtp:96 packetization-mode=1;profile-level-id=42c01f;sprop-parameter-sets=Z0LAH9kAUAW7ARAAAAMAEAAAAwMg8YMkgA==,aMuDyyA=\r
        a=control:stream=0\r
        m=audio 0 RTP/AVP 97\r
        a=rtpmap:97 MPEG4-GENERIC/48000/2\r
        a=control:stream=1\r

        """

    func response(_ status: Int, _ reason: String = "OK", cseq: Int?, headers: [(String, String)] = [], body: String? = nil) -> RTSPResponse {
        var h = RTSPHeaders()
        if let cseq { h.add(name: "CSeq", value: String(cseq)) }
        for (n, v) in headers { h.add(name: n, value: v) }
        return RTSPResponse(statusCode: status, reasonPhrase: reason, headers: h, body: body.map { ByteBuffer(string: $0) })
    }

    func request(_ action: RTSPSessionStateMachine.Action) throws -> RTSPRequest {
        guard case .send(let request) = action else {
            Issue.record("expected a request, got \(action)")
            throw CancellationError()
        }
        return request
    }

    /// Drives the machine through OPTIONS/DESCRIBE/SETUP/PLAY on a well-behaved server.
    func playThrough(_ machine: inout RTSPSessionStateMachine, public methods: String = "OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN, GET_PARAMETER") throws -> RTSPSessionStateMachine.SessionInfo {
        let options = try request(machine.connectionOpened())
        #expect(options.method == "OPTIONS")
        let describe = try request(machine.receive(response(200, cseq: options.cseq, headers: [("Public", methods), ("Server", "GStreamer RTSP server")])))
        #expect(describe.method == "DESCRIBE")
        #expect(describe.headers.first(name: "Accept") == "application/sdp")
        let setup = try request(machine.receive(response(200, cseq: describe.cseq, headers: [("Content-Base", "rtsp://127.0.0.1:8554/test/")], body: Self.sdp)))
        #expect(setup.method == "SETUP")
        #expect(setup.uri == "rtsp://127.0.0.1:8554/test/stream=0")
        #expect(setup.headers.first(name: "Transport") == "RTP/AVP/TCP;unicast;interleaved=0-1")
        let play = try request(machine.receive(response(200, cseq: setup.cseq, headers: [
            ("Session", "abcdef;timeout=20"), ("Transport", "RTP/AVP/TCP;unicast;interleaved=0-1;ssrc=1A2B3C4D;mode=\"PLAY\""),
        ])))
        #expect(play.method == "PLAY")
        #expect(play.uri == "rtsp://127.0.0.1:8554/test/")
        #expect(play.headers.first(name: "Session") == "abcdef")
        let done = machine.receive(response(200, cseq: play.cseq, headers: [("RTP-Info", "url=rtsp://127.0.0.1:8554/test/stream=0;seq=1;rtptime=2")]))
        guard case .playing(let info) = done else {
            Issue.record("expected playing, got \(done)")
            throw CancellationError()
        }
        return info
    }

    @Test func playsThroughAGoodServer() throws {
        var machine = RTSPSessionStateMachine(url: try RTSPURL(string: "rtsp://127.0.0.1:8554/test"))
        let info = try playThrough(&machine)
        #expect(info.server == "GStreamer RTSP server")
        #expect(info.sessionID == "abcdef")
        #expect(info.sessionTimeout == 20)
        #expect(info.keepaliveMethod == "GET_PARAMETER")
        #expect(info.tracks.count == 1)
        #expect(info.tracks[0].encodingName == "H264")
        #expect(info.tracks[0].transport?.interleaved == TransportHeader.ChannelPair(rtp: 0, rtcp: 1))
        #expect(info.rtpInfo.first?.sequenceNumber == 1)
        #expect(machine.keepaliveInterval == 15)
    }

    @Test func cseqIncreasesAndUserAgentIsSent() throws {
        var machine = RTSPSessionStateMachine(url: try RTSPURL(string: "rtsp://127.0.0.1/test"),
                                              configuration: .init(userAgent: "WatchBoxTest/1"))
        let first = try request(machine.connectionOpened())
        let second = try request(machine.receive(response(200, cseq: first.cseq)))
        #expect(first.cseq == 1)
        #expect(second.cseq == 2)
        #expect(second.headers.first(name: "User-Agent") == "WatchBoxTest/1")
    }

    @Test func keepaliveFallsBackToTheOtherMethod() throws {
        var machine = RTSPSessionStateMachine(url: try RTSPURL(string: "rtsp://127.0.0.1:8554/test"))
        _ = try playThrough(&machine)
        let first = try request(machine.keepalive())
        #expect(first.method == "GET_PARAMETER")
        #expect(first.headers.first(name: "Session") == "abcdef")
        #expect(machine.receive(response(405, "Method Not Allowed", cseq: first.cseq)) == .none)
        let second = try request(machine.keepalive())
        #expect(second.method == "OPTIONS")
    }

    @Test func keepaliveUsesOptionsWhenGetParameterIsNotAdvertised() throws {
        var machine = RTSPSessionStateMachine(url: try RTSPURL(string: "rtsp://127.0.0.1:8554/test"))
        _ = try playThrough(&machine, public: "OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN")
        #expect(try request(machine.keepalive()).method == "OPTIONS")
        // No second keepalive while one is unanswered.
        #expect(machine.keepalive() == .none)
    }

    @Test func digestRetryThenSecond401IsAuthenticationFailed() throws {
        var machine = RTSPSessionStateMachine(url: try RTSPURL(string: "rtsp://admin:wrong@127.0.0.1/stream1"))
        let options = try request(machine.connectionOpened())
        #expect(options.headers.first(name: "Authorization") == nil)
        let challenge = ("WWW-Authenticate", "Digest realm=\"IP Camera\", nonce=\"abc123\", qop=\"auth\"")
        let retry = try request(machine.receive(response(401, "Unauthorized", cseq: options.cseq, headers: [challenge])))
        #expect(retry.method == "OPTIONS")
        let authorization = try #require(retry.headers.first(name: "Authorization"))
        #expect(authorization.hasPrefix("Digest "))
        #expect(authorization.contains("username=\"admin\""))
        #expect(!authorization.contains("wrong"))
        let final = machine.receive(response(401, "Unauthorized", cseq: retry.cseq, headers: [challenge]))
        guard case .fail(let error) = final else {
            Issue.record("expected failure, got \(final)")
            return
        }
        #expect(error.kind == .authenticationFailed)
        #expect(error.message == "authentication failed for rtsp://127.0.0.1/stream1: check the username and password")
        #expect(!error.message.contains("wrong"))
    }

    @Test func authorizationIsSentOnEveryLaterRequest() throws {
        var machine = RTSPSessionStateMachine(url: try RTSPURL(string: "rtsp://admin:secret@127.0.0.1/stream1"))
        let options = try request(machine.connectionOpened())
        let retry = try request(machine.receive(response(401, cseq: options.cseq, headers: [("WWW-Authenticate", "Basic realm=\"cam\"")])))
        #expect(retry.headers.first(name: "Authorization") == "Basic YWRtaW46c2VjcmV0")
        let describe = try request(machine.receive(response(200, cseq: retry.cseq)))
        #expect(describe.headers.first(name: "Authorization") == "Basic YWRtaW46c2VjcmV0")
    }

    @Test func a401WithoutCredentialsSaysToAddThem() throws {
        var machine = RTSPSessionStateMachine(url: try RTSPURL(string: "rtsp://127.0.0.1/stream1"))
        let options = try request(machine.connectionOpened())
        guard case .fail(let error) = machine.receive(response(401, cseq: options.cseq, headers: [("WWW-Authenticate", "Basic realm=\"cam\"")])) else {
            Issue.record("expected failure")
            return
        }
        #expect(error.kind == .authenticationFailed)
        #expect(error.message.contains("requires a username and password"))
    }

    @Test func notFoundIsAClearError() throws {
        var machine = RTSPSessionStateMachine(url: try RTSPURL(string: "rtsp://u:p@127.0.0.1/nope"))
        let options = try request(machine.connectionOpened())
        let describe = try request(machine.receive(response(200, cseq: options.cseq)))
        guard case .fail(let error) = machine.receive(response(404, "Not Found", cseq: describe.cseq)) else {
            Issue.record("expected failure")
            return
        }
        #expect(error.kind == .notFound)
        #expect(error.message == "stream not found: rtsp://127.0.0.1/nope answered 404 Not Found to DESCRIBE: check the stream path")
        #expect(error.cseq == describe.cseq)
        #expect(error.method == "DESCRIBE")
    }

    @Test func optionsFailureIsTolerated() throws {
        var machine = RTSPSessionStateMachine(url: try RTSPURL(string: "rtsp://127.0.0.1/live"))
        let options = try request(machine.connectionOpened())
        let next = try request(machine.receive(response(501, "Not Implemented", cseq: options.cseq)))
        #expect(next.method == "DESCRIBE")
    }

    @Test func redirectKeepsCredentialsAndOpensANewConnection() throws {
        var machine = RTSPSessionStateMachine(url: try RTSPURL(string: "rtsp://admin:pw@127.0.0.1/old"))
        let options = try request(machine.connectionOpened())
        let describe = try request(machine.receive(response(200, cseq: options.cseq)))
        let action = machine.receive(response(302, "Moved Temporarily", cseq: describe.cseq, headers: [("Location", "rtsp://127.0.0.2:8554/new")]))
        guard case .openConnection(let target) = action else {
            Issue.record("expected a new connection, got \(action)")
            return
        }
        #expect(target.host == "127.0.0.2")
        #expect(target.port == 8554)
        #expect(target.credentials == RTSPCredentials(username: "admin", password: "pw"))
        let again = try request(machine.connectionOpened())
        #expect(again.uri == "rtsp://127.0.0.2:8554/new")
    }

    @Test func redirectLoopsEnd() throws {
        var machine = RTSPSessionStateMachine(url: try RTSPURL(string: "rtsp://127.0.0.1/a"), configuration: .init(maxRedirects: 2))
        var last: RTSPSessionStateMachine.Action = .none
        for _ in 0..<3 {
            let options = try request(machine.connectionOpened())
            last = machine.receive(response(301, cseq: options.cseq, headers: [("Location", "rtsp://127.0.0.1/a")]))
        }
        guard case .fail(let error) = last else {
            Issue.record("expected failure, got \(last)")
            return
        }
        #expect(error.kind == .redirectLoop)
    }

    @Test func udpAsksForPortsThenSendsThem() throws {
        var machine = RTSPSessionStateMachine(url: try RTSPURL(string: "rtsp://127.0.0.1/test"), configuration: .init(transport: .udp))
        let options = try request(machine.connectionOpened())
        let describe = try request(machine.receive(response(200, cseq: options.cseq)))
        let action = machine.receive(response(200, cseq: describe.cseq, body: Self.sdp))
        #expect(action == .bindUDPPorts(track: 0))
        let setup = try request(machine.udpPortsBound(track: 0, ports: .init(rtp: 50000, rtcp: 50001)))
        #expect(setup.headers.first(name: "Transport") == "RTP/AVP;unicast;client_port=50000-50001")
        #expect(setup.uri == "rtsp://127.0.0.1/test/stream=0")
        let play = try request(machine.receive(response(200, cseq: setup.cseq, headers: [
            ("Session", "u1"), ("Transport", "RTP/AVP;unicast;client_port=50000-50001;server_port=6000-6001"),
        ])))
        #expect(play.method == "PLAY")
        #expect(machine.selectedTracks[0].transport?.serverPort == TransportHeader.PortPair(rtp: 6000, rtcp: 6001))
    }

    @Test func udpRefusedSaysToTryTCP() throws {
        var machine = RTSPSessionStateMachine(url: try RTSPURL(string: "rtsp://127.0.0.1/test"), configuration: .init(transport: .udp))
        let options = try request(machine.connectionOpened())
        let describe = try request(machine.receive(response(200, cseq: options.cseq)))
        _ = machine.receive(response(200, cseq: describe.cseq, body: Self.sdp))
        let setup = try request(machine.udpPortsBound(track: 0, ports: .init(rtp: 50000, rtcp: 50001)))
        guard case .fail(let error) = machine.receive(response(461, "Unsupported Transport", cseq: setup.cseq)) else {
            Issue.record("expected failure")
            return
        }
        #expect(error.kind == .unsupportedTransport)
        #expect(error.message.contains("--transport tcp"))
    }

    @Test func audioTrackIsSetUpWhenAsked() throws {
        var machine = RTSPSessionStateMachine(url: try RTSPURL(string: "rtsp://127.0.0.1/test"), configuration: .init(includeAudio: true))
        let options = try request(machine.connectionOpened())
        let describe = try request(machine.receive(response(200, cseq: options.cseq)))
        let setupVideo = try request(machine.receive(response(200, cseq: describe.cseq, body: Self.sdp)))
        let setupAudio = try request(machine.receive(response(200, cseq: setupVideo.cseq, headers: [("Session", "s1")])))
        #expect(setupAudio.uri == "rtsp://127.0.0.1/test/stream=1")
        #expect(setupAudio.headers.first(name: "Transport") == "RTP/AVP/TCP;unicast;interleaved=2-3")
        #expect(setupAudio.headers.first(name: "Session") == "s1")
        #expect(machine.selectedTracks.map(\.kind) == [.video, .audio])
    }

    @Test func mjpegOnlyIsUnsupportedCodec() throws {
        let sdp = "v=0\r\ns=x\r\nm=video 0 RTP/AVP 26\r\na=control:track1\r\n"
        var machine = RTSPSessionStateMachine(url: try RTSPURL(string: "rtsp://127.0.0.1/mjpeg"))
        let options = try request(machine.connectionOpened())
        let describe = try request(machine.receive(response(200, cseq: options.cseq)))
        guard case .fail(let error) = machine.receive(response(200, cseq: describe.cseq, body: sdp)) else {
            Issue.record("expected failure")
            return
        }
        #expect(error.kind == .unsupportedCodec)
        #expect(error.message == "rtsp://127.0.0.1/mjpeg sends JPEG video, which WatchBox does not handle: set the camera's encoder to H.264 or H.265")
    }

    @Test func audioOnlyIsNoVideoTrack() throws {
        let sdp = "v=0\r\ns=x\r\nm=audio 0 RTP/AVP 0\r\n"
        var machine = RTSPSessionStateMachine(url: try RTSPURL(string: "rtsp://127.0.0.1/audio"))
        let options = try request(machine.connectionOpened())
        let describe = try request(machine.receive(response(200, cseq: options.cseq)))
        guard case .fail(let error) = machine.receive(response(200, cseq: describe.cseq, body: sdp)) else {
            Issue.record("expected failure")
            return
        }
        #expect(error.kind == .noVideoTrack)
    }

    @Test func responseWithoutCSeqIsAccepted() throws {
        var machine = RTSPSessionStateMachine(url: try RTSPURL(string: "rtsp://127.0.0.1/test"))
        _ = try request(machine.connectionOpened())
        #expect(try request(machine.receive(response(200, cseq: nil))).method == "DESCRIBE")
    }

    @Test func staleResponseIsIgnored() throws {
        var machine = RTSPSessionStateMachine(url: try RTSPURL(string: "rtsp://127.0.0.1/test"))
        _ = try request(machine.connectionOpened())
        #expect(machine.receive(response(200, cseq: 99)) == .none)
    }

    @Test func teardownAfterPlaying() throws {
        var machine = RTSPSessionStateMachine(url: try RTSPURL(string: "rtsp://127.0.0.1:8554/test"))
        _ = try playThrough(&machine)
        let teardown = try request(machine.teardown())
        #expect(teardown.method == "TEARDOWN")
        #expect(teardown.headers.first(name: "Session") == "abcdef")
        #expect(machine.receive(response(200, cseq: teardown.cseq)) == .close)
    }

    @Test func teardownBeforeSetupJustCloses() throws {
        var machine = RTSPSessionStateMachine(url: try RTSPURL(string: "rtsp://127.0.0.1/test"))
        _ = machine.connectionOpened()
        #expect(machine.teardown() == .close)
    }
}
