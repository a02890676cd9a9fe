import ArgumentParser
import Foundation
import Hummingbird
import Logging
import Server

/// `watchbox serve`: the hub and its web app.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the WatchBox hub: camera registry, live streams and the web app.",
        discussion: """
        Open http://HOST:PORT in a browser. Data (the camera database and the key that encrypts camera passwords)
        lives in --data, created on first run. Set WATCHBOX_SECRET_KEY (base64 of 32 bytes) to keep the key
        out of the data directory. SIGTERM or Ctrl-C stops cleanly.
        """
    )

    @Option(help: "Address to listen on (0.0.0.0 for every interface).")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on.")
    var port = 8080

    @Option(help: "Data directory (default: $XDG_DATA_HOME/watchbox or ~/.local/share/watchbox).")
    var data: String?

    @Option(help: "At most this many camera streams pulled at once.")
    var maxStreams = 16

    @Option(help: "Seconds a stream keeps running after its last viewer leaves.")
    var grace: Double = 10

    @Option(help: "Seconds between checks (RTSP OPTIONS + DESCRIBE, no video) of each camera nobody is watching; 0 turns them off.")
    var healthInterval: Double = 60

    @Option(help: "Seconds a watched camera may be reconnecting before it is reported failed.")
    var failAfter: Double = 10

    @Flag(help: "Add a demo camera (a looping clip) when there is no camera yet.")
    var demo = false

    @Option(help: "The ffmpeg used for snapshots (default: ffmpeg on PATH).")
    var ffmpeg: String?

    @Option(help: "Serve the web app from this folder instead of the built-in copy (for UI development).")
    var webRoot: String?

    @Option(help: ArgumentHelp("Read each camera's TCP stream at most once per this many milliseconds (0: as data arrives).",
                               discussion: "Merged reads: with many cameras, far fewer wake-ups, for up to this much more delay."))
    var readIntervalMs: Int = 0

    @Option(help: "Folder for recordings (default: <data>/recordings).")
    var recordings: String?

    @Option(help: "Length of a recorded segment in seconds (cut at the next keyframe).")
    var segmentSeconds: Double = 60

    @Flag(help: "Measure the latency the hub adds to live video and serve it at GET /api/debug/hub (for benchmarks).")
    var instrument = false

    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel.lowercased()) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var logger = Logger(label: "watchbox")
        logger.logLevel = level
        guard (1...65535).contains(port) || port == 0 else { Self.fail("--port must be between 1 and 65535", code: 2) }
        guard maxStreams >= 1 else { Self.fail("--max-streams must be at least 1", code: 2) }
        guard grace >= 0 else { Self.fail("--grace must not be negative", code: 2) }
        guard segmentSeconds >= 2 && segmentSeconds <= 3600 else { Self.fail("--segment-seconds must be between 2 and 3600", code: 2) }
        guard healthInterval >= 0 else { Self.fail("--health-interval must not be negative (0 turns the checks off)", code: 2) }
        guard (0...1000).contains(readIntervalMs) else { Self.fail("--read-interval-ms must be between 0 and 1000", code: 2) }
        guard failAfter >= 0 else { Self.fail("--fail-after must not be negative", code: 2) }

        let directory = data.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath) }
            ?? ServerConfiguration.defaultDataDirectory
        var configuration = ServerConfiguration(
            host: host, port: port, dataDirectory: directory, maxStreams: maxStreams,
            gracePeriod: .milliseconds(Int64(grace * 1000)), demo: demo, ffmpegPath: ffmpeg, webRoot: webRoot,
            healthInterval: healthInterval > 0 ? .milliseconds(Int64(healthInterval * 1000)) : nil,
            failAfter: .milliseconds(Int64(failAfter * 1000)),
            instrument: instrument)
        configuration.recordingsDirectory = recordings.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath) }
        configuration.segmentSeconds = segmentSeconds
        configuration.readInterval = readIntervalMs > 0 ? .milliseconds(Int64(readIntervalMs)) : nil
        let server: WatchBoxServer
        do {
            server = try await WatchBoxServer.open(configuration: configuration, logger: logger)
        } catch {
            Self.fail("\(error)")
        }
        let host = self.host
        let app = server.application(logger: logger) { port in
            // One line a script can wait for.
            FileHandle.standardOutput.write(Data("WatchBox is listening on http://\(host):\(port) (data in \(directory.path))\n".utf8))
        }
        do {
            try await app.runService()
        } catch {
            let text = "\(error)"
            if text.contains("Address already in use") || text.contains("EADDRINUSE") {
                Self.fail("cannot listen on \(host):\(port): the port is in use by another program; stop it or pass --port")
            }
            if text.contains("Permission denied") || text.contains("EACCES") {
                Self.fail("cannot listen on \(host):\(port): permission denied; ports below 1024 need privileges, pass --port 8080")
            }
            Self.fail("the server stopped: \(text)")
        }
    }
}
