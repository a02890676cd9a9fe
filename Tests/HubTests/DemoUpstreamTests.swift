import Foundation
import H26x
@testable import Hub
import Logging
import NIOConcurrencyHelpers
import NIOCore
import RTSPClient
import RTSPCore
import Testing

/// The demo's timing tests and the snapshot tests (which keep ffmpeg busy on every core) run one after
/// the other rather than against each other.
@Suite(.serialized) struct HubMediaTests {}

/// Collects what an upstream reports, from any thread, with when it arrived.
private final class DemoEventLog: Sendable {
    private let box = NIOLockedValueBox<[(event: UpstreamEvent, at: NIODeadline)]>([])

    func append(_ event: UpstreamEvent) { box.withLockedValue { $0.append((event, .now())) } }
    var events: [UpstreamEvent] { box.withLockedValue { $0.map(\.event) } }
    var frames: [MediaFrame] {
        events.compactMap { if case .media(.video(let frame)) = $0 { frame } else { nil } }
    }
    /// When the format arrived: the demo's clock starts right after it.
    var formatAt: NIODeadline? {
        box.withLockedValue { log in
            log.first { if case .media(.formatChanged) = $0.event { true } else { false } }?.at
        }
    }
}

/// Runs `upstream` in a task; returns the task and its log.
private func startDemo(_ upstream: DemoUpstream) -> (Task<Void, Never>, DemoEventLog) {
    let log = DemoEventLog()
    let task = Task { await upstream.run { log.append($0) } }
    return (task, log)
}

/// Waits until `condition` holds or `limit` passes; true when it held.
private func waitFor(_ limit: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

/// Cancels `task` and returns how long it took to finish.
private func cancelAndTime(_ task: Task<Void, Never>) async -> Duration {
    let started = ContinuousClock.now
    task.cancel()
    await task.value
    return ContinuousClock.now - started
}

private func fixtureURL(_ name: String) throws -> URL {
    try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
}

private func bytes(_ unit: AccessUnit) -> [[UInt8]] {
    unit.nalUnits.map { Array($0.readableBytesView) }
}

private func nalTypes(_ unit: AccessUnit) -> [UInt8] {
    unit.nalUnits.map { $0.getInteger(at: $0.readerIndex, as: UInt8.self)! & 0x1F }
}

private let quiet = Logger(label: "test.demo")

extension HubMediaTests {
    @Suite("DemoUpstream")
    struct DemoUpstreamTests {
        @Test("the bundled clip is 8 s of 1280x720 H.264 that starts every GOP with an IDR")
        func bundledClip() throws {
            let clip = try DemoUpstream.loadClip(DemoUpstream.bundledClip)
            #expect(clip.format.codec == .h264)
            #expect(clip.format.width == 1280 && clip.format.height == 720)
            #expect(clip.format.frameRate == 25)
            #expect(clip.format.profileName == "Main")
            #expect(clip.units.count == 200)
            #expect(clip.units.allSatisfy { $0.codec == .h264 })
            let keyframes = clip.units.indices.filter { clip.units[$0].isKeyframe }
            #expect(keyframes == [0, 50, 100, 150])
            // Every keyframe carries its SPS and PPS in band, as cameras send them; no access unit delimiters.
            for index in keyframes { #expect(nalTypes(clip.units[index]).prefix(2) == [7, 8]) }
            #expect(clip.units.allSatisfy { !nalTypes($0).contains(9) })
            #expect(clip.units.allSatisfy { nalTypes($0).filter { $0 == 1 || $0 == 5 }.count == 1 })
            let size = try FileManager.default.attributesOfItem(atPath: DemoUpstream.bundledClip.path)[.size] as? Int ?? 0
            #expect(size < 1_500_000, "the bundled clip stays small: \(size) bytes")
        }

        @Test("access units are grouped at AUDs and first slices; multi-slice pictures stay whole")
        func smallClipGrouping() throws {
            // 160x96 Baseline, 6 frames, IDR every 3, AUD before each picture, 2 slices per picture, x264's SEI.
            let clip = try DemoUpstream.loadClip(try fixtureURL("demo_small_6frames_aud_2slices.h264"))
            #expect(clip.format.width == 160 && clip.format.height == 96)
            #expect(clip.format.profileName.contains("Baseline"))
            #expect(clip.units.count == 6)
            #expect(clip.units.map(\.isKeyframe) == [true, false, false, true, false, false])
            #expect(nalTypes(clip.units[0]) == [7, 8, 6, 5, 5])
            #expect(nalTypes(clip.units[1]) == [1, 1])
            // x264 writes SPS and PPS again before every IDR picture.
            #expect(nalTypes(clip.units[3]) == [7, 8, 5, 5])
        }

        @Test("grouping does not depend on AUDs, and pictures before the first IDR are dropped")
        func groupingWithoutDelimiters() throws {
            let clip = try DemoUpstream.loadClip(try fixtureURL("demo_small_6frames_aud_2slices.h264"))
            // Re-assemble the stream without AUDs (3-byte start codes), starting with the P pictures 1 and 2,
            // which have no IDR to refer to, then the second GOP (SPS, PPS, IDR ...).
            var stream: [UInt8] = []
            for index in [1, 2, 3, 4, 5] {
                for nal in bytes(clip.units[index]) { stream += [0, 0, 1] + nal }
            }
            let reparsed = try DemoUpstream.parse(ByteBuffer(bytes: stream))
            #expect(reparsed.units.count == 3)
            #expect(reparsed.units.map(\.isKeyframe) == [true, false, false])
            #expect(reparsed.units.map(bytes) == clip.units[3...5].map(bytes))
            #expect(reparsed.format == clip.format)
        }

        @Test("a clip that is not H.264, or is missing, is reported as not found")
        func unusableClips() throws {
            #expect(throws: DemoUpstream.ClipError.self) { try DemoUpstream.parse(ByteBuffer(bytes: [UInt8](repeating: 7, count: 1000))) }
            #expect(throws: DemoUpstream.ClipError.self) { try DemoUpstream.parse(ByteBuffer()) }
            // SPS and PPS but no IDR picture.
            let clip = try DemoUpstream.loadClip(try fixtureURL("demo_small_6frames_aud_2slices.h264"))
            var stream: [UInt8] = []
            for nal in bytes(clip.units[0]).prefix(2) + bytes(clip.units[1]) { stream += [0, 0, 1] + nal }
            let noIDR = #expect(throws: DemoUpstream.ClipError.self) { try DemoUpstream.parse(ByteBuffer(bytes: stream)) }
            #expect(noIDR?.message.contains("IDR") == true)

            let missing = URL(fileURLWithPath: "/nonexistent/watchbox/demo.h264")
            let error = #expect(throws: RTSPClientError.self) { try DemoUpstream.loadClip(missing) }
            #expect(error?.kind == .notFound)
            #expect(error?.description.contains("/nonexistent/watchbox/demo.h264") == true)
        }

        @Test("runs live: connecting, playing, format, then ~25 frames a second with 3600-tick timestamps")
        func runsInRealTime() async throws {
            let (task, log) = startDemo(DemoUpstream(logger: quiet))
            #expect(await waitFor { log.formatAt != nil })
            let formatAt = try #require(log.formatAt)
            try await Task.sleep(for: .milliseconds(1300))
            let events = log.events
            let stoppedIn = await cancelAndTime(task)
            #expect(stoppedIn < .milliseconds(100), "stopped \(stoppedIn) after cancellation")

            guard events.count >= 3 else {
                Issue.record("only \(events.count) events")
                return
            }
            guard case .connecting(attempt: 1) = events[0] else { Issue.record("first event: \(events[0])"); return }
            guard case .playing(server: "WatchBox demo") = events[1] else { Issue.record("second event: \(events[1])"); return }
            guard case .media(.formatChanged(let format)) = events[2] else { Issue.record("third event: \(events[2])"); return }
            #expect(format.width == 1280 && format.height == 720 && format.codec == .h264)

            let frames = events.dropFirst(3).compactMap { event -> MediaFrame? in
                if case .media(.video(let frame)) = event { frame } else { nil }
            }
            #expect(frames.count == events.count - 3, "nothing but frames after the format")
            // In the 1.2 s after the format at most frames 0...30 are due (the first at once); allow for a loaded machine.
            let inTime = frames.filter { $0.receivedAt - formatAt <= .milliseconds(1200) }
            #expect((25...31).contains(inTime.count), "\(inTime.count) frames in 1.2 s")
            #expect(frames.first?.isKeyframe == true)
            #expect(frames.first?.timestamp == 0)
            #expect(zip(frames, frames.dropFirst()).allSatisfy { $1.timestamp - $0.timestamp == 3600 })
            #expect(frames.allSatisfy { $0.clockRate == 90_000 && $0.trackIndex == 0 })
            #expect(frames.allSatisfy { UInt32(truncatingIfNeeded: $0.timestamp) == $0.accessUnit.rtpTimestamp })
            #expect(frames.allSatisfy { $0.accessUnit.wallClock != nil })
            #expect(zip(frames, frames.dropFirst()).allSatisfy { $1.receivedAt > $0.receivedAt })
        }

        @Test("pacing follows deadlines: frame 100 at 200 fps is sent half a second after the format, not earlier")
        func pacingDoesNotDrift() async throws {
            let (task, log) = startDemo(DemoUpstream(frameRate: 200, logger: quiet))
            #expect(await waitFor { log.frames.count >= 201 })
            _ = await cancelAndTime(task)
            let frames = log.frames
            let started = try #require(log.formatAt)
            // Late frames are caught up on (deadlines, not sleeps between frames), early ones never happen.
            for index in [50, 100, 200] {
                let sentAfter = Double((frames[index].receivedAt - started).nanoseconds) / 1e9
                let due = Double(index) / 200
                #expect(sentAfter >= due - 0.002, "frame \(index) sent \(sentAfter) s after the start")
                #expect(sentAfter < due + 0.4, "frame \(index) sent \(sentAfter) s after the start")
            }
        }

        @Test("the loop is seamless: timestamps keep their step and each loop starts with the IDR")
        func loopsSeamlessly() async throws {
            let url = try fixtureURL("demo_small_6frames_aud_2slices.h264")
            let clip = try DemoUpstream.loadClip(url)
            let demo = DemoUpstream(clip: url, frameRate: 250, logger: quiet)
            #expect(demo.timestampStep == 360)
            let (task, log) = startDemo(demo)
            #expect(await waitFor { log.frames.count >= 20 })
            _ = await cancelAndTime(task)
            let frames = log.frames
            #expect(frames.count >= 20)
            for (index, frame) in frames.enumerated() {
                #expect(frame.timestamp == Int64(index) * 360)
                #expect(bytes(frame.accessUnit) == bytes(clip.units[index % 6]), "frame \(index) is unit \(index % 6)")
                #expect(frame.isKeyframe == (index % 3 == 0))
            }
        }

        @Test("the bundled clip wraps from frame 199 to its IDR with continuous timestamps")
        func bundledClipWraps() async throws {
            let (task, log) = startDemo(DemoUpstream(frameRate: 1000, logger: quiet))
            #expect(await waitFor { log.frames.count >= 205 })
            _ = await cancelAndTime(task)
            let frames = log.frames
            #expect(frames[199].isKeyframe == false)
            #expect(frames[200].isKeyframe == true)
            #expect(frames[200].timestamp - frames[199].timestamp == 90)
            #expect(bytes(frames[200].accessUnit) == bytes(frames[0].accessUnit))
        }

        @Test("an unreadable clip reports a disconnection and waits until cancelled")
        func unreadableClip() async throws {
            let demo = DemoUpstream(clip: URL(fileURLWithPath: "/nonexistent/watchbox/demo.h264"), logger: quiet)
            let (task, log) = startDemo(demo)
            #expect(await waitFor { log.events.count >= 2 })
            try await Task.sleep(for: .milliseconds(100))
            let events = log.events
            #expect(events.count == 2)
            if case .connecting(attempt: 1) = events[0] {} else { Issue.record("first event: \(events[0])") }
            if case .disconnected(let error, let retryIn) = events[1] {
                #expect(error.kind == .notFound)
                #expect(error.message.contains("/nonexistent/watchbox/demo.h264"))
                #expect(retryIn == .seconds(60))
            } else {
                Issue.record("second event: \(events[1])")
            }
            let stoppedIn = await cancelAndTime(task)
            #expect(stoppedIn < .milliseconds(100), "stopped \(stoppedIn) after cancellation")
        }

        @Test("a frame rate that makes no sense falls back to 25")
        func frameRateFallback() {
            #expect(DemoUpstream(frameRate: 0, logger: quiet).frameRate == 25)
            #expect(DemoUpstream(frameRate: -3, logger: quiet).frameRate == 25)
            #expect(DemoUpstream(frameRate: .nan, logger: quiet).frameRate == 25)
            #expect(DemoUpstream(logger: quiet).timestampStep == 3600)
            #expect(DemoUpstream(frameRate: 30, logger: quiet).timestampStep == 3000)
        }
    }
}
