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
        #expect(await eventually { monitor.lastCheck(cameraID: id) != nil }, "the first check's result")
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
        #expect(await eventually { checker.count.withLockedValue { $0 } >= 5 }, "five checks, one every 200 ms")
        #expect(monitor.lastCheck(cameraID: id)?.isReachable == true)

        // A minute's interval: the recheck of a stopped stream does not wait for it.
        let slow = self.monitor(interval: .seconds(60))
        defer { slow.shutdown() }
        let other = CountingChecker()
        slow.track(cameraID: id, checker: other)
        #expect(await eventually { other.count.withLockedValue { $0 } == 1 }, "the first check")
        #expect(await eventually { slow.lastCheck(cameraID: id) != nil }, "its result")
        slow.recheck(cameraID: id)
        #expect(await eventually { other.count.withLockedValue { $0 } == 2 }, "the recheck")
    }

    @Test func aCameraBeyondTheConcurrencyLimitIsCheckedWhenASlotFrees() async throws {
        let monitor = monitor(interval: .seconds(60), maxConcurrentChecks: 1)
        defer { monitor.shutdown() }
        let checkers = (0..<5).map { _ in CountingChecker() }
        for checker in checkers { monitor.track(cameraID: UUID(), checker: checker) }
        // One slot: each finished check wakes the scheduler for the next camera, long before the minute is up.
        #expect(await eventually { checkers.allSatisfy { $0.count.withLockedValue { $0 } == 1 } }, "every camera checked once")
        #expect(monitor.checksStarted == 5)
    }
}
