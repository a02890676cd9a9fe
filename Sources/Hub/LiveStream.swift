import DequeModule
import Foundation
import H26x
import Logging
import MP4
import NIOConcurrencyHelpers
import NIOCore
import RTSPClient
import RTSPCore

/// Which of a camera's streams: the main (full resolution) or the sub stream (for grid cells).
public enum StreamVariant: String, Codable, Sendable, Hashable, CaseIterable {
    case main, sub
}

/// One upstream of one camera, shared by all its viewers: runs the ``Upstream``, muxes each frame into
/// a live fMP4 fragment, keeps the current GOP for newcomers, fans out to the viewers' bounded queues,
/// and tracks the stream's health. Started and stopped by ``StreamHub``; media arrives on the upstream's
/// thread and is handled without waiting on anyone.
final class LiveStream: @unchecked Sendable {
    struct Key: Hashable, Sendable {
        var cameraID: UUID
        var variant: StreamVariant
    }

    let key: Key
    let upstream: any Upstream
    private let logger: Logger
    private let frozenAfter: Duration
    /// The largest GOP kept for newcomers; a longer one is dropped (new viewers then wait for a keyframe).
    private let maxGOPBytes: Int
    private let lock = NIOLock()
    /// Opt-in measurements (`serve --instrument`); nil: off.
    private let instrumentation: HubInstrumentation?
    /// How fragments are handed to viewers (and kept in the GOP cache).
    private let framing: LiveFragmentFraming

    // Everything below is guarded by `lock`.
    private var viewers: [UUID: Viewer] = [:] {
        // Every frame goes to all of them: kept as an array too (not rebuilt from the dictionary per frame).
        didSet { viewerList = Array(viewers.values) }
    }
    private var viewerList: [Viewer] = []
    /// Raw-media consumers (the recorder); each counts as demand.
    private var sinks: [UUID: any StreamSink] = [:]
    /// The latest audio format event, replayed to a sink that attaches to a running stream.
    private var audioFormatEvent: RTSPMediaEvent?
    private var holds = 0
    private var keyframeWaiters: [CheckedContinuation<(AccessUnit, VideoFormat)?, Never>] = []
    private var task: Task<Void, Never>?
    /// Where the upstream's connection runs: the loop of the viewer that (re)started it. nil: any.
    private var eventLoop: (any EventLoop)?
    private var format: VideoFormat?
    private var muxer: FragmentedMP4Muxer?
    private var initSegment: (bytes: ByteBuffer, mimeType: String)?
    private var gop: [ByteBuffer] = []
    private var gopBytes = 0
    private var needKeyframe = true
    private var latestKeyframe: (unit: AccessUnit, format: VideoFormat)?
    private var state: CameraState = .idle
    private var message: String?
    private var everLive = false
    private var lastFrameAt: Date?
    private var lastFrameInstant: ContinuousClock.Instant?
    /// The last 3 s of frames: arrival, stream time (seconds) and size, for the frame rate and bitrate.
    private var recent = Deque<(at: ContinuousClock.Instant, streamTime: Double, bytes: Int)>()
    /// The state and message last sent to the viewers (they get changes, not every new number).
    private var toldViewers: (state: CameraState, message: String?)?
    /// Told whenever the state (or, with `statsOnly`, only the numbers) changes; not under the lock.
    var onStatus: (@Sendable (Key, CameraStatus) -> Void)?
    /// Told when viewers or holds go from none to some, or back.
    var onDemandChanged: (@Sendable (Key) -> Void)?

    init(key: Key, upstream: any Upstream, frozenAfter: Duration = .seconds(5), maxGOPBytes: Int = 24 << 20,
         instrumentation: HubInstrumentation? = nil, framing: LiveFragmentFraming = .none, logger: Logger) {
        self.key = key
        self.framing = framing
        self.instrumentation = instrumentation
        self.upstream = upstream
        self.frozenAfter = frozenAfter
        self.maxGOPBytes = maxGOPBytes
        var logger = logger
        logger[metadataKey: "camera"] = "\(key.cameraID)"
        logger[metadataKey: "stream"] = "\(key.variant.rawValue)"
        self.logger = logger
    }

    // MARK: - Demand

    var hasDemand: Bool { lock.withLock { !viewers.isEmpty || holds > 0 || !sinks.isEmpty } }
    func hasSink(id: UUID) -> Bool { lock.withLock { sinks[id] != nil } }
    var isRunning: Bool { lock.withLock { task != nil } }
    var viewerCount: Int { lock.withLock { viewers.count } }
    var allViewers: [Viewer] { lock.withLock { viewerList } }

    /// A new viewer, primed with the init segment and the cached GOP when the stream is live. `eventLoop`:
    /// its connection's loop, where the upstream's connection goes too when this viewer starts it.
    func addViewer(maxFragments: Int = 75, eventLoop: (any EventLoop)? = nil) -> Viewer {
        let viewer = Viewer(cameraID: key.cameraID, variant: key.variant, maxFragments: maxFragments, eventLoop: eventLoop)
        viewer.onResume.withLockedValue { $0 = { [weak self] viewer in self?.prime(viewer) } }
        viewer.onClose.withLockedValue { $0 = { [weak self] viewer in self?.removeViewer(viewer.id) } }
        let (first, status) = lock.withLock { () -> (Bool, CameraStatus) in
            if task == nil, let eventLoop { self.eventLoop = eventLoop }
            viewers[viewer.id] = viewer
            return (viewers.count == 1 && holds == 0 && sinks.isEmpty, currentStatus())
        }
        viewer.push(.status(status))
        prime(viewer)
        if first { onDemandChanged?(key) }
        publish()
        return viewer
    }

    func removeViewer(_ id: UUID) {
        let last = lock.withLock { () -> Bool in
            guard viewers.removeValue(forKey: id) != nil else { return false }
            return viewers.isEmpty && holds == 0 && sinks.isEmpty
        }
        if last { onDemandChanged?(key) }
        publish()
    }

    /// Attaches a raw-media sink; a running stream first replays its current formats to it.
    func addSink(_ sink: any StreamSink, id: UUID) {
        let (first, replay) = lock.withLock { () -> (Bool, [RTSPMediaEvent]) in
            sinks[id] = sink
            var replay: [RTSPMediaEvent] = []
            if task != nil, let format { replay.append(.formatChanged(format)) }
            if task != nil, let audioFormatEvent { replay.append(audioFormatEvent) }
            return (sinks.count == 1 && viewers.isEmpty && holds == 0, replay)
        }
        for event in replay { sink.receive(.media(event)) }
        if first { onDemandChanged?(key) }
    }

    func removeSink(id: UUID) {
        let (removed, last) = lock.withLock { () -> ((any StreamSink)?, Bool) in
            guard let removed = sinks.removeValue(forKey: id) else { return (nil, false) }
            return (removed, sinks.isEmpty && viewers.isEmpty && holds == 0)
        }
        removed?.receive(.interrupted)
        if last { onDemandChanged?(key) }
    }

    /// Ends every viewer (the camera was removed or reconfigured, or the hub is shutting down).
    func closeAllViewers() {
        let all = lock.withLock { viewerList }
        for viewer in all { viewer.close() }
    }

    /// Sends the init segment and the GOP so far, as one consistent snapshot. With no GOP cached yet
    /// (just reconnected), the init segment alone: the viewer then starts at the next keyframe.
    private func prime(_ viewer: Viewer) {
        let wake = lock.withLock { () -> (any ViewerConsumer)? in
            guard let initSegment, let format else { return nil }
            var wake = viewer.enqueue(.initialization(segment: initSegment.bytes, mimeType: initSegment.mimeType, format: format),
                                      force: true)
            for (index, fragment) in gop.enumerated() {
                wake = viewer.enqueue(.fragment(fragment, isKeyframe: index == 0), force: true) ?? wake
            }
            return wake
        }
        // Outside the lock: a consumer on this thread's loop writes at once.
        if let wake { Viewer.scheduleDrains([wake]) }
    }

    /// The latest keyframe, starting the stream for it if needed; nil after `timeout`.
    func keyframe(timeout: Duration) async -> (AccessUnit, VideoFormat)? {
        if let cached = lock.withLock({ latestKeyframe }) { return (cached.unit, cached.format) }
        let first = lock.withLock { () -> Bool in
            holds += 1
            return holds == 1 && viewers.isEmpty && sinks.isEmpty
        }
        if first { onDemandChanged?(key) }
        defer {
            let last = lock.withLock { () -> Bool in
                holds -= 1
                return holds == 0 && viewers.isEmpty && sinks.isEmpty
            }
            if last { onDemandChanged?(key) }
        }
        return await withTaskGroup(of: (AccessUnit, VideoFormat)?.self) { group in
            group.addTask { [self] in
                await withCheckedContinuation { continuation in
                    let ready = lock.withLock { () -> (AccessUnit, VideoFormat)?? in
                        if let cached = latestKeyframe { return .some((cached.unit, cached.format)) }
                        keyframeWaiters.append(continuation)
                        return .none
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let result = await group.next() ?? nil
            if result == nil { self.releaseKeyframeWaiters() }
            group.cancelAll()
            // The waiter task may still be parked: wake it.
            self.releaseKeyframeWaiters()
            return result
        }
    }

    private func releaseKeyframeWaiters() {
        let waiters = lock.withLock { () -> [CheckedContinuation<(AccessUnit, VideoFormat)?, Never>] in
            defer { keyframeWaiters.removeAll() }
            return keyframeWaiters
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }

    // MARK: - Running

    func start() {
        lock.withLock {
            guard task == nil else { return }
            everLive = false
            needKeyframe = true
            setState(.connecting, nil)
            // The task holds the stream until ``stop()`` cancels it and waits for it.
            task = Task.detached { [upstream, eventLoop, self] in
                await upstream.run(on: eventLoop) { event in self.handle(event) }
            }
        }
        publish()
    }

    /// Stops the upstream (TEARDOWN) and waits until it is down.
    func stop(finalState: CameraState = .idle, message: String? = nil) async {
        let running = lock.withLock { () -> Task<Void, Never>? in
            defer { task = nil }
            return task
        }
        running?.cancel()
        await running?.value
        let toldSinks = lock.withLock { () -> [any StreamSink] in
            audioFormatEvent = nil
            return running == nil ? [] : Array(sinks.values)
        }
        for sink in toldSinks { sink.receive(.interrupted) }
        lock.withLock {
            // The next start is a new stream: a new muxer, whose first keyframe brings a new init segment.
            muxer = nil
            format = nil
            initSegment = nil
            gop.removeAll()
            gopBytes = 0
            latestKeyframe = nil
            recent.removeAll()
            _ = setState(finalState, message)
        }
        publish()
    }

    /// Marks a stream that wants to run but has no slot (`limitReached`), or any other state set from outside.
    func setExternalState(_ state: CameraState, message: String?) {
        lock.withLock { _ = setState(state, message) }
        publish()
    }

    /// Called every second by the hub: frozen detection and fresh numbers.
    func tick(now: ContinuousClock.Instant) {
        lock.withLock {
            if state == .live, let last = lastFrameInstant, now - last > frozenAfter {
                setState(.frozen, "no picture for \(Int((now - last) / .seconds(1))) s")
            }
            while let first = recent.first, now - first.at > .seconds(3) { recent.removeFirst() }
        }
        publish()
    }

    func handle(_ event: UpstreamEvent) {
        var changed = false
        var fanOut: [(ViewerMessage, [Viewer])] = []
        var wake: [CheckedContinuation<(AccessUnit, VideoFormat)?, Never>] = []
        var sinkEvent: StreamSinkEvent?
        var sinkTargets: [any StreamSink] = []
        var arrival: NIODeadline?
        lock.withLock {
            guard task != nil else { return }
            if !sinks.isEmpty {
                switch event {
                case .media(let media): sinkEvent = .media(media)
                case .disconnected: sinkEvent = .interrupted
                case .connecting, .playing: break
                }
                if sinkEvent != nil { sinkTargets = Array(sinks.values) }
            }
            if case .media(let media) = event, case .audioFormat = media { audioFormatEvent = media }
            switch event {
            case .connecting(let attempt):
                if attempt == 1 {
                    changed = setState(.connecting, nil)
                } else if state != .authenticationFailed && state != .unsupportedCodec && everLive {
                    changed = setState(.reconnecting, message ?? "reconnecting")
                }
            case .playing:
                break
            case .disconnected(let error, let retryIn):
                needKeyframe = true
                gop.removeAll()
                gopBytes = 0
                recent.removeAll()  // the next session's clock starts elsewhere
                let seconds = Int((retryIn / .milliseconds(1)) / 1000 + 0.5)
                var next = CameraState(failure: error)
                if everLive && next != .authenticationFailed && next != .unsupportedCodec { next = .reconnecting }
                changed = setState(next, "\(error.message) (retrying in \(max(seconds, 1)) s)")
            case .media(.formatChanged(let newFormat)):
                fanOut += formatChanged(newFormat)
            case .media(.video(let frame)):
                arrival = frame.receivedAt
                let result = video(frame)
                fanOut += result.messages
                wake = result.wake
                changed = result.changed
            case .media(.audioFormat), .media(.audio):
                break  // The live path carries video only for now.
            }
        }
        // Sinks first, on this thread and in order: they queue without blocking.
        if let sinkEvent {
            for sink in sinkTargets { sink.receive(sinkEvent) }
        }
        var drains: [any ViewerConsumer] = []
        drains.reserveCapacity(fanOut.first?.1.count ?? 0)
        for (message, viewers) in fanOut {
            for viewer in viewers {
                if let consumer = viewer.enqueue(message, arrival: arrival) { drains.append(consumer) }
            }
        }
        // One wake-up per viewer, and one hop per other event loop (viewers on this one are written to now).
        if !drains.isEmpty { Viewer.scheduleDrains(drains) }
        if let keyframe = wake.isEmpty ? nil : lock.withLock({ latestKeyframe }) {
            for waiter in wake { waiter.resume(returning: (keyframe.unit, keyframe.format)) }
        }
        if changed { publish() }
    }

    /// Under the lock.
    private func formatChanged(_ newFormat: VideoFormat) -> [(ViewerMessage, [Viewer])] {
        if let format, format.decoderConfigurationRecord == newFormat.decoderConfigurationRecord, muxer != nil {
            return []
        }
        format = newFormat
        gop.removeAll()
        gopBytes = 0
        latestKeyframe = nil
        needKeyframe = true
        var outputs: [FragmentedMP4Muxer.Output] = []
        if var current = muxer {
            do {
                outputs = try current.changeVideoFormat(newFormat)
                muxer = current
            } catch {
                logger.error("cannot mux the new format: \(error)")
                muxer = nil
            }
        } else {
            do {
                // The init segment comes out with the first keyframe.
                var created = try FragmentedMP4Muxer(video: newFormat, audio: nil, policy: .everyFrame)
                created.fragmentPrefix = framing.prefix
                created.writesInPlace = true
                muxer = created
            } catch {
                logger.error("cannot mux this stream: \(error)")
                setState(.unsupportedCodec, "\(error)")
            }
        }
        return route(outputs)
    }

    /// Under the lock.
    private func video(_ frame: MediaFrame) -> (messages: [(ViewerMessage, [Viewer])], wake: [CheckedContinuation<(AccessUnit, VideoFormat)?, Never>], changed: Bool) {
        guard muxer != nil, let format else { return ([], [], false) }
        instrumentation?.frameArrived()
        if needKeyframe {
            guard frame.isKeyframe else { return ([], [], false) }
            needKeyframe = false
        }
        let now = ContinuousClock.now
        lastFrameInstant = now
        lastFrameAt = Date()
        let size = frame.accessUnit.byteCount
        recent.append((now, Double(frame.timestamp) / Double(frame.clockRate), size))
        while let first = recent.first, now - first.at > .seconds(3) { recent.removeFirst() }
        everLive = true
        var changed = false
        if state != .live {
            changed = setState(.live, nil)
        }
        var wake: [CheckedContinuation<(AccessUnit, VideoFormat)?, Never>] = []
        if frame.isKeyframe {
            latestKeyframe = (frame.accessUnit, format)
            wake = keyframeWaiters
            keyframeWaiters.removeAll()
        }
        // In place: a copy of the muxer would copy its arrays on write, for every frame.
        let outputs = muxer!.appendVideo(frame.accessUnit, timestamp: frame.timestamp)
        return (route(outputs), wake, changed)
    }

    /// Under the lock: GOP cache bookkeeping, and who gets what.
    private func route(_ outputs: [FragmentedMP4Muxer.Output]) -> [(ViewerMessage, [Viewer])] {
        var messages: [(ViewerMessage, [Viewer])] = []
        let targets = viewerList
        for output in outputs {
            switch output {
            case .initializationSegment(let bytes, let mimeType):
                initSegment = (bytes, mimeType)
                if let format {
                    messages.append((.initialization(segment: bytes, mimeType: mimeType, format: format), targets))
                }
            case .fragment(let bytes, let info):
                // Framed already (the muxer's prefix), once for every viewer.
                if info.startsWithKeyframe {
                    gop = [bytes]
                    gopBytes = bytes.readableBytes
                } else if !gop.isEmpty {
                    gopBytes += bytes.readableBytes
                    if gopBytes > maxGOPBytes {
                        gop.removeAll()
                        gopBytes = 0
                    } else {
                        gop.append(bytes)
                    }
                }
                messages.append((.fragment(bytes, isKeyframe: info.startsWithKeyframe), targets))
            }
        }
        return messages
    }

    // MARK: - Status

    /// Under the lock. Returns whether the state changed.
    @discardableResult
    private func setState(_ new: CameraState, _ why: String?) -> Bool {
        guard new != state || why != message else { return false }
        if new != state {
            logger.info("stream state", metadata: ["state": "\(new.rawValue)", "why": "\(why ?? "-")"])
        }
        state = new
        message = why
        return true
    }

    var status: CameraStatus { lock.withLock { currentStatus() } }

    /// Under the lock.
    private func currentStatus() -> CameraStatus {
        var status = CameraStatus(state: state, message: message, lastFrameAt: lastFrameAt, viewers: viewers.count,
                                  codec: format?.codec.rawValue, width: format?.width, height: format?.height)
        // Measured on the stream's clock: bursts (a reconnect, an encoder catching up) don't inflate it.
        if (state == .live || state == .frozen), recent.count >= 2, let first = recent.first, let last = recent.last {
            let span = last.streamTime - first.streamTime
            if span > 0.2 {
                status.fps = ((Double(recent.count - 1) / span) * 10).rounded() / 10
                let bytes = recent.dropFirst().reduce(0) { $0 + $1.bytes }
                status.bitrateKbps = (Double(bytes) * 8 / span / 1000).rounded()
            }
        }
        return status
    }

    /// Tells the hub (every time) and the viewers (when the state or its reason changed).
    private func publish() {
        let (status, targets) = lock.withLock { () -> (CameraStatus, [Viewer]) in
            let status = currentStatus()
            guard toldViewers?.state != status.state || toldViewers?.message != status.message else { return (status, []) }
            toldViewers = (status.state, status.message)
            return (status, self.viewerList)
        }
        let drains = targets.compactMap { $0.enqueue(ViewerMessage.status(status)) }
        if !drains.isEmpty { Viewer.scheduleDrains(drains) }
        onStatus?(key, status)
    }
}
