import Foundation
import Hub
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import NIOConcurrencyHelpers
import NIOCore
@testable import Server

/// Keeps every log line in memory, to check what reaches a log.
final class LogCapture: Sendable {
    let lines = NIOLockedValueBox<[String]>([])

    var logger: Logger {
        var logger = Logger(label: "watchbox.test") { label in CapturingHandler(label: label, capture: self) }
        logger.logLevel = .trace
        return logger
    }

    var text: String { lines.withLockedValue { $0.joined(separator: "\n") } }

    struct CapturingHandler: LogHandler {
        let label: String
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            capture.lines.withLockedValue { $0.append("\(event.level) \(label) \(event.message) \(all)") }
        }
    }
}

/// A server on a fresh data directory.
struct TestServer {
    let server: WatchBoxServer
    let directory: URL
    let logs: LogCapture

    /// `healthInterval`: check unwatched cameras this often (only for tests whose cameras are on loopback).
    /// `segmentSeconds`: the length of recorded segments.
    static func make(demo: Bool = false, maxStreams: Int = 16, healthInterval: Duration? = nil,
                     failAfter: Duration = .seconds(10), segmentSeconds: Double = 60) async throws -> TestServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("watchbox-server-\(UUID().uuidString)")
        let logs = LogCapture()
        var configuration = ServerConfiguration(port: 0, dataDirectory: directory, maxStreams: maxStreams,
                                                gracePeriod: .milliseconds(500), demo: demo,
                                                healthInterval: healthInterval, failAfter: failAfter)
        configuration.segmentSeconds = segmentSeconds
        let server = try await WatchBoxServer.open(configuration: configuration, logger: logs.logger)
        return TestServer(server: server, directory: directory, logs: logs)
    }

    var application: some ApplicationProtocol { application() }

    func application(firstByteTimeout: TimeAmount = .seconds(60)) -> some ApplicationProtocol {
        let router = server.router(logRequests: true)
        return Application(router: router,
                    server: QuietConnectionCloser.builder(webSocketRouter: router, firstByteTimeout: firstByteTimeout),
                    configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                    services: [HubService(service: server.service, recordings: server.recordings.manager, logger: logs.logger)],
                    logger: logs.logger)
    }

    /// Runs `body` against a live server (real sockets). Afterwards one request goes through the framework's own
    /// HTTP client: HummingbirdTesting's live framework connects that client in the background before the body runs,
    /// and closing it before the connection is up leaves the connection open, silent (the server used to wait for
    /// it forever at shutdown; `QuietConnectionCloser` now closes it, see ConnectionTests). A request first makes
    /// sure the connection is up, so the client closes it itself.
    func live<Value: Sendable>(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await application.test(.live) { client in
            let value = try await body(client)
            try await client.execute(uri: "/api/health", method: .get) { response in
                #expect(response.status == .ok)
            }
            return value
        }
    }

    func shutdown() async {
        await server.recordings.manager.shutdown()
        await server.service.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }
}

func json(_ object: [String: Any]) -> ByteBuffer {
    ByteBuffer(bytes: try! JSONSerialization.data(withJSONObject: object))
}

func object(_ buffer: ByteBuffer) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))) as? [String: Any] ?? [:]
}

func array(_ buffer: ByteBuffer) -> [[String: Any]] {
    (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))) as? [[String: Any]] ?? []
}

let jsonHeaders: HTTPFields = [.contentType: "application/json"]
