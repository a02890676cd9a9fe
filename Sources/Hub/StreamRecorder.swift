import AAC
import Foundation
import H26x
import Logging
import MP4
import NIOConcurrencyHelpers
import NIOCore
import RTSPClient

/// What a recording wrote: everything counts what is on disk, in whole fragments.
public struct RecordingSummary: Sendable, Codable, Equatable {
    public var files: [String]
    public var videoFrames: Int
    public var keyframes: Int
    public var audioFrames: Int
    public var fragments: Int
    public var bytes: Int64
    /// Seconds of video in the file(s), from the stream's own clock.
    public var durationSeconds: Double
    public var videoCodec: String?
    public var width: Int?
    public var height: Int?
    public var audioCodec: String?
    /// An audio track the camera sends that is not in the file (G.711, Opus…), in words.
    public var unrecordedAudio: String?
    /// The MIME type with RFC 6381 codecs, for `MediaSource.isTypeSupported`.
    public var mimeType: String?
    /// Frames received before the first keyframe (a recording starts at a keyframe).
    public var skippedBeforeKeyframe: Int
    /// Set when writing stopped early (disk full, file size limit); the files are still valid.
    public var writeError: String?
}

/// Records one camera's media events into fragmented MP4 files: starts at the first keyframe,
/// muxes video (and AAC audio, lined up by the camera's RTCP clock), cuts a fragment every
/// `fragmentSeconds`, and writes whole fragments only, so a crash, a Ctrl-C or a full disk always
/// leaves a file that plays. A change of resolution mid-stream starts a new file (`name-2.mp4`, …):
/// players handle one format per file.
///
/// ``handle(_:)`` is called from the session's event loop; ``finish()`` from anywhere, once.
public final class StreamRecorder: @unchecked Sendable {
    private struct State {
        var writer: FragmentFileWriter?
        var muxer: FragmentedMP4Muxer?
        var videoFormat: VideoFormat?
        var audioFormat: AudioFormat?
        var audioClockRate: Int?
        var ignoredAudio: AudioCodec?
        /// The first keyframe's timestamp and capture times: time zero of the current file.
        var origin: (timestamp: Int64, senderReport: Date?, received: NIODeadline)?
        var audioOriginSet = false
        var summary = RecordingSummary(files: [], videoFrames: 0, keyframes: 0, audioFrames: 0, fragments: 0, bytes: 0,
                                       durationSeconds: 0, skippedBeforeKeyframe: 0)
        var finishedDuration = 0.0
        var finished = false
        /// Whether each video frame handed to the muxer and not yet written was a keyframe, in order.
        var pendingKeyframes: [Bool] = []
        /// Video recorded so far in earlier files, in seconds of stream time, and whether the length is reached.
        var recordedBefore = 0.0
        var complete = false
    }

    private let basePath: String
    private let fragmentSeconds: Double
    private let maxDuration: Double?
    private let logger: Logger
    private let state = NIOLockedValueBox(State())
    /// Called once, from the event loop, when writing fails (disk full…): the caller should stop the session.
    public var onWriteFailure: (@Sendable (RecordingWriteError) -> Void)?
    /// Called once when `maxDuration` seconds of video are recorded: the caller should stop the session.
    public var onComplete: (@Sendable () -> Void)?

    /// - Parameters:
    ///   - path: the file to write (created when the first keyframe arrives; truncated if it exists).
    ///   - fragmentSeconds: a fragment is cut at the first keyframe at least this long after the last cut.
    ///   - maxDuration: seconds of video to record, counted on the stream's own clock from the first
    ///     keyframe (so an encoder's start-up burst or a slow first keyframe does not change the length).
    public init(path: String, fragmentSeconds: Double = 2, maxDuration: Double? = nil,
                logger: Logger = Logger(label: "watchbox.record")) {
        self.basePath = path
        self.fragmentSeconds = fragmentSeconds
        self.maxDuration = maxDuration
        self.logger = logger
    }

    /// Checks up front that the output can be created, so a bad path fails before any network work.
    public static func checkWritable(path: String) throws(RecordingWriteError) {
        let existed = FileManager.default.fileExists(atPath: path)
        let writer = try FragmentFileWriter(path: path)
        try writer.close()
        if !existed { try? FileManager.default.removeItem(atPath: path) }
    }

    public func handle(_ event: RTSPMediaEvent) {
        var failure: RecordingWriteError?
        var completed = false
        state.withLockedValue { state in
            guard !state.finished, !state.complete, state.summary.writeError == nil else { return }
            defer { completed = state.complete }
            do {
                switch event {
                case .formatChanged(let format):
                    try formatChanged(format, &state)
                case .video(let frame):
                    try video(frame, &state)
                case .audioFormat(let format, _, let clockRate):
                    if format.codec == .aac, format.config != nil {
                        state.audioFormat = format
                        state.audioClockRate = clockRate
                        state.summary.audioCodec = "aac"
                    } else {
                        state.ignoredAudio = format.codec
                    }
                case .audio(let sample):
                    try audio(sample, &state)
                }
            } catch let error as RecordingWriteError {
                state.summary.writeError = error.description
                failure = error
            } catch {
                logger.error("recording: \(error)")
            }
        }
        if let failure { onWriteFailure?(failure) }
        if completed { onComplete?() }
    }

    /// Writes what the muxer still holds and closes the file. The summary says what is on disk.
    @discardableResult
    public func finish() -> RecordingSummary {
        state.withLockedValue { state in
            if !state.finished {
                state.finished = true
                do { try closeFile(&state) } catch {
                    state.summary.writeError = state.summary.writeError ?? "\(error)"
                }
            }
            return state.summary
        }
    }

    public var summary: RecordingSummary { state.withLockedValue { $0.summary } }

    /// Says which audio track of the session is left out of the recording (its codec is not muxed yet).
    public func noteUnrecordedAudio(_ description: String) {
        state.withLockedValue { $0.summary.unrecordedAudio = description }
    }

    // MARK: - Events

    private func formatChanged(_ format: VideoFormat, _ state: inout State) throws {
        let previous = state.videoFormat
        state.videoFormat = format
        guard state.muxer != nil, let previous else { return }
        let sameShape = previous.codec == format.codec && previous.width == format.width && previous.height == format.height
            && previous.decoderConfigurationRecord == format.decoderConfigurationRecord
        if sameShape { return }
        // New parameter sets: this file ends here; the next keyframe opens the next file.
        logger.notice("the stream's format changed (\(previous.width)x\(previous.height) → \(format.width)x\(format.height)); continuing in a new file")
        try closeFile(&state)
    }

    private func video(_ frame: MediaFrame, _ state: inout State) throws {
        if state.muxer == nil {
            guard frame.isKeyframe, let format = state.videoFormat else {
                if state.summary.files.isEmpty { state.summary.skippedBeforeKeyframe += 1 }
                return
            }
            try openFile(format: format, at: frame, &state)
        }
        // The muxer is used in place (`state.muxer!`): a local copy would copy its buffers on write, every frame.
        guard state.muxer != nil, let origin = state.origin else { return }
        if let maxDuration {
            let elapsed = state.recordedBefore + Double(frame.timestamp - origin.timestamp) / Double(frame.clockRate)
            if elapsed >= maxDuration - 1e-6 {
                state.complete = true
                return
            }
        }
        state.pendingKeyframes.append(frame.isKeyframe)
        let skippedBefore = state.muxer!.statistics.skippedEmptyUnits
        let outputs = state.muxer!.appendVideo(frame.accessUnit, timestamp: frame.timestamp)
        // A unit with nothing left to store (only a delimiter and repeated parameter sets) is not a sample.
        if state.muxer!.statistics.skippedEmptyUnits > skippedBefore { state.pendingKeyframes.removeLast() }
        try write(outputs, &state)
    }

    private func audio(_ sample: AudioSample, _ state: inout State) throws {
        guard state.muxer != nil, state.audioFormat != nil, let origin = state.origin else { return }
        if !state.audioOriginSet {
            // Time zero of the audio track: the audio timestamp captured at the same moment as the first
            // keyframe. The camera's sender reports put both tracks on one clock; without them, arrival
            // times are the best guess.
            let offsetSeconds: Double
            if let audioClock = sample.senderReportClock, let videoClock = origin.senderReport {
                offsetSeconds = audioClock.timeIntervalSince(videoClock)
            } else {
                offsetSeconds = Double((sample.receivedAt - origin.received).nanoseconds) / 1e9
            }
            let audioOrigin = sample.timestamp - Int64((offsetSeconds * Double(sample.clockRate)).rounded())
            state.muxer!.setAudioOrigin(audioOrigin)
            state.audioOriginSet = true
        }
        let outputs = state.muxer!.appendAudio(sample.data, timestamp: sample.timestamp)
        try write(outputs, &state)
    }

    // MARK: - Files

    private func openFile(format: VideoFormat, at frame: MediaFrame, _ state: inout State) throws {
        let path = Self.path(for: basePath, part: state.summary.files.count + 1)
        let writer = try FragmentFileWriter(path: path)
        let muxer = try FragmentedMP4Muxer(video: format, audio: state.audioFormat, audioClockRate: state.audioClockRate,
                                           policy: .duration(seconds: fragmentSeconds))
        state.writer = writer
        state.muxer = muxer
        state.origin = (frame.timestamp, frame.senderReportClock, frame.receivedAt)
        state.audioOriginSet = false
        state.summary.files.append(path)
        state.summary.videoCodec = format.codec.rawValue
        state.summary.width = format.width
        state.summary.height = format.height
        logger.info("recording started", metadata: ["file": "\(path)", "video": "\(format.codecString)",
                                                    "audio": "\(state.audioFormat?.codecString ?? "none")"])
    }

    private func closeFile(_ state: inout State) throws {
        defer {
            state.writer = nil
            state.muxer = nil
            state.origin = nil
        }
        guard var muxer = state.muxer else { return }
        let outputs = muxer.finish()
        state.muxer = muxer
        var writeFailure: Error?
        do { try write(outputs, &state) } catch { writeFailure = error }
        state.finishedDuration = state.summary.durationSeconds
        state.recordedBefore = state.summary.durationSeconds
        state.pendingKeyframes.removeAll()
        try state.writer?.close()
        if let writeFailure { throw writeFailure }
    }

    private func write(_ outputs: [FragmentedMP4Muxer.Output], _ state: inout State) throws {
        guard let writer = state.writer else { return }
        for output in outputs {
            switch output {
            case .initializationSegment(let bytes, let mimeType):
                try writer.append(bytes, isFragment: false)
                state.summary.mimeType = mimeType
            case .fragment(let bytes, let info):
                try writer.append(bytes)
                state.summary.fragments += 1
                state.summary.videoFrames += info.videoSamples
                state.summary.audioFrames += info.audioSamples
                let written = state.pendingKeyframes.prefix(info.videoSamples)
                state.summary.keyframes += written.filter { $0 }.count
                state.pendingKeyframes.removeFirst(written.count)
                state.summary.durationSeconds = state.finishedDuration + info.startTime + info.duration
            }
            state.summary.bytes = state.summary.files.dropLast().reduce(0) { $0 + Self.fileSize($1) } + writer.committedBytes
        }
    }

    /// `clip.mp4`, then `clip-2.mp4`, `clip-3.mp4` for later parts.
    static func path(for base: String, part: Int) -> String {
        guard part > 1 else { return base }
        let url = URL(fileURLWithPath: base)
        let ext = url.pathExtension
        let stem = url.deletingPathExtension().path
        return ext.isEmpty ? "\(stem)-\(part)" : "\(stem)-\(part).\(ext)"
    }

    private static func fileSize(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }
}
