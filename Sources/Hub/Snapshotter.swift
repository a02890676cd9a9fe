import Dispatch
import Foundation
import H26x
import NIOConcurrencyHelpers
import NIOCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a snapshot could not be made, as a sentence a person can act on.
public struct SnapshotError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// No ffmpeg executable at the configured path or on `PATH`, or it could not be started.
        case ffmpegMissing
        /// ffmpeg ran but produced no JPEG from the keyframe.
        case decodeFailed
        /// ffmpeg did not finish within the timeout and was killed.
        case timedOut
    }

    public var kind: Kind
    public var description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}

/// Turns one keyframe into a JPEG by running ffmpeg as a subprocess (no shell): the Annex B access
/// unit goes to its standard input, the JPEG comes from its standard output.
///
/// The keyframe is written on a thread of its own while standard output and standard error are read
/// (a keyframe is larger than a pipe buffer, and ffmpeg may stop reading early on bad input); a
/// watchdog kills ffmpeg with SIGKILL when `timeout` passes. A snapshot in progress is not stopped by
/// task cancellation: it ends when ffmpeg does, or at the timeout.
public struct Snapshotter: Sendable {
    /// What the caller configured: a path, a bare command name looked up on `PATH`, or nil for "ffmpeg" on `PATH`.
    public let ffmpegPath: String?
    public let timeout: Duration

    /// - Parameters:
    ///   - ffmpegPath: the ffmpeg executable; a name without "/" is looked up on `PATH`; nil looks up "ffmpeg".
    ///   - timeout: how long one snapshot may take before ffmpeg is killed.
    public init(ffmpegPath: String? = nil, timeout: Duration = .seconds(10)) {
        self.ffmpegPath = ffmpegPath
        self.timeout = timeout
    }

    /// True when the ffmpeg executable is found and executable.
    public var isAvailable: Bool { executable != nil }

    /// The resolved path of the ffmpeg executable, nil when it is not found.
    public var executable: String? {
        let requested = ffmpegPath ?? "ffmpeg"
        if requested.contains("/") {
            return Self.isExecutableFile(requested) ? requested : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = directory.hasSuffix("/") ? "\(directory)\(requested)" : "\(directory)/\(requested)"
            if Self.isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// Decodes one keyframe to a JPEG no wider than `maxWidth` (aspect ratio kept, even height), at
    /// quality `-q:v 4`.
    ///
    /// - Parameters:
    ///   - keyframe: the keyframe access unit; without an SPS of its own, the parameter sets of `format`
    ///     are written before it (`AccessUnit.annexB(parameterSets:)`).
    ///   - format: the stream's format (codec and parameter sets).
    ///   - maxWidth: the widest JPEG wanted; pictures already narrower are not enlarged. At least 16.
    /// - Returns: the JPEG file (FF D8 ... FF D9).
    public func jpeg(keyframe: AccessUnit, format: VideoFormat, maxWidth: Int = 1280) async throws(SnapshotError) -> Data {
        guard let executable else { throw missingError() }
        let input = keyframe.annexB(parameterSets: format.parameterSets)
        let bytes = input.getBytes(at: input.readerIndex, length: input.readableBytes) ?? []
        let codecName = keyframe.codec == .h264 ? "H.264" : "H.265"
        let arguments = Self.arguments(codec: keyframe.codec, maxWidth: maxWidth)
        let timeout = self.timeout
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<SubprocessOutcome, Never>) in
            let thread = Thread {
                continuation.resume(returning: Self.runSubprocess(executable: executable, arguments: arguments,
                                                                  input: bytes, timeout: timeout))
            }
            thread.name = "watchbox.snapshot"
            thread.start()
        }
        let picture = "the \(format.width)x\(format.height) \(codecName) keyframe"
        switch outcome {
        case .launchFailed(let reason):
            throw SnapshotError(.ffmpegMissing, "snapshots need ffmpeg, but \(executable) could not be started (\(reason)): "
                + "install it (apt-get install ffmpeg) or pass --ffmpeg PATH")
        case .timedOut:
            throw SnapshotError(.timedOut, "ffmpeg did not decode \(picture) within \(Self.format(timeout)) and was stopped: "
                + "the machine may be overloaded; try again, or allow snapshots more time")
        case .exited(let status, let output, let errors):
            if status == 0, Self.looksLikeJPEG(output) { return output }
            let summary = Self.summarize(errors)
            let detail = summary.isEmpty ? "" : ": ffmpeg said \"\(summary)\""
            let outcome = status == 0 ? "produced no picture" : "failed (exit status \(status))"
            throw SnapshotError(.decodeFailed, "ffmpeg \(outcome) decoding \(picture)\(detail); "
                + "the stream may be damaged (wait for the next keyframe) or use a profile this ffmpeg cannot decode")
        case .signalled(let signal, let errors):
            let summary = Self.summarize(errors)
            let detail = summary.isEmpty ? "" : ": ffmpeg said \"\(summary)\""
            throw SnapshotError(.decodeFailed, "ffmpeg was ended by signal \(signal) while decoding \(picture)\(detail); "
                + "check that the ffmpeg installation works (ffmpeg -version)")
        }
    }

    /// The ffmpeg command line: raw Annex B from standard input, one frame out as MJPEG to standard output.
    static func arguments(codec: VideoCodec, maxWidth: Int) -> [String] {
        let width = max(16, maxWidth)
        return [
            "-hide_banner", "-nostats", "-loglevel", "error",
            // One decoding thread: a single picture gains little from more, and the live streams keep the cores.
            "-threads", "1",
            "-f", codec == .h264 ? "h264" : "hevc", "-i", "pipe:0",
            "-frames:v", "1", "-an",
            "-vf", "scale=w='min(iw,\(width))':h=-2",
            "-c:v", "mjpeg", "-q:v", "4",
            "-f", "image2pipe", "pipe:1",
        ]
    }

    private func missingError() -> SnapshotError {
        if let ffmpegPath, ffmpegPath.contains("/") {
            return SnapshotError(.ffmpegMissing, "snapshots need ffmpeg, but \(ffmpegPath) is not an executable file: "
                + "install it (apt-get install ffmpeg) or pass --ffmpeg PATH with the right path")
        }
        let name = ffmpegPath ?? "ffmpeg"
        return SnapshotError(.ffmpegMissing, "snapshots need ffmpeg (no \"\(name)\" on PATH): "
            + "install it (apt-get install ffmpeg) or pass --ffmpeg PATH")
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { return false }
        return FileManager.default.isExecutableFile(atPath: path)
    }

    /// JPEG (ITU-T T.81 Annex B): SOI FF D8 first, EOI FF D9 last.
    static func looksLikeJPEG(_ data: Data) -> Bool {
        data.count >= 4 && data.prefix(2).elementsEqual([0xFF, 0xD8]) && data.suffix(2).elementsEqual([0xFF, 0xD9])
    }

    /// The last few non-empty lines of ffmpeg's standard error, without the "[h264 @ 0x55d0c0]" context
    /// prefixes, at most 300 characters.
    static func summarize(_ errors: Data) -> String {
        let text = String(decoding: errors, as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline)
            .map { line -> String in
                var line = Substring(line)
                if line.hasPrefix("["), let end = line.range(of: "] "), line[..<end.lowerBound].contains(" @ 0x") {
                    line = line[end.upperBound...]
                }
                return line.trimmingCharacters(in: .whitespaces)
            }
            .filter { !$0.isEmpty }
        var summary = lines.suffix(3).joined(separator: " / ")
        if summary.count > 300 { summary = "…" + summary.suffix(299) }
        return summary
    }

    private static func format(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }

    // MARK: - The subprocess

    enum SubprocessOutcome: Sendable {
        case launchFailed(String)
        case exited(status: Int32, output: Data, errors: Data)
        case signalled(Int32, errors: Data)
        case timedOut
    }

    /// Runs `executable` with `input` on standard input, collecting standard output and error; blocks
    /// the calling thread (a dedicated one) until the process ends or is killed at the timeout.
    static func runSubprocess(executable: String, arguments: [String], input: [UInt8], timeout: Duration) -> SubprocessOutcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let standardInput = Pipe()
        let standardOutput = Pipe()
        let standardError = Pipe()
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        process.standardError = standardError
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            try process.run()
        } catch {
            return .launchFailed("\(error)")
        }

        // The watchdog: kill the process once the timeout passes, unless it already ended.
        let watch = NIOLockedValueBox((finished: false, timedOut: false))
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem {
            watch.withLockedValue { state in
                guard !state.finished else { return }
                state.timedOut = true
                kill(pid, SIGKILL)
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + dispatchInterval(timeout), execute: watchdog)

        let written = DispatchSemaphore(value: 0)
        let writer = Thread {
            writeIgnoringBrokenPipe(input, to: standardInput.fileHandleForWriting)
            written.signal()
        }
        writer.name = "watchbox.snapshot.stdin"
        writer.start()

        let errorsRead = DispatchSemaphore(value: 0)
        let errors = NIOLockedValueBox(Data())
        let errorReader = Thread {
            let data = (try? standardError.fileHandleForReading.readToEnd()) ?? nil
            errors.withLockedValue { $0 = data ?? Data() }
            errorsRead.signal()
        }
        errorReader.name = "watchbox.snapshot.stderr"
        errorReader.start()

        let output = ((try? standardOutput.fileHandleForReading.readToEnd()) ?? nil) ?? Data()
        errorsRead.wait()
        exited.wait()
        // With the process gone its end of the pipe is closed, so the writer fails at once if it is still writing.
        _ = written.wait(timeout: .now() + .seconds(2))
        let timedOut = watch.withLockedValue { state -> Bool in
            state.finished = true
            return state.timedOut
        }
        watchdog.cancel()
        try? standardOutput.fileHandleForReading.close()
        try? standardError.fileHandleForReading.close()

        if timedOut { return .timedOut }
        let collected = errors.withLockedValue { $0 }
        switch process.terminationReason {
        case .exit: return .exited(status: process.terminationStatus, output: output, errors: collected)
        case .uncaughtSignal: return .signalled(process.terminationStatus, errors: collected)
        @unknown default: return .exited(status: process.terminationStatus, output: output, errors: collected)
        }
    }

    /// Writes all of `bytes` and closes the pipe. SIGPIPE is blocked on this thread so that a process
    /// that exits without reading everything gives EPIPE here instead of killing the server.
    private static func writeIgnoringBrokenPipe(_ bytes: [UInt8], to handle: FileHandle) {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        try? handle.write(contentsOf: bytes)
        try? handle.close()
        // A SIGPIPE raised by the write is pending on this thread: take it before restoring the mask.
        var pending = sigset_t()
        sigpending(&pending)
        if sigismember(&pending, SIGPIPE) == 1 {
            var noWait = timespec(tv_sec: 0, tv_nsec: 0)
            _ = sigtimedwait(&blocked, nil, &noWait)
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }

    private static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !nanoseconds.overflow, nanoseconds.partialValue < Int64(Int.max / 2) else { return .never }
        return .nanoseconds(Int(max(0, nanoseconds.partialValue + attoseconds / 1_000_000_000)))
    }
}
