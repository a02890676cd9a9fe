import Foundation

/// How `watchbox serve` runs.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Holds `watchbox.sqlite` and `secret.key`; created on first run.
    public var dataDirectory: URL
    /// At most this many camera streams pulled at once.
    public var maxStreams: Int
    /// An upstream keeps running this long after its last viewer leaves.
    public var gracePeriod: Duration
    /// Add the demo camera on start when the registry is empty.
    public var demo: Bool
    /// nil: look for `ffmpeg` on PATH.
    public var ffmpegPath: String?
    /// The web app's files; nil: the ones built into the binary.
    public var webRoot: String?
    /// Where recordings go; nil: `<data directory>/recordings`.
    public var recordingsDirectory: URL?
    /// Length of a recorded segment (cut at the first keyframe after it).
    public var segmentSeconds: Double = 60

    /// How often a camera nobody watches is checked (OPTIONS + DESCRIBE); nil: never (`watchbox serve`
    /// checks every 60 s by default; tests that register cameras at addresses they must not contact leave it off).
    public var healthInterval: Duration?
    /// A running stream not live for this long is reported failed.
    public var failAfter: Duration

    /// The recordings root in use.
    public var recordingsRoot: URL { recordingsDirectory ?? dataDirectory.appendingPathComponent("recordings") }
    /// Measure the live path and serve the figures at `GET /api/debug/hub` (for the benchmark suite).
    public var instrument: Bool
    /// Merged reads of the cameras' TCP streams: each read at most once per this interval (fewer wake-ups with
    /// many cameras, up to this much more delay); nil: read as data arrives.
    public var readInterval: Duration?

    public init(host: String = "127.0.0.1", port: Int = 8080, dataDirectory: URL, maxStreams: Int = 16,
                gracePeriod: Duration = .seconds(10), demo: Bool = false, ffmpegPath: String? = nil, webRoot: String? = nil,
                healthInterval: Duration? = nil, failAfter: Duration = .seconds(10), instrument: Bool = false) {
        self.instrument = instrument
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.maxStreams = maxStreams
        self.gracePeriod = gracePeriod
        self.demo = demo
        self.ffmpegPath = ffmpegPath
        self.webRoot = webRoot
        self.healthInterval = healthInterval
        self.failAfter = failAfter
    }

    /// `$XDG_DATA_HOME/watchbox`, else `~/.local/share/watchbox`.
    public static var defaultDataDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("watchbox")
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/watchbox")
    }
}
