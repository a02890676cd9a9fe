import Foundation
@testable import Hub
import NIOConcurrencyHelpers
import Testing

/// The health monitor's scheduler on its own, with a checker that answers at once (the checks against a real
/// RTSP server are in `ServerTests/CameraHealthTests`): it wakes when there is something to do, and only then.
@Suite("Camera health monitor: the scheduler sleeps until a check is due")
struct CameraHealthMonitorTests {
    final class CountingChecker: HealthCheckable {
        let count = NIOLockedValueBox(0)
        func checkHealth(timeout: Duration) async -> HealthCheck? {
            count.withLockedValue { $0 += 1 }
            return HealthCheck(at: Date(), failure: nil)
        }
    }

    func eventually(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out waiting for \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    func monitor(interval: Duration, maxConcurrentChecks: Int = 4) -> CameraHealthMonitor {
        let monitor = CameraHealthMonitor(configuration: .init(interval: interval, jitter: 0,
                                                               maxConcurrentChecks: maxConcurrentChecks))
        monitor.attach(isWatched: { _ in false }, onChange: { _ in })
        return monitor
    }

    @Test func anIdleMonitorDoesNotWakeUp() async throws {
        let monitor = monitor(interval: .seconds(60))
        defer { monitor.shutdown() }
        try await Task.sleep(for: .milliseconds(300))
        // With no camera it looked once, at start; then slept (the old scheduler polled every 500 ms).
        let looksWithNoCamera = monitor.schedulerLooks
        try await Task.sleep(for: .milliseconds(1200))
        #expect(monitor.schedulerLooks == looksWithNoCamera)
        // A camera wakes it at once; its check done, it sleeps until the next is due, a minute away.
        let id = UUID()
        let checker = CountingChecker()
        monitor.track(cameraID: id, checker: checker)
        try await eventually("the first check's result") { monitor.lastCheck(cameraID: id) != nil }
        try await Task.sleep(for: .milliseconds(200))
        let looks = monitor.schedulerLooks
        try await Task.sleep(for: .milliseconds(1200))
        #expect(monitor.schedulerLooks == looks, "nothing due for a minute: no look")
        #expect(checker.count.withLockedValue { $0 } == 1)
    }

    @Test func checksComeEveryIntervalAndARecheckComesAtOnce() async throws {
        let monitor = monitor(interval: .milliseconds(200))
        defer { monitor.shutdown() }
        let id = UUID()
        let checker = CountingChecker()
        monitor.track(cameraID: id, checker: checker)
        try await eventually("five checks, one every 200 ms") { checker.count.withLockedValue { $0 } >= 5 }
        #expect(monitor.lastCheck(cameraID: id)?.isReachable == true)

        // A minute's interval: the recheck of a stopped stream does not wait for it.
        let slow = self.monitor(interval: .seconds(60))
        defer { slow.shutdown() }
        let other = CountingChecker()
        slow.track(cameraID: id, checker: other)
        try await eventually("the first check") { other.count.withLockedValue { $0 } == 1 }
        try await eventually("its result") { slow.lastCheck(cameraID: id) != nil }
        slow.recheck(cameraID: id)
        try await eventually("the recheck") { other.count.withLockedValue { $0 } == 2 }
    }

    @Test func aCameraBeyondTheConcurrencyLimitIsCheckedWhenASlotFrees() async throws {
        let monitor = monitor(interval: .seconds(60), maxConcurrentChecks: 1)
        defer { monitor.shutdown() }
        let checkers = (0..<5).map { _ in CountingChecker() }
        for checker in checkers { monitor.track(cameraID: UUID(), checker: checker) }
        // One slot: each finished check wakes the scheduler for the next camera, long before the minute is up.
        try await eventually("every camera checked once") { checkers.allSatisfy { $0.count.withLockedValue { $0 } == 1 } }
        #expect(monitor.checksStarted == 5)
    }
}
