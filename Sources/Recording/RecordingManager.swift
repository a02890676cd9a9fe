import Foundation
import Hub
import Logging
import NIOConcurrencyHelpers
import Store

/// Every camera's recording: decides who records (mode, schedule, manual recordings, camera switched on),
/// runs a ``CameraRecorder`` on each camera's main stream, indexes segments, applies retention, reconciles the
/// index with the files at start-up, and tells subscribers each camera's ``RecorderState``.
public final class RecordingManager: Sendable {
    public struct Configuration: Sendable {
        /// The recordings root (default `<data dir>/recordings`).
        public var root: String
        public var segmentSeconds: Double
        /// How often the scheduler looks again (it also does at once after a settings change).
        public var evaluateEvery: Duration
        public var retentionEvery: Duration
        public var retryAfter: Duration
        public var timeZone: TimeZone

        public init(root: String, segmentSeconds: Double = 60, evaluateEvery: Duration = .seconds(2),
                    retentionEvery: Duration = .seconds(30), retryAfter: Duration = .seconds(5), timeZone: TimeZone = .current) {
            self.root = root
            self.segmentSeconds = segmentSeconds
            self.evaluateEvery = evaluateEvery
            self.retentionEvery = retentionEvery
            self.retryAfter = retryAfter
            self.timeZone = timeZone
        }
    }

    private struct Active {
        var recorder: CameraRecorder
        var token: StreamSinkToken?
    }

    private struct State {
        var settings: [UUID: RecordingSettings] = [:]
        /// Manual recordings: until when (nil: until stopped).
        var manual: [UUID: Date?] = [:]
        var active: [UUID: Active] = [:]
        var states: [UUID: RecorderState] = [:]
        var subscribers: [UUID: AsyncStream<(UUID, RecorderState)>.Continuation] = [:]
        var loop: Task<Void, Never>?
        var wake: AsyncStream<Void>.Continuation?
        var retentionRequested = false
        var shutDown = false
        var lastShortfall: String?
    }

    public let configuration: Configuration
    let repository: any RecordingRepository
    let cameras: any CameraRepository
    let hub: StreamHub
    let logger: Logger
    private let state = NIOLockedValueBox(State())

    public init(configuration: Configuration, repository: any RecordingRepository, cameras: any CameraRepository,
                hub: StreamHub, logger: Logger) {
        self.configuration = configuration
        self.repository = repository
        self.cameras = cameras
        self.hub = hub
        var logger = logger
        logger[metadataKey: "part"] = "recording"
        self.logger = logger
    }

    public var root: String { configuration.root }

    // MARK: - Running

    /// Reconciles the index with the files, loads the settings, and starts the scheduler and retention.
    public func start() async throws {
        do {
            try FileSystem.makeDirectory(configuration.root)
        } catch {
            throw RecordingError(.storage, "cannot create the recordings folder \(configuration.root): \(error.localizedDescription); pass --recordings with a folder you can write to")
        }
        await reconcile()
        let all = try await repository.allRecordingSettings()
        let (wakeStream, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        state.withLockedValue { state in
            for settings in all { state.settings[settings.cameraID] = settings }
            state.wake = wake
        }
        let loop = Task.detached { [weak self] in
            var nextRetention = ContinuousClock.now
            let ticks = Task.detached { [weak self] in
                while !Task.isCancelled {
                    guard let interval = self?.configuration.evaluateEvery else { return }
                    try? await Task.sleep(for: interval)
                    wake.yield()
                }
            }
            defer { ticks.cancel() }
            await self?.evaluate()
            for await _ in wakeStream {
                guard let self else { return }
                await self.evaluate()
                let requested = self.state.withLockedValue { state -> Bool in
                    defer { state.retentionRequested = false }
                    return state.retentionRequested
                }
                if requested || ContinuousClock.now >= nextRetention {
                    nextRetention = ContinuousClock.now + self.configuration.retentionEvery
                    await self.runRetention()
                }
            }
        }
        state.withLockedValue { $0.loop = loop }
    }

    /// Stops every recorder (each closes and indexes its segment) and the scheduler.
    public func shutdown() async {
        let (active, loop, subscribers) = state.withLockedValue { state in
            state.shutDown = true
            state.wake?.finish()
            defer {
                state.active.removeAll()
                state.subscribers.removeAll()
            }
            return (Array(state.active.values), state.loop, Array(state.subscribers.values))
        }
        loop?.cancel()
        for entry in active {
            if let token = entry.token { hub.detach(token) }
            await entry.recorder.stop()
        }
        for subscriber in subscribers { subscriber.finish() }
    }

    private func nudge() {
        state.withLockedValue { $0.wake }?.yield()
    }

    /// Who should record now, and making it so.
    func evaluate() async {
        let now = Date()
        let (settings, manual, active) = state.withLockedValue { state in
            // Manual recordings past their end are over.
            for (id, until) in state.manual { if let until, until <= now { state.manual.removeValue(forKey: id) } }
            return (state.settings, state.manual, state.active)
        }
        let ids = Set(settings.keys).union(manual.keys).union(active.keys)
        for id in ids {
            let mode = settings[id]?.mode ?? .off
            var wanted = manual[id] != nil
            switch mode {
            case .continuous: wanted = true
            case .scheduled: wanted = wanted || ScheduleEvaluator.isActive(settings[id]?.schedule ?? [], at: now, timeZone: configuration.timeZone)
            case .off, .manual: break
            }
            var camera: Camera?
            if wanted {
                camera = try? await cameras.camera(id: id)
                if camera == nil || camera?.isActive == false { wanted = false }
            }
            if wanted {
                await ensureRecording(id)
            } else {
                await stopRecording(id)
                let next: RecorderState.State = mode == .scheduled ? .idle : .off
                var message: String?
                if camera?.isActive == false { message = "the camera is switched off: turn it on to record" }
                else if mode == .scheduled { message = "outside the schedule" }
                setState(id, RecorderState(state: next, message: message))
            }
        }
    }

    private func ensureRecording(_ id: UUID) async {
        let existing = state.withLockedValue { $0.active[id] }
        if let existing {
            if let token = existing.token, hub.isAttached(token) { return }
            // The camera was re-registered (new settings): attach again.
            attach(id, existing.recorder)
            return
        }
        let recorder = CameraRecorder(
            cameraID: id,
            configuration: .init(root: configuration.root, segmentSeconds: configuration.segmentSeconds, retryAfter: configuration.retryAfter),
            logger: logger,
            onSegment: { [weak self] segment in await self?.indexSegment(segment) },
            onStatus: { [weak self] status in self?.recorderStatus(id, status) })
        let shutDown = state.withLockedValue { state -> Bool in
            guard !state.shutDown else { return true }
            state.active[id] = Active(recorder: recorder, token: nil)
            return false
        }
        if shutDown { await recorder.stop(); return }
        setState(id, RecorderState(state: .waiting, message: "waiting for a picture from the camera", since: Date()))
        logger.info("recording started", metadata: ["camera": "\(id)"])
        attach(id, recorder)
    }

    private func attach(_ id: UUID, _ recorder: CameraRecorder) {
        do {
            let token = try hub.attach(sink: recorder, cameraID: id, variant: .main)
            state.withLockedValue { $0.active[id]?.token = token }
        } catch {
            state.withLockedValue { $0.active[id]?.token = nil }
            setState(id, RecorderState(state: .error, message: "\(error.description): recording waits for it"))
        }
    }

    private func stopRecording(_ id: UUID) async {
        guard let entry = state.withLockedValue({ $0.active.removeValue(forKey: id) }) else { return }
        if let token = entry.token { hub.detach(token) }
        await entry.recorder.stop()
        logger.info("recording stopped", metadata: ["camera": "\(id)"])
    }

    private func recorderStatus(_ id: UUID, _ status: CameraRecorder.Status) {
        let current = state.withLockedValue { $0.states[id] }
        var next: RecorderState
        switch status {
        case .waiting: next = RecorderState(state: .waiting, message: "waiting for a picture from the camera")
        case .recording: next = RecorderState(state: .recording)
        case .diskFull(let message):
            next = RecorderState(state: .diskFull, message: message)
            state.withLockedValue { $0.retentionRequested = true }
            nudge()
        case .error(let message): next = RecorderState(state: .error, message: message)
        }
        next.since = current?.state == next.state ? current?.since : Date()
        setState(id, next)
    }

    private func setState(_ id: UUID, _ new: RecorderState) {
        let targets = state.withLockedValue { state -> ([AsyncStream<(UUID, RecorderState)>.Continuation], RecorderState)? in
            var value = new
            if let manual = state.manual[id] { value.manualUntil = manual } else { value.manualUntil = nil }
            let old = state.states[id]
            if value.since == nil { value.since = old?.state == value.state ? old?.since : (value.state == .off ? nil : Date()) }
            if value.state == .off && old == nil { value.since = nil }
            guard old != value else { return nil }
            state.states[id] = value
            return (Array(state.subscribers.values), value)
        }
        guard let (subscribers, value) = targets else { return }
        for subscriber in subscribers { subscriber.yield((id, value)) }
    }

    private func indexSegment(_ segment: Segment) async {
        do {
            let row = try await repository.insertSegment(segment)
            logger.debug("segment indexed", metadata: ["file": "\(row.path)", "seconds": "\(row.duration)"])
        } catch {
            logger.error("cannot index \(segment.path): \(error); it is indexed again at the next start")
        }
        state.withLockedValue { $0.retentionRequested = true }
        nudge()
    }

    // MARK: - Settings and state

    public func recordingState(cameraID: UUID) -> RecorderState {
        state.withLockedValue { state in
            var value = state.states[cameraID] ?? RecorderState(state: .off)
            if let manual = state.manual[cameraID] { value.manualUntil = manual }
            return value
        }
    }

    public func states() -> [UUID: RecorderState] { state.withLockedValue { $0.states } }

    /// State changes of every camera (the newest 256 kept for a slow reader).
    public func subscribe() -> AsyncStream<(UUID, RecorderState)> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: (UUID, RecorderState).self, bufferingPolicy: .bufferingNewest(256))
        continuation.onTermination = { [weak self] _ in _ = self?.state.withLockedValue { $0.subscribers.removeValue(forKey: id) } }
        state.withLockedValue { $0.subscribers[id] = continuation }
        return stream
    }

    public func settings(cameraID: UUID) async throws -> RecordingSettings {
        try await repository.recordingSettings(cameraID: cameraID)
    }

    public func update(_ settings: RecordingSettings) async throws {
        try await repository.saveRecordingSettings(settings)
        state.withLockedValue { $0.settings[settings.cameraID] = settings }
        await evaluate()
    }

    /// Starts a manual recording (whatever the mode); nil duration: until ``stopManual(cameraID:)``.
    public func startManual(cameraID: UUID, durationSeconds: Double?) async throws {
        guard let camera = try await cameras.camera(id: cameraID) else {
            throw RecordingError(.notFound, "there is no camera with id \(cameraID)")
        }
        guard camera.isActive else {
            throw RecordingError(.conflict, "the camera \"\(camera.name)\" is switched off: turn it on to record")
        }
        let until = durationSeconds.map { Date().addingTimeInterval($0) }
        state.withLockedValue { $0.manual[cameraID] = .some(until) }
        await evaluate()
    }

    public func stopManual(cameraID: UUID) async {
        _ = state.withLockedValue { $0.manual.removeValue(forKey: cameraID) }
        await evaluate()
    }

    /// Forgets a camera removed from the registry (its footage stays until retention deletes it).
    public func forget(cameraID: UUID) async {
        state.withLockedValue { state in
            state.settings.removeValue(forKey: cameraID)
            _ = state.manual.removeValue(forKey: cameraID)
        }
        await evaluate()
    }

    // MARK: - Segments

    /// The segments being written (whole fragments so far), of one camera or all.
    public func openSegments(cameraID: UUID? = nil) -> [OpenSegment] {
        let recorders = state.withLockedValue { state in
            cameraID.map { id in state.active[id].map { [$0.recorder] } ?? [] } ?? state.active.values.map(\.recorder)
        }
        return recorders.compactMap(\.openSegment)
    }

    public func openSegment(id: Int64) -> OpenSegment? {
        openSegments().first { $0.id == id }
    }

    public func absolutePath(_ segment: Segment) -> String {
        (configuration.root as NSString).appendingPathComponent(segment.path)
    }

    /// Deletes a segment's file, then its row. A protected one only with `force`.
    public func deleteSegment(id: Int64, force: Bool) async throws {
        guard let segment = try await repository.segment(id: id) else {
            throw RecordingError(.notFound, "there is no recording with id \(id)")
        }
        if !force, try await repository.isProtected(segmentID: id) {
            throw RecordingError(.conflict, "recording \(id) is protected: remove its protection first, or delete with ?force=true")
        }
        try removeFile(segment.path)
        _ = try await repository.deleteSegment(id: id)
        logger.notice("recording deleted", metadata: ["file": "\(segment.path)"])
    }

    private func removeFile(_ relativePath: String) throws {
        let path = (configuration.root as NSString).appendingPathComponent(relativePath)
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch CocoaError.fileNoSuchFile {
        } catch where (error as NSError).code == NSFileNoSuchFileError {
        } catch {
            throw RecordingError(.storage, "cannot delete \(path): \(error.localizedDescription); check the recordings folder's permissions")
        }
    }

    // MARK: - Retention

    /// Deletes footage past each camera's maximum age, then the oldest unprotected until the caps hold.
    public func runRetention(now: Date = Date()) async {
        do {
            let storage = try await repository.storageSettings()
            let settings = try await repository.allRecordingSettings()
            var days: [UUID: Int] = [:]
            var candidates: [SegmentCandidate] = []
            for entry in settings {
                guard let retention = entry.retentionDays else { continue }
                days[entry.cameraID] = retention
                candidates += try await repository.unprotectedSegments(
                    cameraID: entry.cameraID, endingBefore: now.addingTimeInterval(-Double(retention) * 86_400), limit: 5000)
            }
            let footage = try await repository.footage().reduce(Int64(0)) { $0 + $1.bytes }
            let free = FileSystem.space(configuration.root)?.free ?? Int64.max
            var planner = RetentionPlanner(maxBytes: storage.maxBytes, minFreeBytes: storage.minFreeBytes, retentionDays: days)
            let overCap = storage.maxBytes.map { footage > $0 } ?? false
            if overCap || free < storage.minFreeBytes {
                candidates += try await repository.unprotectedSegments(cameraID: nil, endingBefore: nil, limit: 2000)
            }
            guard !candidates.isEmpty || overCap || free < storage.minFreeBytes else { return }
            planner.retentionDays = days
            let plan = planner.plan(candidates: candidates, now: now, footageBytes: footage, freeBytes: free)
            for segment in plan.all {
                do {
                    try removeFile(segment.path)
                    _ = try await repository.deleteSegment(id: segment.id)
                } catch {
                    logger.error("retention could not delete \(segment.path): \(error)")
                }
            }
            if !plan.expired.isEmpty {
                logger.notice("retention deleted \(plan.expired.count) segment(s) past their camera's maximum age")
            }
            if !plan.forSpace.isEmpty {
                logger.notice("retention deleted the \(plan.forSpace.count) oldest unprotected segment(s) to respect the storage limits")
            }
            let report = state.withLockedValue { state -> String? in
                defer { state.lastShortfall = plan.shortfall }
                return plan.shortfall != state.lastShortfall ? plan.shortfall : nil
            }
            if let report { logger.warning("retention: \(report)") }
        } catch {
            logger.error("retention failed: \(error)")
        }
    }

    // MARK: - Start-up

    /// The index and the files agree after this: unknown files are repaired and indexed (or moved aside), rows
    /// without a file are removed. Every action is logged.
    public func reconcile() async {
        let root = configuration.root
        guard let rows = try? await repository.segmentPaths() else {
            logger.error("cannot read the segment index to check it against \(root)")
            return
        }
        var known: [String: Int64] = [:]
        for row in rows { known[row.path] = row.id }
        var found = Set<String>()
        let enumerator = FileManager.default.enumerator(atPath: root)
        var unknown: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            guard relative.hasSuffix(".mp4"), SegmentNaming.parse(relative) != nil else { continue }
            found.insert(relative)
            if known[relative] == nil { unknown.append(relative) }
        }
        for (path, id) in known where !found.contains(path) {
            _ = try? await repository.deleteSegment(id: id)
            logger.warning("the index listed \((root as NSString).appendingPathComponent(path)) but the file is gone: its row was removed")
        }
        for relative in unknown.sorted() {
            switch SegmentRepair.repair(root: root, relativePath: relative) {
            case .repaired(let segment, let cut):
                do {
                    _ = try await repository.insertSegment(segment)
                    logger.notice("repaired and indexed \((root as NSString).appendingPathComponent(relative)): \(String(format: "%.1f", segment.duration)) s kept\(cut > 0 ? ", \(cut) bytes of an unfinished fragment cut off" : "")")
                } catch {
                    logger.error("cannot index the repaired \(relative): \(error)")
                }
            case .movedAside(let reason, let movedTo):
                logger.warning("moved \((root as NSString).appendingPathComponent(relative)) aside to \(movedTo): \(reason)")
            }
        }
    }
}
