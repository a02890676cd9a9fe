import Foundation
import H26x
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Why a stream cannot be watched.
public struct HubError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: String, Sendable { case unknownCamera, inactive, noFrame }
    public var kind: Kind
    public var description: String
}

/// Every camera's streams: one upstream per camera stream whatever the number of viewers, started when
/// the first viewer (or snapshot) arrives and stopped `gracePeriod` after the last leaves; at most
/// `maxUpstreams` at once (the others wait, in the `limitReached` state); status for every camera,
/// pushed to subscribers as it changes.
public final class StreamHub: Sendable {
    public struct Configuration: Sendable {
        public var maxUpstreams: Int
        public var gracePeriod: Duration
        public var frozenAfter: Duration
        /// Per viewer: fragments queued before it is considered behind and skips to the next keyframe.
        public var viewerQueueFragments: Int
        /// Checks of cameras nobody watches (``CameraHealthMonitor``); nil: none (an idle camera is just idle).
        public var healthChecks: CameraHealthMonitor.Configuration?
        /// A running stream that has not been live for this long (connecting, reconnecting, unreachable) is
        /// reported failed (``CameraStatus/failedSince``); a wrong password or an unusable stream at once.
        public var failAfter: Duration
        /// Measure the live path (``HubInstrumentation``); off by default.
        public var instrument: Bool
        /// How live fragments reach viewers: bare (default), or pre-framed as WebSocket messages for the server.
        public var fragmentFraming: LiveFragmentFraming

        public init(maxUpstreams: Int = 16, gracePeriod: Duration = .seconds(10), frozenAfter: Duration = .seconds(5),
                    viewerQueueFragments: Int = 75, healthChecks: CameraHealthMonitor.Configuration? = nil,
                    failAfter: Duration = .seconds(10), instrument: Bool = false,
                    fragmentFraming: LiveFragmentFraming = .none) {
            self.instrument = instrument
            self.fragmentFraming = fragmentFraming
            self.maxUpstreams = maxUpstreams
            self.gracePeriod = gracePeriod
            self.frozenAfter = frozenAfter
            self.viewerQueueFragments = viewerQueueFragments
            self.healthChecks = healthChecks
            self.failAfter = failAfter
        }
    }

    private struct Camera {
        var isActive: Bool
        var streams: [StreamVariant: LiveStream]
    }

    private struct State {
        var cameras: [UUID: Camera] = [:]
        var running: Set<LiveStream.Key> = []
        var pending: [LiveStream.Key] = []
        var stopTimers: [LiveStream.Key: Task<Void, Never>] = [:]
        var published: [UUID: CameraStatus] = [:]
        var subscribers: [UUID: AsyncStream<(UUID, CameraStatus)>.Continuation] = [:]
        /// Ticks the running streams every second (a frozen picture, the fps window); runs only while one does.
        var ticker: Task<Void, Never>?
        var shutDown = false
        /// Since when each running stream has been in a state that is not live (see ``isTrouble(_:)``).
        var troubleSince: [LiveStream.Key: Date] = [:]
    }

    public let configuration: Configuration
    /// The live path's measurements when ``Configuration/instrument`` is on, else nil.
    public let instrumentation: HubInstrumentation?
    private let logger: Logger
    private let state = NIOLockedValueBox(State())
    /// Checks the cameras nobody watches, when ``Configuration/healthChecks`` is set.
    public let health: CameraHealthMonitor?

    public init(configuration: Configuration = Configuration(), logger: Logger = Logger(label: "watchbox.hub")) {
        self.configuration = configuration
        self.instrumentation = configuration.instrument ? HubInstrumentation() : nil
        self.logger = logger
        self.health = configuration.healthChecks.map { CameraHealthMonitor(configuration: $0, logger: logger) }
        health?.attach(isWatched: { [weak self] id in self?.isWatched(id) ?? false },
                       onChange: { [weak self] id in self?.publishStatus(of: id) })
    }

    // MARK: - Registry

    /// Sets (or replaces) a camera's streams. Replacing stops its running streams and closes their viewers
    /// (players reconnect to the new source).
    public func register(cameraID: UUID, upstreams: [StreamVariant: any Upstream], isActive: Bool) async {
        await unregister(cameraID: cameraID, publish: false)
        var streams: [StreamVariant: LiveStream] = [:]
        for (variant, upstream) in upstreams {
            let stream = LiveStream(key: .init(cameraID: cameraID, variant: variant), upstream: upstream,
                                    frozenAfter: configuration.frozenAfter, instrumentation: instrumentation,
                                    framing: configuration.fragmentFraming, logger: logger)
            stream.onStatus = { [weak self] key, status in self?.streamStatusChanged(key, status) }
            stream.onDemandChanged = { [weak self] key in self?.demandChanged(key) }
            streams[variant] = stream
        }
        state.withLockedValue { $0.cameras[cameraID] = Camera(isActive: isActive, streams: streams) }
        if isActive, let checker = upstreams[.main] as? any HealthCheckable {
            health?.track(cameraID: cameraID, checker: checker)
        } else {
            health?.forget(cameraID: cameraID)
        }
        publishStatus(of: cameraID)
    }

    /// Stops and forgets a camera.
    public func unregister(cameraID: UUID) async {
        health?.forget(cameraID: cameraID)
        await unregister(cameraID: cameraID, publish: true)
    }

    private func unregister(cameraID: UUID, publish: Bool) async {
        guard let camera = state.withLockedValue({ state -> Camera? in
            guard let camera = state.cameras.removeValue(forKey: cameraID) else { return nil }
            for key in camera.streams.values.map(\.key) {
                state.running.remove(key)
                state.pending.removeAll { $0 == key }
                state.stopTimers.removeValue(forKey: key)?.cancel()
                state.troubleSince.removeValue(forKey: key)
            }
            if publish { state.published.removeValue(forKey: cameraID) }
            return camera
        }) else { return }
        for stream in camera.streams.values {
            stream.onDemandChanged = nil
            stream.onStatus = nil
            stream.closeAllViewers()
            await stream.stop()
        }
        startPending()
    }

    /// Every viewer's queue counters, summed (``Viewer/skipStatistics``): how many live fragments were
    /// handed to viewers and how many were dropped because a viewer fell behind.
    public func viewerTotals() -> (viewers: Int, delivered: Int, dropped: Int, skips: Int) {
        let streams = state.withLockedValue { $0.cameras.values.flatMap { $0.streams.values } }
        var totals = (viewers: 0, delivered: 0, dropped: 0, skips: 0)
        for stream in streams {
            for viewer in stream.allViewers {
                let s = viewer.skipStatistics
                totals.viewers += 1
                totals.delivered += s.deliveredFragments
                totals.dropped += s.droppedFragments
                totals.skips += s.skips
            }
        }
        return totals
    }

    public var cameraIDs: [UUID] { state.withLockedValue { Array($0.cameras.keys) } }

    // MARK: - Viewers and snapshots

    /// A live viewer of a camera: `variant` nil picks the sub stream when there is one (grid cells),
    /// else the main stream.
    ///
    /// `eventLoop`: the loop of the viewer's connection. When it is one of the hub's (NIO's shared group), the
    /// camera's RTSP connection is opened on it if this viewer starts the stream, and the viewer carries it
    /// (``Viewer/eventLoop``) for its writer to run there: ingest, fan-out and socket writes on one thread.
    public func watch(cameraID: UUID, variant: StreamVariant? = nil, eventLoop: (any EventLoop)? = nil) throws(HubError) -> Viewer {
        let stream = try self.stream(cameraID: cameraID, variant: variant)
        let loop = eventLoop.flatMap { loop in
            MultiThreadedEventLoopGroup.singleton.makeIterator().contains { $0 === loop } ? loop : nil
        }
        return stream.addViewer(maxFragments: configuration.viewerQueueFragments, eventLoop: loop)
    }

    /// Attaches a raw-media sink (the recorder) to a camera stream (the main one by default). It counts as
    /// demand: the upstream starts (or waits for a slot under `maxUpstreams`) and keeps running until
    /// ``detach(_:)``. A live viewer of the same stream shares the one upstream session.
    public func attach(sink: any StreamSink, cameraID: UUID, variant: StreamVariant = .main) throws(HubError) -> StreamSinkToken {
        let stream = try self.stream(cameraID: cameraID, variant: variant)
        let token = StreamSinkToken(id: UUID(), cameraID: cameraID, variant: stream.key.variant)
        stream.addSink(sink, id: token.id)
        return token
    }

    /// Detaches a sink (it gets a last `.interrupted`); the upstream stops after the grace period if nobody else wants it.
    public func detach(_ token: StreamSinkToken) {
        guard let stream = state.withLockedValue({ $0.cameras[token.cameraID]?.streams[token.variant] }) else { return }
        stream.removeSink(id: token.id)
    }

    /// Whether the sink is still attached: false once its camera was re-registered (new settings) or removed;
    /// the owner then attaches again.
    public func isAttached(_ token: StreamSinkToken) -> Bool {
        state.withLockedValue { $0.cameras[token.cameraID]?.streams[token.variant] }?.hasSink(id: token.id) ?? false
    }

    /// The latest keyframe of a camera (for a snapshot): from `variant`, or when nil from a stream that
    /// is already running (the main one first), else the main stream, which is started for it.
    public func keyframe(cameraID: UUID, variant: StreamVariant? = nil, timeout: Duration = .seconds(10)) async throws(HubError) -> (AccessUnit, VideoFormat) {
        var chosen = variant
        if chosen == nil {
            let streams = state.withLockedValue { $0.cameras[cameraID]?.streams ?? [:] }
            chosen = [StreamVariant.main, .sub].first { streams[$0]?.isRunning == true } ?? .main
        }
        let stream = try self.stream(cameraID: cameraID, variant: chosen)
        guard let frame = await stream.keyframe(timeout: timeout) else {
            let status = stream.status
            throw HubError(kind: .noFrame, description: "no picture from the camera within \(Int(timeout / .seconds(1))) s"
                + (status.message.map { ": \($0)" } ?? ""))
        }
        return frame
    }

    private func stream(cameraID: UUID, variant: StreamVariant?) throws(HubError) -> LiveStream {
        let found = state.withLockedValue { state -> Result<LiveStream, HubError> in
            guard let camera = state.cameras[cameraID] else {
                return .failure(HubError(kind: .unknownCamera, description: "there is no camera with id \(cameraID)"))
            }
            guard camera.isActive else {
                return .failure(HubError(kind: .inactive, description: "the camera is switched off: turn it on to watch it"))
            }
            let chosen = variant.flatMap { camera.streams[$0] } ?? camera.streams[.sub] ?? camera.streams[.main]
            guard let chosen else {
                return .failure(HubError(kind: .unknownCamera, description: "the camera has no stream configured"))
            }
            return .success(chosen)
        }
        return try found.get()
    }

    // MARK: - Status

    public func status(cameraID: UUID) -> CameraStatus {
        guard let (camera, trouble) = state.withLockedValue({ state in state.cameras[cameraID].map { ($0, state.troubleSince) } }) else {
            return .idle
        }
        return aggregate(cameraID, camera, trouble: trouble)
    }

    public func statuses() -> [UUID: CameraStatus] {
        let (cameras, trouble) = state.withLockedValue { ($0.cameras, $0.troubleSince) }
        var result: [UUID: CameraStatus] = [:]
        for (id, camera) in cameras { result[id] = aggregate(id, camera, trouble: trouble) }
        return result
    }

    /// Status changes of every camera, as they happen (the newest 256 are kept for a slow reader).
    public func subscribe() -> AsyncStream<(UUID, CameraStatus)> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: (UUID, CameraStatus).self, bufferingPolicy: .bufferingNewest(256))
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLockedValue { $0.subscribers.removeValue(forKey: id) }
        }
        state.withLockedValue { $0.subscribers[id] = continuation }
        return stream
    }

    /// The camera's status is that of the stream people are watching: the sub stream when it runs, else the
    /// main one; with `failedSince` when that stream has been down too long; for a camera nobody watches,
    /// what its last health check found.
    private func aggregate(_ cameraID: UUID, _ camera: Camera, trouble: [LiveStream.Key: Date]) -> CameraStatus {
        guard camera.isActive else { return CameraStatus(state: .stopped, message: "switched off") }
        let sub = camera.streams[.sub]
        let main = camera.streams[.main]
        var viewers = 0
        for stream in camera.streams.values { viewers += stream.viewerCount }
        var chosen: CameraStatus
        var chosenStream: LiveStream?
        if let sub, sub.isRunning || sub.hasDemand {
            chosen = sub.status
            chosenStream = sub
            if let main, main.isRunning, sub.status.state != .live, main.status.state == .live {
                chosen = main.status
                chosenStream = main
            }
        } else if let main {
            chosen = main.status
            chosenStream = main
        } else {
            chosen = .idle
        }
        chosen.viewers = viewers
        if let chosenStream, chosenStream.isRunning {
            if let since = trouble[chosenStream.key], Self.isTrouble(chosen.state),
               Self.failsAtOnce(chosen.state) || Date().timeIntervalSince(since) >= configuration.failAfter / .seconds(1) {
                chosen.failedSince = since
            }
        } else if chosen.state == .idle, let check = health?.lastCheck(cameraID: cameraID) {
            chosen.checkedAt = check.at
            chosen.reachable = check.isReachable
            if let failure = check.failure {
                chosen.state = check.state
                chosen.message = "\(failure.message) (checked \(Self.clockTime(check.at)))"
                chosen.failedSince = check.failingSince ?? check.at
            }
        }
        return chosen
    }

    /// States of a running stream that is not delivering video.
    static func isTrouble(_ state: CameraState) -> Bool {
        switch state {
        case .connecting, .reconnecting, .unreachable, .authenticationFailed, .unsupportedCodec, .error: return true
        case .idle, .live, .frozen, .limitReached, .stopped: return false
        }
    }

    /// Trouble that waiting will not cure: failed from the first moment.
    static func failsAtOnce(_ state: CameraState) -> Bool {
        state == .authenticationFailed || state == .unsupportedCodec || state == .error
    }

    /// "12:03:05" in the hub's time zone.
    static func clockTime(_ date: Date) -> String {
        let parts = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    /// Whether any of the camera's streams runs or is wanted (then it is not health-checked).
    private func isWatched(_ cameraID: UUID) -> Bool {
        let streams = state.withLockedValue { $0.cameras[cameraID]?.streams.values.map { $0 } ?? [] }
        return streams.contains { $0.isRunning || $0.hasDemand }
    }

    /// A stream's new status: note when it left (or came back to) a healthy state, then publish.
    private func streamStatusChanged(_ key: LiveStream.Key, _ status: CameraStatus) {
        state.withLockedValue { state in
            if Self.isTrouble(status.state) {
                if state.troubleSince[key] == nil { state.troubleSince[key] = Date() }
            } else {
                state.troubleSince.removeValue(forKey: key)
            }
        }
        publishStatus(of: key.cameraID)
    }

    private func publishStatus(of cameraID: UUID) {
        let status = self.status(cameraID: cameraID)
        let targets = state.withLockedValue { state -> [AsyncStream<(UUID, CameraStatus)>.Continuation] in
            guard state.cameras[cameraID] != nil, state.published[cameraID] != status else { return [] }
            state.published[cameraID] = status
            return Array(state.subscribers.values)
        }
        for target in targets { target.yield((cameraID, status)) }
    }

    // MARK: - Upstream slots

    private func demandChanged(_ key: LiveStream.Key) {
        guard let stream = state.withLockedValue({ $0.cameras[key.cameraID]?.streams[key.variant] }) else { return }
        if stream.hasDemand {
            enum Decision { case start, wait, nothing }
            let decision = state.withLockedValue { state -> Decision in
                guard !state.shutDown else { return .nothing }
                state.stopTimers.removeValue(forKey: key)?.cancel()
                if state.running.contains(key) { return .nothing }
                if state.running.count < configuration.maxUpstreams {
                    state.running.insert(key)
                    startTicker(&state)
                    return .start
                }
                if !state.pending.contains(key) { state.pending.append(key) }
                return .wait
            }
            switch decision {
            case .start:
                stream.start()
            case .wait:
                let limit = configuration.maxUpstreams
                stream.setExternalState(.limitReached, message:
                    "\(limit) camera streams are already running, the most this hub allows: close another view, or start WatchBox with a higher --max-streams")
            case .nothing:
                break
            }
        } else {
            let grace = configuration.gracePeriod
            let leftTheQueue = state.withLockedValue { state -> Bool in
                if let index = state.pending.firstIndex(of: key) {
                    state.pending.remove(at: index)
                    return true
                }
                guard state.running.contains(key), state.stopTimers[key] == nil else { return false }
                state.stopTimers[key] = Task.detached { [weak self] in
                    try? await Task.sleep(for: grace)
                    guard !Task.isCancelled, let self else { return }
                    await self.stopIfUnused(key, stream: stream)
                }
                return false
            }
            // Outside the lock: the new state is published, and publishing reads the hub's state.
            if leftTheQueue { stream.setExternalState(.idle, message: nil) }
        }
    }

    private func stopIfUnused(_ key: LiveStream.Key, stream: LiveStream) async {
        let stop = state.withLockedValue { state -> Bool in
            state.stopTimers.removeValue(forKey: key)
            guard !stream.hasDemand, state.running.contains(key) else { return false }
            return true
        }
        guard stop else { return }
        await stream.stop()
        state.withLockedValue { _ = $0.running.remove(key) }
        logger.info("stream stopped: nobody watching", metadata: ["camera": "\(key.cameraID)", "stream": "\(key.variant.rawValue)"])
        // Idle again: what the camera said while it streamed may be stale; check it now.
        if !isWatched(key.cameraID) {
            health?.recheck(cameraID: key.cameraID)
            publishStatus(of: key.cameraID)
        }
        startPending()
    }

    private func startPending() {
        while true {
            let next = state.withLockedValue { state -> LiveStream? in
                guard !state.shutDown, state.running.count < configuration.maxUpstreams, !state.pending.isEmpty else { return nil }
                // Skip queued streams nobody wants any more (their camera removed, their viewers gone).
                while !state.pending.isEmpty {
                    let key = state.pending.removeFirst()
                    guard let stream = state.cameras[key.cameraID]?.streams[key.variant], stream.hasDemand else { continue }
                    state.running.insert(key)
                    startTicker(&state)
                    return stream
                }
                return nil
            }
            guard let next else { return }
            next.start()
        }
    }

    /// Under the lock, as a stream starts: the ticker runs unless it does already (an idle hub has none).
    private func startTicker(_ state: inout State) {
        guard state.ticker == nil, !state.shutDown else { return }
        state.ticker = Task.detached { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                guard let self, self.tick() else { return }
            }
        }
    }

    /// Ticks the running streams; false when none runs (the ticker then ends, until a stream starts again).
    private func tick() -> Bool {
        let now = ContinuousClock.now
        let running = state.withLockedValue { state -> [LiveStream]? in
            guard !state.running.isEmpty else {
                state.ticker = nil
                return nil
            }
            return state.running.compactMap { state.cameras[$0.cameraID]?.streams[$0.variant] }
        }
        guard let running else { return false }
        for stream in running { stream.tick(now: now) }
        return true
    }

    /// Whether the stream ticker runs (it does while a stream runs, and for up to a second after).
    var tickerRuns: Bool { state.withLockedValue { $0.ticker != nil } }

    // MARK: - Shutdown

    /// Stops every stream (TEARDOWN), closes every viewer and subscriber. The hub is unusable afterwards.
    public func shutdown() async {
        let (cameras, subscribers, ticker) = state.withLockedValue { state in
            state.shutDown = true
            for timer in state.stopTimers.values { timer.cancel() }
            state.stopTimers.removeAll()
            state.pending.removeAll()
            defer { state.subscribers.removeAll() }
            return (Array(state.cameras.values), Array(state.subscribers.values), state.ticker)
        }
        ticker?.cancel()
        health?.shutdown()
        await withTaskGroup(of: Void.self) { group in
            for camera in cameras {
                for stream in camera.streams.values {
                    stream.closeAllViewers()
                    group.addTask { await stream.stop() }
                }
            }
        }
        state.withLockedValue { $0.running.removeAll() }
        for subscriber in subscribers { subscriber.finish() }
    }
}
