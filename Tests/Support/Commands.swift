import Foundation

/// Runs the `watchbox` executable built next to the test bundle.
public struct CommandResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

public func runCommand(_ executable: String, _ arguments: [String], timeout: Double = 60) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // A command that hangs is killed after `timeout` seconds (its output so far is still returned).
    let watchdog = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    defer { watchdog.cancel() }
    // Read both pipes concurrently so neither fills up.
    let outData = LockedData()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async { outData.set(out.fileHandleForReading.readDataToEndOfFile()); group.leave() }
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return CommandResult(status: process.terminationStatus,
                         stdout: String(decoding: outData.get(), as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self))
}

final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.lock(); data = value; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}

public var watchboxExecutable: String {
    let directory = Bundle.main.bundleURL.deletingLastPathComponent()
    for candidate in [directory.appendingPathComponent("watchbox"), directory.deletingLastPathComponent().appendingPathComponent("watchbox")]
    where FileManager.default.isExecutableFile(atPath: candidate.path) {
        return candidate.path
    }
    return PeerRTSPServer.repositoryRoot.appendingPathComponent(".build/debug/watchbox").path
}

/// What ffprobe says about a file: the judge of our MP4 output.
public struct FFProbeResult: Sendable {
    public struct Stream: Sendable {
        public var codec: String
        public var type: String
        public var width: Int?
        public var height: Int?
        public var frames: Int?
        public var duration: Double?
        public var startTime: Double?
        public var sampleRate: Int?
    }
    public var streams: [Stream]
    public var video: Stream? { streams.first { $0.type == "video" } }
    public var audio: Stream? { streams.first { $0.type == "audio" } }

    public static var isAvailable: Bool {
        ProcessInfo.processInfo.environment["CI"] == "true" || FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe")
    }

    public init(file: String) throws {
        let result = try runCommand("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-show_streams", "-of", "json", file])
        guard result.status == 0, let data = result.stdout.data(using: .utf8),
              let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let streams = json["streams"] as? [[String: Any]] else {
            throw PeerError(message: "ffprobe could not read \(file): \(result.stderr)")
        }
        self.streams = streams.map { s in
            Stream(codec: s["codec_name"] as? String ?? "?", type: s["codec_type"] as? String ?? "?",
                   width: s["width"] as? Int, height: s["height"] as? Int,
                   frames: (s["nb_read_frames"] as? String).flatMap(Int.init),
                   duration: (s["duration"] as? String).flatMap(Double.init),
                   startTime: (s["start_time"] as? String).flatMap(Double.init),
                   sampleRate: (s["sample_rate"] as? String).flatMap(Int.init))
        }
    }

    /// `ffmpeg -v error -i FILE -f null -`: decodes everything; what it prints are decode errors.
    public static func decodeErrors(_ file: String) throws -> String {
        let result = try runCommand("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", file, "-f", "null", "-"])
        return (result.stderr + (result.status == 0 ? "" : "exit \(result.status)")).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

public func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("watchbox-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Starts `watchbox` with SIGINT and SIGTERM unblocked, as a shell would (the test runner hands its
/// children a mask that blocks them), so the test can interrupt it like a user pressing Ctrl-C.
public func startWatchbox(_ arguments: [String]) throws -> (Process, Pipe, Pipe) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: PeerRTSPServer.python)
    process.arguments = ["-c", "import os, signal, sys; signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM}); os.execv(sys.argv[1], sys.argv[1:])",
                         watchboxExecutable] + arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    return (process, out, err)
}

