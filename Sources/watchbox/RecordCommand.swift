import AAC
import ArgumentParser
import Dispatch
import Foundation
import Hub
import Logging
import NIOConcurrencyHelpers
import NIOCore
import RTSPClient
import RTSPCore

/// `watchbox record`: a camera's stream into a fragmented MP4 file, without transcoding.
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a camera's stream (H.264/H.265 video, AAC audio) to a fragmented MP4 file.",
        discussion: """
        Starts at the first keyframe and stops after --duration seconds of video (on the stream's own clock) or on Ctrl-C; the file is valid at every moment
        (whole fragments only), so an interruption or a full disk loses nothing already written. If the camera
        changes resolution mid-recording, the recording continues in FILE-2.mp4, FILE-3.mp4…
        Exit status: 0 when the recording ran to its end or was interrupted, 1 when the camera could not be
        played or the file could not be written (the reason is on stderr), 2 for bad options.
        """
    )

    @Argument(help: "The stream URL: rtsp://[user:password@]host[:port]/path or rtsps://…")
    var url: String

    @Option(help: "Seconds to record.")
    var duration: Double

    @Option(name: .shortAndLong, help: "The MP4 file to write.")
    var output: String

    @Option(help: "RTP transport: tcp (interleaved) or udp.")
    var transport: RTSPClientConfiguration.Transport = .tcp

    @Option(help: "Username (overrides one in the URL).")
    var username: String?

    @Option(help: "Password (overrides one in the URL).")
    var password: String?

    @Option(help: "Seconds per fragment (a fragment is cut at the first keyframe after this).")
    var fragmentSeconds: Double = 2

    @Flag(help: "Record video only, even when the camera sends AAC audio.")
    var noAudio = false

    @Flag(help: "rtsps:// only: accept a self-signed or otherwise unverifiable certificate.")
    var insecure = false

    @Flag(help: "Print the summary as one JSON object.")
    var json = false

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        logging.bootstrap()
        var target: RTSPURL
        do { target = try RTSPURL(string: url) } catch { Self.fail("\(error)", code: 2) }
        if username != nil || password != nil {
            target = target.withCredentials(RTSPCredentials(username: username ?? target.username ?? "",
                                                            password: password ?? target.password ?? ""))
        }
        guard duration > 0, duration <= 7 * 24 * 3600 else { Self.fail("--duration must be between 0 and 604800 seconds", code: 2) }
        guard fragmentSeconds > 0, fragmentSeconds <= 60 else { Self.fail("--fragment-seconds must be between 0 and 60", code: 2) }
        do { try StreamRecorder.checkWritable(path: output) } catch { Self.fail(error.description) }
        // A file size limit (ulimit -f) should be an error we report, not a signal that kills us mid-write.
        signal(SIGXFSZ, SIG_IGN)

        let logger = Logger(label: "watchbox.record")
        let recorder = StreamRecorder(path: output, fragmentSeconds: fragmentSeconds, maxDuration: duration, logger: logger)
        let stopper = SessionStopper()
        recorder.onWriteFailure = { _ in stopper.stop(reason: .writeFailed) }
        recorder.onComplete = { stopper.stop(reason: .complete) }
        let interrupts = InterruptWatcher { stopper.stop(reason: .interrupted) }
        defer { interrupts.cancel() }

        let configuration = RTSPClientConfiguration(transport: transport, includeAudio: !noAudio,
                                                    allowSelfSignedCertificates: insecure)
        let session: RTSPSession
        do {
            session = try await RTSPSession.start(url: target, configuration: configuration, logger: logger) { event in
                recorder.handle(event)
            }
        } catch let error as RTSPClientError {
            Self.fail(error.message)
        }
        stopper.attach(session)
        if let info = await session.info {
            // An audio track we do not set up (G.711, Opus…) is named, not silently dropped.
            let setUp = Set(info.tracks.map(\.mediaIndex))
            for (index, media) in info.sessionDescription.media.enumerated()
            where media.type.lowercased() == "audio" && !setUp.contains(index) {
                let name = AudioCodec.displayName(encodingName: media.encodingName, payloadType: media.payloadType ?? 255)
                recorder.noteUnrecordedAudio("\(name): recognised, not recorded yet (WatchBox muxes AAC audio only)")
                break
            }
        }
        if !json {
            FileHandle.standardError.write(Data("recording \(target.redacted) to \(output) for \(String(format: "%g", duration)) s (Ctrl-C stops early)\n".utf8))
        }
        // The length is counted on the stream's clock from the first keyframe; allow the wait for that
        // keyframe and a camera whose clock runs a little slow before giving up on wall-clock time.
        let died = await session.play(for: .milliseconds(Int64((duration * 1.1 + 15) * 1000)))
        let stopReason = stopper.reason
        await session.stop()
        let summary = recorder.finish()

        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(summary), as: UTF8.self))
        } else {
            print(Self.describe(summary))
        }
        if let error = summary.writeError { Self.fail(error) }
        if stopReason == nil, let died {
            if summary.videoFrames == 0 { Self.fail(died.message) }
            Self.fail("the stream ended early: \(died.message)")
        }
        if summary.videoFrames == 0 {
            Self.fail("no keyframe arrived from \(target.redacted) in \(String(format: "%.0f", duration * 1.1 + 15)) s, so nothing was recorded: check the camera's keyframe (I-frame) interval setting")
        }
    }

    static func describe(_ summary: RecordingSummary) -> String {
        var lines: [String] = []
        let files = summary.files.isEmpty ? "(none)" : summary.files.joined(separator: ", ")
        lines.append("wrote:      \(files)")
        if let codec = summary.videoCodec, let width = summary.width, let height = summary.height {
            lines.append("video:      \(codec.uppercased()) \(width)x\(height), \(summary.videoFrames) frames (\(summary.keyframes) keyframes)")
        }
        lines.append("audio:      " + (summary.audioCodec.map { "\($0.uppercased()), \(summary.audioFrames) frames" }
            ?? summary.unrecordedAudio ?? "none"))
        lines.append("duration:   \(String(format: "%.2f", summary.durationSeconds)) s in \(summary.fragments) fragments")
        lines.append("size:       \(summary.bytes) bytes")
        if summary.skippedBeforeKeyframe > 0 {
            lines.append("skipped:    \(summary.skippedBeforeKeyframe) frames before the first keyframe")
        }
        return lines.joined(separator: "\n")
    }
}

/// Why a recording stopped before its duration.
enum StopReason: Sendable { case complete, interrupted, writeFailed }

/// Stops the session from a signal handler or the event loop, once.
final class SessionStopper: Sendable {
    private let state = NIOLockedValueBox<(session: RTSPSession?, reason: StopReason?)>((nil, nil))

    var reason: StopReason? { state.withLockedValue { $0.reason } }

    func attach(_ session: RTSPSession) {
        let stopNow = state.withLockedValue { state -> Bool in
            state.session = session
            return state.reason != nil
        }
        if stopNow { Task { await session.stop() } }
    }

    func stop(reason: StopReason) {
        let session = state.withLockedValue { state -> RTSPSession? in
            guard state.reason == nil else { return nil }
            state.reason = reason
            return state.session
        }
        if let session { Task { await session.stop() } }
    }
}

/// SIGINT and SIGTERM as a callback (the default action would kill us before the last fragment is written).
final class InterruptWatcher: @unchecked Sendable {
    /// Written once in init; `cancel()` only calls the sources' thread-safe `cancel()`.
    private let sources: [any DispatchSourceSignal]

    init(_ onSignal: @escaping @Sendable () -> Void) {
        var sources: [any DispatchSourceSignal] = []
        // A parent may have handed us a mask that blocks these (some test runners do): unblock them here.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                FileHandle.standardError.write(Data("stopping: finishing the last fragment\n".utf8))
                onSignal()
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
