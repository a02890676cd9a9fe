@testable import Discovery
import Foundation
import NIOConcurrencyHelpers
import RTSPCore
import Testing
import TestSupport

/// The scanner against real peers on loopback: GStreamer's RTSP server (Digest auth) on one port, non-RTSP
/// listeners on others, and the scope guard.
@Suite("RTSP scanner on loopback", .serialized)
struct LoopbackScannerTests {
    static let loopback = ScanScope([try! IPv4Subnet(parsing: "127.0.0.1/32")])

    /// A tcp_peer.py on 127.0.0.1; returns the process and its port.
    static func peer(_ mode: String) throws -> (Process, Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PeerRTSPServer.python)
        process.arguments = [NetworkLab.peerScript, mode, "--host", "127.0.0.1"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data([0x0A]) { break }
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).dropFirst(6)) else {
            process.terminate()
            throw PeerError(message: "tcp_peer.py \(mode) did not start")
        }
        return (process, port)
    }

    @Test(.enabled(if: PeerRTSPServer.isAvailable, "needs the GStreamer RTSP peer"))
    func findsTheCameraAndIgnoresOtherListeners() async throws {
        let camera = try PeerRTSPServer(["--path", "/Streaming/Channels/101", "--path", "/stream2", "--auth", "digest",
                                         "--user", "admin", "--password", "s3cret", "--width", "320", "--height", "240"])
        defer { camera.stop() }
        let (http, httpPort) = try Self.peer("http")
        let (garbage, garbagePort) = try Self.peer("garbage")
        let (silent, silentPort) = try Self.peer("silent")
        defer { for process in [http, garbage, silent] { process.terminate() } }
        let closedPort = freeLoopbackPort()

        let scanner = RTSPScanner(configuration: .init(
            scope: Self.loopback, ports: [closedPort, httpPort, garbagePort, silentPort, camera.port],
            answerTimeout: .seconds(2), credentials: RTSPCredentials(username: "admin", password: "s3cret")))
        let updates = NIOLockedValueBox<[ScanProgress]>([])
        let hosts = await scanner.scan(onProgress: { progress in updates.withLockedValue { $0.append(progress) } })
        #expect(hosts.count == 1)
        let endpoints = hosts.first?.endpoints ?? []
        #expect(endpoints.map(\.port) == [camera.port])
        let endpoint = try #require(endpoints.first)
        #expect(endpoint.server?.contains("GStreamer") == true)
        #expect(endpoint.methods.contains("DESCRIBE"))
        #expect(endpoint.requiresAuthentication)
        #expect(!endpoint.authenticationFailed)
        // The Server header names no vendor with paths of its own: generic paths, then the vendors' in list order.
        #expect(endpoint.workingURLs == ["rtsp://127.0.0.1:\(camera.port)/Streaming/Channels/101", "rtsp://127.0.0.1:\(camera.port)/stream2"])
        #expect(endpoint.roles["rtsp://127.0.0.1:\(camera.port)/stream2"] == "sub")
        let progress = updates.withLockedValue { $0 }
        #expect(progress.first == ScanProgress(hostsScanned: 0, hostsTotal: 1, devicesFound: 0))
        #expect(progress.last == ScanProgress(hostsScanned: 1, hostsTotal: 1, devicesFound: 1))
    }

    @Test func silentAndGarbagePeersCostAtMostTheTimeout() async throws {
        let (silent, silentPort) = try Self.peer("silent")
        let (garbage, garbagePort) = try Self.peer("garbage")
        defer { silent.terminate(); garbage.terminate() }
        let scanner = RTSPScanner(configuration: .init(scope: Self.loopback, ports: [silentPort, garbagePort],
                                                       answerTimeout: .seconds(1)))
        let started = ContinuousClock.now
        let hosts = await scanner.scan()
        let elapsed = ContinuousClock.now - started
        #expect(hosts.isEmpty)
        // A hang guard, not a speed test: the silent peer is given up on after its 1 s answer timeout.
        #expect(elapsed < .seconds(6), "took \(elapsed)")
        // The garbage peer is recognised as not RTSP at once (no waiting for the timeout).
        let connection = try await RTSPProbeConnection.connect(to: IPv4Address("127.0.0.1")!, port: garbagePort, scope: Self.loopback,
                                                               timeout: .seconds(1), group: scanner.group)
        let request = RTSPProbeRequests.options(uri: "rtsp://127.0.0.1:\(garbagePort)/", cseq: 1)
        await #expect(throws: RTSPProbeConnection.Failure.notRTSP) { try await connection.send(request, timeout: .seconds(30)) }
        await connection.close()
    }

    @Test func neverConnectsOutsideTheScope() async throws {
        let (listener, port) = try Self.peer("silent")
        defer { listener.terminate() }
        let scope = ScanScope([try IPv4Subnet(parsing: "127.0.0.2/32")])
        // 127.0.0.1 is listening, but it is not in the scope: refused before any packet is sent.
        await #expect(throws: DiscoveryError.outsideRange("127.0.0.1")) {
            _ = try await RTSPProbeConnection.connect(to: IPv4Address("127.0.0.1")!, port: port, scope: scope,
                                                      timeout: .seconds(1), group: RTSPScanner(configuration: .init(scope: scope)).group)
        }
        // And the scanner only ever visits the scope's hosts.
        #expect(scope.hosts.map(\.description) == ["127.0.0.2"])
    }
}
