import AAC
import Foundation
import H26x
import Hub
import Logging
import NIOConcurrencyHelpers
import NIOCore
import RTSPClient
import Store

/// Records one camera: a ``StreamSink`` on its main stream that cuts the media into segment files of about
/// `segmentSeconds` (cut at the first keyframe after that length), indexes each closed segment, and keeps going
/// across disconnects (each reconnect starts a new segment at its first keyframe: gaps stay gaps).
///
/// `receive` only queues (the upstream's thread never waits on a disk); one task writes, in order.
public final class CameraRecorder: StreamSink, @unchecked Sendable {
    public enum Status: Sendable, Equatable {
        case waiting
        case recording
        case diskFull(String)
        case error(String)
    }

    public struct Configuration: Sendable {
        public var root: String
        public var segmentSeconds: Double
        public var fragmentSeconds: Double
        /// After a write failure (disk full…), the next attempt waits this long.
        public var retryAfter: Duration

        public init(root: String, segmentSeconds: Double = 60, fragmentSeconds: Double = 1, retryAfter: Duration = .seconds(5)) {
            self.root = root
            self.segmentSeconds = segmentSeconds
            self.fragmentSeconds = fragmentSeconds
            self.retryAfter = retryAfter
        }
    }

    private enum Item: Sendable {
        case event(StreamSinkEvent)
    }

    public let cameraID: UUID
    private let continuation: AsyncStream<Item>.Continuation
    private let task: NIOLockedValueBox<Task<Void, Never>?> = NIOLockedValueBox(nil)
    private let statusBox = NIOLockedValueBox<Status>(.waiting)
    private let openBox = NIOLockedValueBox<OpenSegment?>(nil)

    /// - Parameters:
    ///   - onSegment: a closed segment's row, after its file and directory are flushed; it inserts the row.
    ///   - onStatus: the status changed.
    public init(cameraID: UUID, configuration: Configuration, logger: Logger,
                onSegment: @escaping @Sendable (Segment) async -> Void,
                onStatus: @escaping @Sendable (Status) -> Void) {
        self.cameraID = cameraID
        let (stream, continuation) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: .unbounded)
        self.continuation = continuation
        var logger = logger
        logger[metadataKey: "camera"] = "\(cameraID)"
        let core = RecorderCore(cameraID: cameraID, configuration: configuration, logger: logger)
        let statusBox = self.statusBox
        let openBox = self.openBox
        core.onProgress = { progress in openBox.withLockedValue { $0 = progress } }
        let running = Task.detached {
            core.onStatus = { status in
                let changed = statusBox.withLockedValue { old -> Bool in
                    defer { old = status }
                    return old != status
                }
                if changed { onStatus(status) }
            }
            for await item in stream {
                switch item {
                case .event(let event):
                    if let segment = core.handle(event) { await Self.indexed(segment, onSegment, openBox) }
                }
            }
            if let segment = core.close(reason: "recording stopped") { await Self.indexed(segment, onSegment, openBox) }
        }
        task.withLockedValue { $0 = running }
    }

    public var status: Status { statusBox.withLockedValue { $0 } }

    /// Indexes a closed segment, then stops listing it as open (so it is never missing from both lists).
    private static func indexed(_ segment: Segment, _ onSegment: @Sendable (Segment) async -> Void,
                                _ openBox: NIOLockedValueBox<OpenSegment?>) async {
        await onSegment(segment)
        openBox.withLockedValue { open in
            if open?.relativePath == segment.path { open = nil }
        }
    }

    /// The segment being written, as far as it is on disk; nil between segments.
    public var openSegment: OpenSegment? { openBox.withLockedValue { $0 } }

    public func receive(_ event: StreamSinkEvent) {
        continuation.yield(.event(event))
    }

    /// Closes the current segment (indexing it) and ends the recorder.
    public func stop() async {
        continuation.finish()
        await task.withLockedValue { $0 }?.value
    }
}

/// The recorder's state, used by its one task only.
final class RecorderCore {
    let cameraID: UUID
    let configuration: CameraRecorder.Configuration
    let logger: Logger
    var onStatus: (@Sendable (CameraRecorder.Status) -> Void)?
    /// The open segment after each fragment written, nil when it closes.
    var onProgress: (@Sendable (OpenSegment?) -> Void)?
    private var videoFormat: VideoFormat?
    private var audioFormat: AudioFormat?
    private var audioClockRate: Int?
    private var writer: SegmentWriter?
    /// Stream time → wall clock for the current session: (timestamp, wall time, clock rate).
    private var anchor: (timestamp: Int64, wall: Date, clockRate: Int)?
    private var retryAt: ContinuousClock.Instant?
    private var failed: CameraRecorder.Status?

    init(cameraID: UUID, configuration: CameraRecorder.Configuration, logger: Logger) {
        self.cameraID = cameraID
        self.configuration = configuration
        self.logger = logger
    }

    /// Handles one event; returns a segment closed by it.
    func handle(_ event: StreamSinkEvent) -> Segment? {
        switch event {
        case .interrupted:
            anchor = nil
            let closed = close(reason: "the camera's stream was interrupted")
            if failed == nil { onStatus?(.waiting) }
            return closed
        case .media(.formatChanged(let format)):
            let previous = videoFormat
            videoFormat = format
            if let writer, let previous, !Self.sameShape(previous, format) || writer.format.decoderConfigurationRecord != format.decoderConfigurationRecord {
                logger.notice("the stream's format changed (\(previous.width)x\(previous.height) → \(format.width)x\(format.height)): the segment ends here")
                return close(reason: "format change")
            }
            return nil
        case .media(.audioFormat(let format, _, let clockRate)):
            if format.codec == .aac, format.config != nil {
                audioFormat = format
                audioClockRate = clockRate
            }
            return nil
        case .media(.audio(let sample)):
            guard let writer else { return nil }
            do { try writer.appendAudio(sample) } catch { return writeFailed(error) }
            return nil
        case .media(.video(let frame)):
            return video(frame)
        }
    }

    private func video(_ frame: MediaFrame) -> Segment? {
        var closed: Segment?
        if let writer, frame.isKeyframe, writer.elapsed(frame) >= configuration.segmentSeconds - 1e-6 {
            closed = close(reason: nil)
        }
        if writer == nil {
            guard frame.isKeyframe, let format = videoFormat else { return closed }
            if let retryAt, ContinuousClock.now < retryAt { return closed }
            retryAt = nil
            let start = wallClock(frame)
            do {
                writer = try SegmentWriter(root: configuration.root, cameraID: cameraID, start: start, format: format,
                                           audio: audioFormat, audioClockRate: audioClockRate,
                                           fragmentSeconds: configuration.fragmentSeconds, firstFrame: frame)
            } catch {
                _ = writeFailed(error)
                return closed
            }
        }
        guard let writer else { return closed }
        let before = writer.fragments
        do { try writer.appendVideo(frame) } catch { return writeFailed(error) ?? closed }
        if writer.fragments > before { onProgress?(writer.progress) }
        if writer.fragments > before, failed != nil || before == 0 {
            if failed != nil { logger.notice("recording resumed", metadata: ["file": "\(writer.relativePath)"]) }
            failed = nil
            onStatus?(.recording)
        }
        return closed
    }

    /// The wall clock of a frame: the session's anchor (set at its first frame, from the camera's RTCP sender
    /// report when it agrees with the hub's clock within 5 s, else from the hub's clock at arrival) moved by the
    /// stream's own timestamps.
    private func wallClock(_ frame: MediaFrame) -> Date {
        if let anchor, anchor.clockRate == frame.clockRate {
            return anchor.wall.addingTimeInterval(Double(frame.timestamp - anchor.timestamp) / Double(frame.clockRate))
        }
        let sinceArrival = Double((NIODeadline.now() - frame.receivedAt).nanoseconds) / 1e9
        var wall = Date().addingTimeInterval(-max(0, sinceArrival))
        if let report = frame.senderReportClock {
            if abs(report.timeIntervalSince(wall)) < 5 {
                wall = report
            } else {
                logger.warning("the camera's clock is \(Int(report.timeIntervalSince(wall))) s off the hub's: recording uses the hub's clock; set the camera's time (NTP)")
            }
        }
        anchor = (frame.timestamp, wall, frame.clockRate)
        return wall
    }

    /// A write failed: keep what is on disk (the writer rolled the failed fragment back), index it, wait, retry.
    private func writeFailed(_ error: RecordingWriteError) -> Segment? {
        var closed: Segment?
        if let writer {
            let result = writer.finish(flushing: false)
            closed = result.segment
            self.writer = nil
            if closed == nil { onProgress?(nil) }
        }
        retryAt = ContinuousClock.now + configuration.retryAfter
        let status: CameraRecorder.Status
        if error.kind == .diskFull {
            status = .diskFull("disk full: recordings stopped; free space or lower the retention (\(error.description))")
        } else {
            status = .error("\(error.description) (retrying every \(Int(configuration.retryAfter / .seconds(1))) s)")
        }
        if failed != status { logger.error("recording stopped: \(error.description)") }
        failed = status
        onStatus?(status)
        return closed
    }

    /// Ends the current segment at its last frame; returns its row (nil when nothing was written).
    func close(reason: String?) -> Segment? {
        guard let writer else { return nil }
        self.writer = nil
        let result = writer.finish()
        // A closed segment stays listed as open until its row is in (the recorder's loop clears it).
        if result.segment == nil { onProgress?(nil) } else if let progress = writer.progress { onProgress?(progress) }
        if let error = result.error {
            logger.error("closing \(writer.relativePath): \(error.description)")
            if error.kind == .diskFull {
                retryAt = ContinuousClock.now + configuration.retryAfter
                failed = .diskFull("disk full: recordings stopped; free space or lower the retention (\(error.description))")
                onStatus?(failed!)
            }
        }
        if let reason, result.segment != nil {
            logger.info("segment closed: \(reason)", metadata: ["file": "\(writer.relativePath)"])
        }
        return result.segment
    }

    static func sameShape(_ a: VideoFormat, _ b: VideoFormat) -> Bool {
        a.codec == b.codec && a.width == b.width && a.height == b.height
    }
}
