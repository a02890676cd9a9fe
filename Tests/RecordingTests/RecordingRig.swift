import Foundation
import Hub
import Logging
import NIOConcurrencyHelpers
import Recording
import RTSPClient
import RTSPCore
import Store
import TestSupport

/// Keeps every log line in memory.
final class LogLines: Sendable {
    let lines = NIOLockedValueBox<[String]>([])
    var text: String { lines.withLockedValue { $0.joined(separator: "\n") } }

    var logger: Logger {
        Logger(label: "watchbox.test") { label in Handler(label: label, capture: self) }
    }

    struct Handler: LogHandler {
        let label: String
        let capture: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            capture.lines.withLockedValue { $0.append("\(event.level) \(event.message)") }
        }
    }
}

/// A database, a hub and a recording manager on a folder, with cameras pointing at GStreamer peers.
struct RecordingRig {
    let database: AppDatabase
    let hub: StreamHub
    let manager: RecordingManager
    let root: String
    let logs: LogLines

    static func make(root: String, segmentSeconds: Double, retryAfter: Duration = .seconds(2)) async throws -> RecordingRig {
        let logs = LogLines()
        let database = try AppDatabase.inMemory()
        let hub = StreamHub(configuration: .init(gracePeriod: .milliseconds(200)), logger: logs.logger)
        let manager = RecordingManager(
            configuration: .init(root: root, segmentSeconds: segmentSeconds, evaluateEvery: .milliseconds(500),
                                 retentionEvery: .seconds(5), retryAfter: retryAfter),
            repository: database, cameras: database, hub: hub, logger: logs.logger)
        try await manager.start()
        return RecordingRig(database: database, hub: hub, manager: manager, root: root, logs: logs)
    }

    /// Adds a camera on `url` to the registry and the hub (main stream with audio).
    func addCamera(name: String, url: String) async throws -> UUID {
        let camera = try await database.insert(Camera(name: name, rtspURL: url))
        let upstream = RTSPUpstream(url: try RTSPURL(string: url), configuration: RTSPClientConfiguration(includeAudio: true),
                                    reconnect: ReconnectPolicy(initialDelay: .milliseconds(500), maximumDelay: .seconds(2)),
                                    logger: logs.logger)
        await hub.register(cameraID: camera.id, upstreams: [.main: upstream], isActive: true)
        return camera.id
    }

    func record(_ id: UUID) async throws {
        try await manager.update(RecordingSettings(cameraID: id, mode: .continuous))
    }

    func segments(_ id: UUID) async throws -> [Segment] {
        try await database.segments(cameraID: id, from: .distantPast, to: .distantFuture).map(\.segment)
    }

    func path(_ segment: Segment) -> String { (root as NSString).appendingPathComponent(segment.path) }

    /// Waits until `condition` holds, checking every 200 ms, for at most `seconds`.
    static func wait(_ seconds: Double, _ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(200))
        }
        return try await condition()
    }

    func shutdown() async {
        await manager.shutdown()
        await hub.shutdown()
    }
}
