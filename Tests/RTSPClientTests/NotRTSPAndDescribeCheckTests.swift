import Foundation
import Testing
import TestSupport
@testable import RTSPClient
import RTSPCore

/// A port that answers, but not with RTSP, fails at once with a sentence that says so (not after the
/// request timeout); and the health check's OPTIONS + DESCRIBE against a real server.
@Suite("Not RTSP; OPTIONS + DESCRIBE checks", .serialized)
struct NotRTSPAndDescribeCheckTests {
    /// A request timeout far above the time the answer takes: a failure "at once" is well under it.
    static let patient = RTSPClientConfiguration(connectTimeout: .seconds(20), requestTimeout: .seconds(20))

    func failure(of url: String, _ body: (RTSPURL) async throws -> Void) async throws -> (RTSPClientError, Duration) {
        let started = ContinuousClock.now
        do {
            try await body(try RTSPURL(string: url))
        } catch let error as RTSPClientError {
            return (error, ContinuousClock.now - started)
        }
        Issue.record("\(url) did not fail")
        throw PeerError(message: "no failure")
    }

    @Test func anHTTPServerIsNamedAsSuchAtOnce() async throws {
        let peer = try TCPPeer("http")
        defer { peer.stop() }
        let (error, took) = try await failure(of: "rtsp://user:pw-secret@127.0.0.1:\(peer.port)/stream") { url in
            _ = try await RTSPSession.start(url: url, configuration: Self.patient) { _ in }
        }
        #expect(error.kind == .notRTSP)
        #expect(error.message == "127.0.0.1:\(peer.port) answered, but not with RTSP (it looks like an HTTP server): check the port and the URL")
        #expect(!error.message.contains("pw-secret"))
        #expect(took < .seconds(20), "failed at once, not after the 20 s request timeout (took \(took))")
    }

    @Test func garbageIsNotRTSPEither() async throws {
        let peer = try TCPPeer("garbage")  // writes its bytes as soon as the connection opens, then keeps it open
        defer { peer.stop() }
        let (error, took) = try await failure(of: "rtsp://127.0.0.1:\(peer.port)/stream") { url in
            _ = try await RTSPSession.start(url: url, configuration: Self.patient) { _ in }
        }
        #expect(error.kind == .notRTSP)
        #expect(error.message.hasPrefix("127.0.0.1:\(peer.port) answered, but not with RTSP (it sent "), "\(error.message)")
        #expect(error.message.hasSuffix("bytes that are not an RTSP response): check the port and the URL"), "\(error.message)")
        #expect(took < .seconds(20), "took \(took)")
    }

    @Test func theDescribeCheckSaysNotRTSPToo() async throws {
        let peer = try TCPPeer("http")
        defer { peer.stop() }
        let (error, _) = try await failure(of: "rtsp://127.0.0.1:\(peer.port)/stream") { url in
            _ = try await RTSPDescribeCheck.run(url: url, configuration: Self.patient, timeout: .seconds(20))
        }
        #expect(error.kind == .notRTSP)
    }

    @Test func probeCommandPrintsNotRTSPInsteadOfATimeout() throws {
        for mode in ["http", "garbage"] {
            let peer = try TCPPeer(mode)
            defer { peer.stop() }
            let result = try runCommand(watchboxExecutable, ["probe", "--timeout", "20", "rtsp://127.0.0.1:\(peer.port)/stream"])
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("watchbox: 127.0.0.1:\(peer.port) answered, but not with RTSP ("), "\(mode): \(result.stderr)")
            #expect(result.stderr.contains(mode == "http" ? "it looks like an HTTP server" : "bytes that are not an RTSP response"))
            #expect(!result.stderr.contains("did not answer"))
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test func aSilentPortStillTimesOut() async throws {
        let peer = try TCPPeer("silent")
        defer { peer.stop() }
        let (error, _) = try await failure(of: "rtsp://127.0.0.1:\(peer.port)/stream") { url in
            _ = try await RTSPDescribeCheck.run(url: url, timeout: .milliseconds(700))
        }
        #expect(error.kind == .timeout, "\(error)")
    }
}

@Suite("OPTIONS + DESCRIBE check against GStreamer", .serialized,
       .enabled(if: PeerRTSPServer.isAvailable, "GStreamer's RTSP server is not installed; scripts/test installs it"))
struct DescribeCheckTests {
    @Test func passesWithTheRightPasswordAndNeverPlays() async throws {
        let log = try temporaryDirectory().appendingPathComponent("requests.log")
        let server = try PeerRTSPServer(["--width", "320", "--height", "240", "--auth", "digest", "--user", "admin",
                                         "--password", "s3cret", "--request-log", log.path])
        defer { server.stop() }
        // GStreamer builds the media (encoder and all) to answer DESCRIBE: patient, for a busy machine.
        let result = try await RTSPDescribeCheck.run(url: try RTSPURL(string: server.url(user: "admin", password: "s3cret")), timeout: .seconds(30))
        #expect(result.trackCount == 1)
        #expect(result.server?.isEmpty == false)
        // GStreamer logs the request when it handles it; give it a moment.
        try await Task.sleep(for: .milliseconds(300))
        let methods = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(methods.contains("DESCRIBE"), "\(methods)")
        #expect(!methods.contains("SETUP") && !methods.contains("PLAY"), "a check sets nothing up: \(methods)")
    }

    @Test func aWrongPasswordIsAnAuthenticationFailure() async throws {
        let server = try PeerRTSPServer(["--width", "320", "--height", "240", "--auth", "digest", "--user", "admin", "--password", "s3cret"])
        defer { server.stop() }
        do {
            _ = try await RTSPDescribeCheck.run(url: try RTSPURL(string: server.url(user: "admin", password: "wrong")), timeout: .seconds(30))
            Issue.record("the check passed with a wrong password")
        } catch let error as RTSPClientError {
            #expect(error.kind == .authenticationFailed, "\(error)")
            #expect(!error.message.contains("wrong"))
        }
    }

    @Test func aStoppedServerIsRefused() async throws {
        let server = try PeerRTSPServer(["--width", "320", "--height", "240"])
        let url = try RTSPURL(string: server.url())
        server.stop()
        do {
            _ = try await RTSPDescribeCheck.run(url: url)
            Issue.record("the check passed with the server stopped")
        } catch let error as RTSPClientError {
            #expect(error.kind == .connectionRefused, "\(error)")
        }
    }
}
