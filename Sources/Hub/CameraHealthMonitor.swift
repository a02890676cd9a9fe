import Foundation
import Logging
import NIOConcurrencyHelpers

/// Knows, at all times, whether the cameras nobody is watching are up: checks each one when it is
/// registered (or changed) and then every `interval` (± `jitter`, so checks of many cameras spread out),
/// at most `maxConcurrentChecks` at once. A check is ``HealthCheckable/checkHealth(timeout:)`` (for RTSP
/// OPTIONS + DESCRIBE): it is not demand, starts no stream and takes no upstream slot. Cameras being
/// watched are judged by their live stream: their turn is skipped.
///
/// Owned by ``StreamHub``; it calls ``attach(isWatched:onChange:)`` once, then `track`/`forget` as
/// cameras come and go, and ``recheck(cameraID:)`` when a camera's stream stops.
public final class CameraHealthMonitor: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Time between two checks of a camera.
        public var interval: Duration
        /// Each wait is `interval` × (1 ± `jitter`).
        public var jitter: Double
        public var maxConcurrentChecks: Int
        /// A check that takes longer fails ("did not answer …").
        public var timeout: Duration

        public init(interval: Duration = .seconds(60), jitter: Double = 0.1, maxConcurrentChecks: Int = 4,
                    timeout: Duration = .seconds(5)) {
            self.interval = interval
            self.jitter = jitter
            self.maxConcurrentChecks = maxConcurrentChecks
            self.timeout = timeout
        }
    }

    private struct Target {
        var checker: any HealthCheckable
        var due: ContinuousClock.Instant
        var running: Task<Void, Never>?
        /// Bumped on every `track`/`recheck`: the result of a check started before is dropped.
        var generation: Int
        var last: HealthCheck?
    }

    private struct State {
        var targets: [UUID: Target] = [:]
        var inFlight = 0
        var loop: Task<Void, Never>?
        /// The scheduler's current sleep (until the next due check); cancelled to wake it early.
        var sleeper: Task<Void, Never>?
        /// A wake-up came while the scheduler was not asleep: it looks again before it sleeps.
        var poked = false
        var isWatched: (@Sendable (UUID) -> Bool)?
        var onChange: (@Sendable (UUID) -> Void)?
        var shutDown = false
        /// Counts every check started (for tests and logs).
        var started = 0
        /// Counts the scheduler's looks for due checks (for tests: an idle monitor does not look).
        var looks = 0
    }

    public let configuration: Configuration
    private let logger: Logger
    private let state = NIOLockedValueBox(State())

    public init(configuration: Configuration = Configuration(), logger: Logger = Logger(label: "watchbox.health")) {
        var configuration = configuration
        configuration.maxConcurrentChecks = max(1, configuration.maxConcurrentChecks)
        configuration.jitter = min(max(configuration.jitter, 0), 0.5)
        self.configuration = configuration
        self.logger = logger
    }

    /// Starts the scheduler. `isWatched` says whether a camera's stream runs or is wanted (then it is not
    /// checked); `onChange` is told after every check of a camera (not under any lock).
    ///
    /// The scheduler sleeps until the next check is due (an idle hub does not wake up to find nothing to do),
    /// and is woken early when that changes: a camera tracked or rechecked, a check finished.
    public func attach(isWatched: @escaping @Sendable (UUID) -> Bool, onChange: @escaping @Sendable (UUID) -> Void) {
        state.withLockedValue { state in
            state.isWatched = isWatched
            state.onChange = onChange
        }
        let loop = Task.detached { [weak self] in
            while !Task.isCancelled {
                guard let sleeper = self?.startDueChecksAndSleep() else { return }
                await withTaskCancellationHandler { await sleeper.value } onCancel: { sleeper.cancel() }
            }
        }
        state.withLockedValue { $0.loop = loop }
    }

    /// Checks `cameraID` with `checker` from now on: the first check at once, the last result forgotten.
    public func track(cameraID: UUID, checker: any HealthCheckable) {
        let old = state.withLockedValue { state -> Task<Void, Never>? in
            let previous = state.targets[cameraID]
            state.targets[cameraID] = Target(checker: checker, due: .now, running: nil,
                                             generation: (previous?.generation ?? 0) + 1, last: nil)
            return previous?.running
        }
        old?.cancel()
        wake()
    }

    /// Stops checking a camera.
    public func forget(cameraID: UUID) {
        let old = state.withLockedValue { $0.targets.removeValue(forKey: cameraID)?.running }
        old?.cancel()
    }

    /// Forgets the last result and checks again at once (the camera's stream stopped: what it said
    /// while it ran is older than what a check will tell).
    public func recheck(cameraID: UUID) {
        state.withLockedValue { state in
            guard var target = state.targets[cameraID] else { return }
            target.generation += 1
            target.last = nil
            target.due = .now
            state.targets[cameraID] = target
        }
        wake()
    }

    /// The last check of a camera, if it had one since it was tracked (or last rechecked).
    public func lastCheck(cameraID: UUID) -> HealthCheck? {
        state.withLockedValue { $0.targets[cameraID]?.last }
    }

    /// How many checks have started since the monitor was made.
    public var checksStarted: Int { state.withLockedValue { $0.started } }

    /// How many times the scheduler has woken to look for due checks.
    public var schedulerLooks: Int { state.withLockedValue { $0.looks } }

    public func shutdown() {
        let tasks = state.withLockedValue { state -> [Task<Void, Never>] in
            state.shutDown = true
            var tasks = state.targets.values.compactMap(\.running)
            if let loop = state.loop { tasks.append(loop) }
            state.loop = nil
            return tasks
        }
        for task in tasks { task.cancel() }
    }

    // MARK: - Scheduling

    private func nextDue(after now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        let factor = 1 + Double.random(in: -configuration.jitter...configuration.jitter)
        return now + configuration.interval * factor
    }

    /// Wakes the scheduler to look at the due checks again.
    private func wake() {
        let sleeper = state.withLockedValue { state -> Task<Void, Never>? in
            guard let sleeper = state.sleeper else {
                state.poked = true
                return nil
            }
            state.sleeper = nil
            return sleeper
        }
        sleeper?.cancel()
    }

    /// Starts the checks that are due, then returns the scheduler's sleep: until the next check is due among
    /// those not running (a finished check wakes it), at once if it was woken meanwhile.
    private func startDueChecksAndSleep() -> Task<Void, Never> {
        // Awake: from here a wake-up is a poke, which the next look or the next sleep's length answers.
        state.withLockedValue { $0.sleeper = nil }
        startDueChecks()
        let now = ContinuousClock.now
        return state.withLockedValue { state in
            var until: ContinuousClock.Instant
            if state.poked {
                state.poked = false
                until = now
            } else if state.inFlight >= configuration.maxConcurrentChecks || state.shutDown {
                // No slot: a check finishing wakes it. (Shut down: the loop is being cancelled.)
                until = now + configuration.interval
            } else {
                // Nothing to check: sleep for as long as a check would wait (the next camera wakes it).
                until = state.targets.values.lazy.filter { $0.running == nil }.map(\.due).min() ?? now + configuration.interval
            }
            let sleeper = Task { _ = try? await Task.sleep(until: until, clock: .continuous) }
            state.sleeper = sleeper
            return sleeper
        }
    }

    private func startDueChecks() {
        let now = ContinuousClock.now
        let isWatched = state.withLockedValue { $0.isWatched }
        // Who is due, outside the lock: `isWatched` reads the hub's state.
        let due = state.withLockedValue { state -> [UUID] in
            state.poked = false
            state.looks += 1
            return state.targets.filter { $0.value.running == nil && $0.value.due <= now }
                .sorted { $0.value.due < $1.value.due }.map(\.key)
        }
        guard !due.isEmpty else { return }
        let watched = Set(due.filter { isWatched?($0) == true })
        state.withLockedValue { state in
            guard !state.shutDown else { return }
            for id in due {
                guard var target = state.targets[id], target.running == nil else { continue }
                if watched.contains(id) {
                    // Judged by its live stream; look again next round.
                    target.due = nextDue(after: now)
                    state.targets[id] = target
                    continue
                }
                guard state.inFlight < configuration.maxConcurrentChecks else { break }
                state.inFlight += 1
                state.started += 1
                let generation = target.generation
                let checker = target.checker
                let timeout = configuration.timeout
                target.running = Task.detached { [weak self] in
                    let result = await checker.checkHealth(timeout: timeout)
                    self?.finished(id, generation: generation, result: result)
                }
                state.targets[id] = target
            }
        }
    }

    private func finished(_ id: UUID, generation: Int, result: HealthCheck?) {
        let (notify, changed) = state.withLockedValue { state -> ((@Sendable (UUID) -> Void)?, Bool) in
            state.inFlight -= 1
            guard var target = state.targets[id] else { return (nil, false) }
            target.running = nil
            guard target.generation == generation, let result else {
                // Superseded (re-registered, stream stopped since) or cancelled: check again soon.
                state.targets[id] = target
                return (nil, false)
            }
            var check = result
            if !check.isReachable {
                check.failingSince = target.last.flatMap { $0.isReachable ? nil : $0.failingSince } ?? check.at
            }
            let changed = target.last?.isReachable != check.isReachable || target.last?.failure != check.failure
            target.last = check
            target.due = nextDue(after: .now)
            state.targets[id] = target
            return (state.onChange, changed)
        }
        // A slot is free and this camera's next check has a new time: the scheduler looks again.
        wake()
        if changed {
            if let failure = result?.failure {
                logger.warning("camera check failed", metadata: ["camera": "\(id)", "error": "\(failure.message)"])
            } else {
                logger.info("camera check passed", metadata: ["camera": "\(id)"])
            }
        }
        notify?(id)
    }
}
