import Foundation
import H26x
@testable import Hub
import NIOConcurrencyHelpers
import NIOCore
import RTSPClient
import RTSPCore
import Testing

@Suite("StreamHub: one upstream per camera, GOP cache, bounded viewers, slots, states", .serialized)
struct StreamHubTests {
    func hub(maxUpstreams: Int = 16, grace: Duration = .milliseconds(300), frozenAfter: Duration = .seconds(5),
             viewerQueue: Int = 75) -> StreamHub {
        StreamHub(configuration: .init(maxUpstreams: maxUpstreams, gracePeriod: grace, frozenAfter: frozenAfter,
                                       viewerQueueFragments: viewerQueue))
    }

    @Test func oneUpstreamWhateverTheNumberOfViewers() async throws {
        let hub = hub()
        let camera = UUID()
        let upstream = CountingUpstream(fastDemo())
        await hub.register(cameraID: camera, upstreams: [.main: upstream], isActive: true)
        let readers = try (0..<3).map { _ in ViewerReader(try hub.watch(cameraID: camera)) }
        #expect(await eventually { readers.allSatisfy { $0.value.fragments >= 30 } })
        #expect(upstream.runs == 1)
        for reader in readers {
            let seen = reader.value
            #expect(seen.inits == 1)
            #expect(seen.order.first == "init", "the init segment comes before any fragment")
            #expect(seen.firstFragmentIsKeyframe == true, "a viewer starts at a keyframe")
        }
        #expect(hub.status(cameraID: camera).state == .live)
        #expect(hub.status(cameraID: camera).viewers == 3)
        await hub.shutdown()
        #expect(upstream.active == 0, "shutdown stops the upstream")
    }

    @Test func aNewViewerStartsFromTheCachedGOPAtOnce() async throws {
        let hub = hub()
        let camera = UUID()
        await hub.register(cameraID: camera, upstreams: [.main: fastDemo(frameRate: 25)], isActive: true)
        let first = ViewerReader(try hub.watch(cameraID: camera))
        // Let the stream run past its first keyframe, into the GOP.
        #expect(await eventually { first.value.fragments >= 12 })
        let late = ViewerReader(try hub.watch(cameraID: camera))
        // The cached GOP arrives in one go: more fragments than real time could have produced.
        try await Task.sleep(for: .milliseconds(100))
        let seen = late.value
        #expect(seen.inits == 1)
        #expect(seen.firstFragmentIsKeyframe == true)
        #expect(seen.fragments >= 10, "got \(seen.fragments) fragments in 100 ms: the GOP so far, at once")
        await hub.shutdown()
    }

    @Test func aViewerThatStopsReadingNeitherSlowsOthersNorGrowsWithoutBound() async throws {
        let hub = hub(viewerQueue: 20)
        let camera = UUID()
        await hub.register(cameraID: camera, upstreams: [.main: fastDemo(frameRate: 200)], isActive: true)
        let stuck = try hub.watch(cameraID: camera)  // never read
        let fast = ViewerReader(try hub.watch(cameraID: camera))
        #expect(await eventually { fast.value.fragments >= 400 })
        let skips = stuck.skipStatistics
        #expect(skips.skips >= 1, "the stuck viewer fell behind and skipped")
        #expect(skips.droppedFragments > 300)
        // The fast viewer lost nothing: every fragment from its first keyframe on.
        #expect(fast.value.fragments >= 400)
        // Once unstuck, the slow viewer resumes at a keyframe.
        let resumed = ViewerReader(stuck)
        #expect(await eventually { resumed.value.keyframes >= 1 })
        await hub.shutdown()
    }

    @Test func theUpstreamStopsAGracePeriodAfterTheLastViewerAndRestartsForTheNext() async throws {
        let hub = hub(grace: .milliseconds(300))
        let camera = UUID()
        let upstream = CountingUpstream(fastDemo())
        await hub.register(cameraID: camera, upstreams: [.main: upstream], isActive: true)
        #expect(upstream.runs == 0, "nothing runs before someone watches")
        let viewer = try hub.watch(cameraID: camera)
        #expect(await eventually { upstream.active == 1 })
        viewer.close()
        try await Task.sleep(for: .milliseconds(100))
        #expect(upstream.active == 1, "still running inside the grace period")
        #expect(await eventually(timeout: .seconds(3)) { upstream.active == 0 })
        #expect(hub.status(cameraID: camera).state == .idle)
        // A viewer coming back within the grace period keeps the same upstream.
        let again = try hub.watch(cameraID: camera)
        #expect(await eventually { upstream.active == 1 })
        again.close()
        let third = try hub.watch(cameraID: camera)
        try await Task.sleep(for: .milliseconds(500))
        #expect(upstream.runs == 2)
        third.close()
        await hub.shutdown()
    }

    @Test func aViewerOfAStreamRestartedAfterIdlingGetsAnInitSegmentFirst() async throws {
        let hub = hub(grace: .milliseconds(100))
        let camera = UUID()
        let upstream = CountingUpstream(fastDemo())
        await hub.register(cameraID: camera, upstreams: [.main: upstream], isActive: true)
        let first = try hub.watch(cameraID: camera)
        let firstReader = ViewerReader(first)
        #expect(await eventually { firstReader.value.fragments > 5 })
        first.close()
        #expect(await eventually(timeout: .seconds(3)) { upstream.active == 0 })
        // Joins while idle: the stream restarts for it.
        let second = ViewerReader(try hub.watch(cameraID: camera))
        #expect(await eventually { second.value.fragments > 5 })
        #expect(second.value.order.first == "init", "\(second.value.order)")
        #expect(second.value.firstFragmentIsKeyframe == true)
        #expect(upstream.runs == 2)
        await hub.shutdown()
    }

    /// The per-second ticker (frozen pictures, the fps window) runs only while a stream runs: an idle hub
    /// does not wake up for it, and a stream started again gets it back (and is still found frozen).
    @Test func theTickerRunsOnlyWhileAStreamRuns() async throws {
        let hub = hub(grace: .milliseconds(100), frozenAfter: .milliseconds(500))
        let camera = UUID()
        let upstream = CountingUpstream(fastDemo())
        await hub.register(cameraID: camera, upstreams: [.main: upstream], isActive: true)
        #expect(!hub.tickerRuns, "registered, nobody watching: no ticker")
        let first = try hub.watch(cameraID: camera)
        let reader = ViewerReader(first)
        #expect(await eventually { reader.value.fragments > 5 })
        #expect(hub.tickerRuns)
        first.close()
        #expect(await eventually(timeout: .seconds(3)) { upstream.active == 0 })
        #expect(await eventually(timeout: .seconds(3)) { !hub.tickerRuns }, "the stream stopped: the ticker ends")
        // Started again, then the camera stops sending: the ticker is back and finds the picture frozen.
        let frozen = UUID()
        await hub.register(cameraID: frozen, upstreams: [.main: StallingUpstream(frames: 20)], isActive: true)
        let second = ViewerReader(try hub.watch(cameraID: frozen))
        #expect(await eventually { second.value.fragments >= 1 })
        #expect(hub.tickerRuns)
        #expect(await eventually(timeout: .seconds(5)) { hub.status(cameraID: frozen).state == .frozen })
        await hub.shutdown()
    }

    @Test func frameRateIsMeasuredOnTheStreamClock() async throws {
        let hub = hub()
        let camera = UUID()
        // 100 frames a second of a clip stamped at 100 fps: the rate is what the stream says.
        await hub.register(cameraID: camera, upstreams: [.main: fastDemo(frameRate: 100)], isActive: true)
        let reader = ViewerReader(try hub.watch(cameraID: camera))
        #expect(await eventually { reader.value.fragments > 150 })
        let fps = try #require(hub.status(cameraID: camera).fps)
        #expect(abs(fps - 100) < 2, "\(fps)")
        await hub.shutdown()
    }

    @Test func theUpstreamLimitQueuesCamerasAndStartsThemWhenASlotFrees() async throws {
        let hub = hub(maxUpstreams: 1, grace: .milliseconds(100))
        let a = UUID(), b = UUID()
        await hub.register(cameraID: a, upstreams: [.main: fastDemo()], isActive: true)
        await hub.register(cameraID: b, upstreams: [.main: fastDemo()], isActive: true)
        let viewerA = try hub.watch(cameraID: a)
        let readerA = ViewerReader(viewerA)
        #expect(await eventually { readerA.value.fragments > 0 })
        let readerB = ViewerReader(try hub.watch(cameraID: b))
        #expect(await eventually { hub.status(cameraID: b).state == .limitReached })
        #expect(hub.status(cameraID: b).message?.contains("--max-streams") == true)
        viewerA.close()
        #expect(await eventually { readerB.value.fragments > 0 }, "B starts once A's slot is free")
        await hub.shutdown()
    }

    /// A viewer that gives up while its camera waits for a slot takes the camera out of the queue. (This
    /// deadlocked once: the queued stream's state was published while the hub held its own lock.)
    @Test func aViewerLeavingTheQueueReturnsItsCameraToIdleAndOthersStillStart() async throws {
        let hub = hub(maxUpstreams: 1, grace: .milliseconds(100))
        let a = UUID(), b = UUID(), c = UUID()
        for camera in [a, b, c] { await hub.register(cameraID: camera, upstreams: [.main: fastDemo()], isActive: true) }
        let viewerA = try hub.watch(cameraID: a)
        let readerA = ViewerReader(viewerA)
        #expect(await eventually { readerA.value.fragments > 0 })
        let viewerB = try hub.watch(cameraID: b)
        let readerC = ViewerReader(try hub.watch(cameraID: c))
        #expect(await eventually { hub.status(cameraID: b).state == .limitReached && hub.status(cameraID: c).state == .limitReached })
        let closed = NIOLockedValueBox(false)
        Task.detached {
            viewerB.close()
            closed.withLockedValue { $0 = true }
        }
        #expect(await eventually { closed.withLockedValue { $0 } }, "closing a queued viewer returns")
        #expect(await eventually { hub.status(cameraID: b).state == .idle })
        viewerA.close()
        #expect(await eventually { readerC.value.fragments > 0 }, "C, still queued, gets the free slot; B is skipped")
        #expect(hub.status(cameraID: b).state == .idle)
        await hub.shutdown()
    }

    @Test func authenticationFailureIsAStateWithItsReason() async throws {
        let hub = hub()
        let camera = UUID()
        let error = RTSPClientError(.authenticationFailed, "authentication failed for rtsp://127.0.0.1/x: check the username and password")
        await hub.register(cameraID: camera, upstreams: [.main: FailingUpstream(error: error)], isActive: true)
        let reader = ViewerReader(try hub.watch(cameraID: camera))
        #expect(await eventually { hub.status(cameraID: camera).state == .authenticationFailed })
        #expect(hub.status(cameraID: camera).message?.contains("check the username and password") == true)
        #expect(await eventually { reader.value.statuses.contains(.authenticationFailed) }, "the viewer is told too")
        await hub.shutdown()
    }

    @Test func aStreamThatStopsSendingIsFrozen() async throws {
        let hub = hub(frozenAfter: .milliseconds(500))
        let camera = UUID()
        await hub.register(cameraID: camera, upstreams: [.main: StallingUpstream(frames: 20)], isActive: true)
        let reader = ViewerReader(try hub.watch(cameraID: camera))
        #expect(await eventually { hub.status(cameraID: camera).state == .live })
        #expect(await eventually(timeout: .seconds(5)) { hub.status(cameraID: camera).state == .frozen })
        #expect(await eventually { reader.value.statuses.contains(.frozen) })
        await hub.shutdown()
    }

    @Test func statusChangesArePublishedToSubscribers() async throws {
        let hub = hub()
        let camera = UUID()
        await hub.register(cameraID: camera, upstreams: [.main: fastDemo()], isActive: true)
        let updates = hub.subscribe()
        let collected = Task {
            var states: [CameraState] = []
            for await (id, status) in updates where id == camera {
                if states.last != status.state { states.append(status.state) }
                if status.state == .live { break }
            }
            return states
        }
        let viewer = try hub.watch(cameraID: camera)
        let states = await collected.value
        #expect(states.contains(.connecting))
        #expect(states.last == .live)
        #expect(await eventually { hub.status(cameraID: camera).fps != nil }, "frame rate measured once frames flow")
        viewer.close()
        await hub.shutdown()
    }

    @Test func snapshotKeyframeStartsAnIdleStreamAndLetsItGo() async throws {
        let hub = hub(grace: .milliseconds(100))
        let camera = UUID()
        let upstream = CountingUpstream(fastDemo())
        await hub.register(cameraID: camera, upstreams: [.main: upstream], isActive: true)
        let (unit, format) = try await hub.keyframe(cameraID: camera, timeout: .seconds(5))
        #expect(unit.isKeyframe)
        #expect(format.codec == .h264)
        #expect(await eventually(timeout: .seconds(3)) { upstream.active == 0 }, "the stream started for a snapshot stops again")
        await hub.shutdown()
    }

    @Test func unknownAndInactiveCamerasAreClearErrors() async throws {
        let hub = hub()
        #expect(throws: HubError.self) { try hub.watch(cameraID: UUID()) }
        let camera = UUID()
        await hub.register(cameraID: camera, upstreams: [.main: fastDemo()], isActive: false)
        do {
            _ = try hub.watch(cameraID: camera)
            Issue.record("an inactive camera cannot be watched")
        } catch {
            #expect(error.kind == .inactive)
            #expect(error.description.contains("turn it on"))
        }
        #expect(hub.status(cameraID: camera).state == .stopped)
        await hub.shutdown()
    }
}
