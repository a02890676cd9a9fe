import Foundation
@testable import Hub
import NIOCore
import Testing

@Suite("HubInstrumentation: the live path's latency histogram, and arrivals carried through a viewer's queue")
struct HubInstrumentationTests {
    @Test func percentilesComeFromTheSamples() {
        let probe = HubInstrumentation()
        let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
        // 98 fragments at 0.1 ms, one at 5 ms, one at 250 ms (past the histogram's end: the max stays exact).
        for _ in 0..<98 { probe.fragmentWritten(arrival: start, now: start + .microseconds(100)) }
        probe.fragmentWritten(arrival: start, now: start + .milliseconds(5))
        probe.fragmentWritten(arrival: start, now: start + .milliseconds(250))
        probe.frameArrived()
        let snapshot = probe.snapshot()
        #expect(snapshot.fragments == 100)
        #expect(snapshot.framesIn == 1)
        #expect(snapshot.p50Micros == 110)  // the upper edge of the 10 µs bucket holding 100 µs
        #expect(snapshot.p99Micros == 5010)
        #expect(snapshot.maxMicros == 250_000)
        #expect(abs(snapshot.meanMicros - (98 * 100 + 5000 + 250_000) / 100) < 0.001)
        probe.reset()
        #expect(probe.snapshot() == HubInstrumentation.Snapshot(fragments: 0, p50Micros: 0, p99Micros: 0, maxMicros: 0,
                                                                 meanMicros: 0, framesIn: 0))
    }

    @Test func aClockGoingBackwardsCountsAsNoDelay() {
        let probe = HubInstrumentation()
        let now = NIODeadline.uptimeNanoseconds(5_000_000)
        probe.fragmentWritten(arrival: now + .milliseconds(1), now: now)
        #expect(probe.snapshot().maxMicros == 0)
        #expect(probe.snapshot().fragments == 1)
    }

    @Test func aLiveFragmentKeepsItsArrivalThroughTheQueue() {
        let viewer = Viewer(cameraID: UUID(), variant: .main, maxFragments: 10)
        let arrival = NIODeadline.uptimeNanoseconds(42)
        viewer.push(.fragment(ByteBuffer(repeating: 1, count: 10), isKeyframe: true), arrival: arrival)
        viewer.push(.fragment(ByteBuffer(repeating: 0, count: 10), isKeyframe: false))
        // As the live socket's pump takes them.
        guard case .message(_, let first) = viewer.poll() else { Issue.record("the first fragment"); return }
        #expect(first == arrival)
        guard case .message(_, let second) = viewer.poll() else { Issue.record("the second fragment"); return }
        #expect(second == nil)
    }
}
