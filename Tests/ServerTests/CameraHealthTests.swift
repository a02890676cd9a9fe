import Foundation
import Hub
import NIOConcurrencyHelpers
import RTSPClient
import RTSPCore
import Hummingbird
import HummingbirdTesting
@testable import Server
import Testing
import TestSupport

/// The hub knows whether cameras nobody watches are up (OPTIONS + DESCRIBE checks, no stream, no slot),
/// and reports a watched camera that stays down as failed, against GStreamer's RTSP server.
@Suite("Camera health: checks of unwatched cameras, failed state", .serialized,
       .enabled(if: PeerRTSPServer.isAvailable, "needs GStreamer's RTSP server"))
struct CameraHealthTests {
    static let small = ["--width", "320", "--height", "240"]

    func eventually(_ what: String, timeout: Duration = .seconds(20), _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("timed out waiting for \(what)")
        throw PeerError(message: "timed out waiting for \(what)")
    }

    func add(_ test: TestServer, _ name: String, _ url: String, username: String? = nil, password: String? = nil) async throws -> UUID {
        try await test.server.service.create(CameraInput(name: name, rtspURL: url, username: username, password: password)).id
    }

    @Test func anUnwatchedCameraIsCheckedWithoutStreamingOrTakingASlot() async throws {
        let log = try temporaryDirectory().appendingPathComponent("requests.log")
        let peer = try PeerRTSPServer(Self.small + ["--request-log", log.path])
        defer { peer.stop() }
        let test = try await TestServer.make(demo: true, maxStreams: 1, healthInterval: .milliseconds(500))
        let hub = test.server.service.hub
        let id = try await add(test, "Checked", peer.url())
        try await eventually("the first check") { hub.status(cameraID: id).reachable == true }
        var status = hub.status(cameraID: id)
        #expect(status.state == .idle, "a reachable camera nobody watches stays idle: \(status)")
        #expect(status.checkedAt != nil)
        #expect(status.failedSince == nil)
        #expect(status.message == nil)
        // Several checks, and none of them started the stream.
        let before = try #require(hub.health).checksStarted
        try await eventually("more checks") { try #require(hub.health).checksStarted >= before + 2 }
        let methods = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(methods.filter { $0 == "DESCRIBE" }.count >= 2, "\(methods)")
        #expect(!methods.contains("SETUP") && !methods.contains("PLAY"), "a check sets nothing up: \(methods)")
        status = hub.status(cameraID: id)
        #expect(status.viewers == 0 && status.state == .idle)
        // The one slot (--max-streams 1) is free for a viewer of another camera while checks go on.
        let demo = try #require(try await test.server.service.list().first { $0.name.hasPrefix("Demo") }?.id)
        let viewer = try hub.watch(cameraID: demo)
        try await eventually("the demo camera to play in the only slot") { hub.status(cameraID: demo).state == .live }
        let during = try #require(hub.health).checksStarted
        try await eventually("checks while the slot is taken") { try #require(hub.health).checksStarted >= during + 2 }
        #expect(hub.status(cameraID: demo).state == .live)
        #expect(hub.status(cameraID: id).reachable == true)
        viewer.close()
        await test.shutdown()
    }

    @Test func aKilledServerTurnsUnreachableOverSSEAndBackWhenRestarted() async throws {
        let port = freeLoopbackPort()
        let first = try PeerRTSPServer(Self.small, port: port)
        defer { first.stop() }
        let test = try await TestServer.make(healthInterval: .milliseconds(500))
        let hub = test.server.service.hub
        let id = try await add(test, "Killed", first.url())
        try await eventually("the first check") { hub.status(cameraID: id).reachable == true }
        try await test.live { client in
            let httpPort = try #require(client.port)
            let reader = Task.detached {
                // The first check after the kill may find the server still closing connections ("closed the
                // connection"); the one after finds the port shut.
                try await readHTTPStream(port: httpPort, path: "/api/events", until: "connection refused by 127.0.0.1:\(port)", timeout: 30)
            }
            try await Task.sleep(for: .milliseconds(300))  // the event stream is open before the camera goes
            first.kill()
            let text = try await reader.value
            let event = try #require(text.components(separatedBy: "event: status\n").last { $0.contains("connection refused") })
            #expect(event.contains(id.uuidString))
            #expect(event.contains("\"reachable\":false"))
            #expect(event.contains("failedSince"))
            #expect(event.contains("connection refused by 127.0.0.1:\(port)"), "\(event)")
            var status = hub.status(cameraID: id)
            #expect(status.state == .unreachable)
            #expect(status.message?.contains("(checked ") == true, "\(status.message ?? "-")")
            #expect(status.failedSince != nil)
            // (Inside the application's run: when it ends, its HubService shuts the hub down.)
            let second = try PeerRTSPServer(Self.small, port: port)
            defer { second.stop() }
            try await eventually("the camera to be reachable again (\(hub.status(cameraID: id)))") { hub.status(cameraID: id).reachable == true }
            status = hub.status(cameraID: id)
            #expect(status.state == .idle && status.failedSince == nil && status.message == nil, "\(status)")
        }
        await test.shutdown()
    }

    @Test func aWrongPasswordIsAnAuthenticationFailureWithoutAViewer() async throws {
        let peer = try PeerRTSPServer(Self.small + ["--auth", "digest", "--user", "admin", "--password", "s3cret"])
        defer { peer.stop() }
        let test = try await TestServer.make(healthInterval: .milliseconds(500))
        let hub = test.server.service.hub
        let id = try await add(test, "Locked", peer.url(), username: "admin", password: "not-it")
        try await eventually("the check to fail") { hub.status(cameraID: id).state == .authenticationFailed }
        let status = hub.status(cameraID: id)
        #expect(status.state == .authenticationFailed, "\(status)")
        #expect(status.message?.hasPrefix("authentication failed for rtsp://127.0.0.1:\(peer.port)/stream: check the username and password") == true,
                "\(status.message ?? "-")")
        #expect(status.failedSince != nil)
        #expect(status.message?.contains("not-it") == false)
        await test.shutdown()
    }

    @Test func aWatchedCameraThatStaysDownIsReportedFailed() async throws {
        let peer = try PeerRTSPServer(Self.small)
        defer { peer.stop() }
        let test = try await TestServer.make(healthInterval: .milliseconds(500), failAfter: .seconds(2))
        let hub = test.server.service.hub
        let id = try await add(test, "Watched", peer.url())
        let viewer = try hub.watch(cameraID: id)
        try await eventually("live") { hub.status(cameraID: id).state == .live }
        let checks = try #require(hub.health).checksStarted
        peer.kill()
        try await eventually("reconnecting") { hub.status(cameraID: id).state == .reconnecting }
        #expect(hub.status(cameraID: id).failedSince == nil, "not failed yet: a blip is not an outage")
        try await eventually("failed after the threshold") { hub.status(cameraID: id).failedSince != nil }
        let status = hub.status(cameraID: id)
        #expect(status.state == .reconnecting, "still trying: \(status)")
        #expect(status.checkedAt == nil, "a watched camera is judged by its stream, not by checks")
        #expect(try #require(hub.health).checksStarted == checks, "no check while the camera is watched")
        viewer.close()
        await test.shutdown()
    }

    @Test func aPortThatIsNotRTSPSaysSoInTestConnectionAndInTheHubState() async throws {
        let http = try TCPPeer("http")
        defer { http.stop() }
        let test = try await TestServer.make(healthInterval: .milliseconds(500))
        let url = "rtsp://admin:pw-Zq9@127.0.0.1:\(http.port)/stream"
        let expected = "127.0.0.1:\(http.port) answered, but not with RTSP (it looks like an HTTP server): check the port and the URL"
        let result = try await test.server.service.test(TestConnectionInput(rtspURL: url))
        #expect(result.ok == false)
        #expect(result.error == expected)
        #expect(result.state == .error)
        let hub = test.server.service.hub
        let id = try await add(test, "Web page", url)
        try await eventually("the check") { hub.status(cameraID: id).reachable == false }
        let status = hub.status(cameraID: id)
        #expect(status.state == .error)
        #expect(status.message?.hasPrefix(expected + " (checked ") == true, "\(status.message ?? "-")")
        #expect(status.message?.contains("pw-Zq9") == false)
        await test.shutdown()
    }
}

/// Checks run at most `maxConcurrentChecks` at once, spread over every camera, and skip watched cameras.
@Suite("CameraHealthMonitor scheduling", .serialized)
struct CameraHealthSchedulingTests {
    /// A real RTSP upstream (its check talks to a real listener) that counts checks in flight.
    struct CountedUpstream: Upstream, HealthCheckable {
        let inner: RTSPUpstream
        let counter: Counter
        func run(onEvent: @escaping @Sendable (UpstreamEvent) -> Void) async { await inner.run(onEvent: onEvent) }
        func checkHealth(timeout: Duration) async -> HealthCheck? {
            counter.enter()
            defer { counter.leave() }
            return await inner.checkHealth(timeout: timeout)
        }
    }

    final class Counter: Sendable {
        private let state = NIOLockedValueBox((now: 0, most: 0, total: 0))
        func enter() { state.withLockedValue { $0.now += 1; $0.most = max($0.most, $0.now); $0.total += 1 } }
        func leave() { state.withLockedValue { $0.now -= 1 } }
        var most: Int { state.withLockedValue { $0.most } }
        var total: Int { state.withLockedValue { $0.total } }
    }

    @Test func atMostFourChecksAtOnceAndEveryCameraIsChecked() async throws {
        // A listener that never answers: each check lasts its whole (1 s) timeout, so checks overlap.
        let silent = try TCPPeer("silent")
        defer { silent.stop() }
        let counter = Counter()
        let hub = StreamHub(configuration: .init(healthChecks: .init(interval: .milliseconds(400), maxConcurrentChecks: 4,
                                                                        timeout: .seconds(1))))
        var ids: [UUID] = []
        for _ in 0..<9 {
            let id = UUID()
            let upstream = RTSPUpstream(url: try RTSPURL(string: "rtsp://127.0.0.1:\(silent.port)/stream"))
            await hub.register(cameraID: id, upstreams: [.main: CountedUpstream(inner: upstream, counter: counter)], isActive: true)
            ids.append(id)
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline, !ids.allSatisfy({ hub.status(cameraID: $0).checkedAt != nil }) {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(ids.allSatisfy { hub.status(cameraID: $0).checkedAt != nil }, "every camera was checked")
        #expect(counter.most == 4, "at most 4 at once, and checks did overlap: \(counter.most)")
        let status = hub.status(cameraID: ids[0])
        #expect(status.state == .unreachable, "a silent port is unreachable: \(status)")
        #expect(status.message?.hasPrefix("rtsp://127.0.0.1:\(silent.port)/stream did not answer OPTIONS within 1 s (checked ") == true,
                "\(status.message ?? "-")")
        await hub.shutdown()
    }
}
