import Foundation
import NIOConcurrencyHelpers
import NIOCore
@testable import RTSPClient
import RTSPCore
import Testing
import TestSupport

/// Merged reads (`RTSPClientConfiguration.readInterval`) against GStreamer's RTSP server: frames are read in
/// batches on the interval's grid, none is lost or reordered, and the RTSP exchange before PLAY is not paced.
@Suite(.serialized, .enabled(if: PeerRTSPServer.isAvailable, "GStreamer's RTSP server is not installed; scripts/test installs it"))
struct ReadPacerTests {
    /// When each frame was read, and its RTP timestamp; and how long the session took to start.
    func frames(readInterval: TimeAmount?, url: String, seconds: Double) async throws -> (reads: [NIODeadline], timestamps: [Int64], start: Duration) {
        let seen = NIOLockedValueBox<(reads: [NIODeadline], timestamps: [Int64])>(([], []))
        var configuration = RTSPClientConfiguration()
        configuration.readInterval = readInterval
        let started = ContinuousClock.now
        let session = try await RTSPSession.start(url: try RTSPURL(string: url), configuration: configuration) { event in
            if case .video(let frame) = event {
                seen.withLockedValue { $0.reads.append(frame.receivedAt); $0.timestamps.append(frame.timestamp) }
            }
        }
        let start = ContinuousClock.now - started
        try await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
        await session.stop()
        let result = seen.withLockedValue { $0 }
        return (result.reads, result.timestamps, start)
    }

    /// Frames read within 15 ms of each other came in one batch.
    func batches(_ reads: [NIODeadline]) -> Int {
        guard var previous = reads.first else { return 0 }
        var count = 1
        for read in reads.dropFirst() {
            if read - previous > .milliseconds(15) { count += 1 }
            previous = read
        }
        return count
    }

    @Test func framesAreReadInBatchesOnTheGridAndNoneIsLost() async throws {
        let server = try PeerRTSPServer(["--codec", "h264", "--width", "320", "--height", "240"])
        defer { server.stop() }
        // The server's first session starts its pipeline (the encoder): pay that before timing the starts below.
        _ = try await frames(readInterval: nil, url: server.url(), seconds: 0.3)
        let paced = try await frames(readInterval: .milliseconds(200), url: server.url(), seconds: 3)
        let unpaced = try await frames(readInterval: nil, url: server.url(), seconds: 3)
        // 25 fps: about 75 frames either way, every RTP timestamp step one frame (3600 at 90 kHz).
        for run in [paced, unpaced] {
            #expect(run.timestamps.count >= 50, "\(run.timestamps.count) frames")
            let steps = Set(zip(run.timestamps.dropFirst(), run.timestamps).map { $0 - $1 })
            #expect(steps == [3600], "timestamp steps \(steps)")
        }
        // Read as they come: about one batch per frame. Paced at 200 ms: about 5 frames a batch.
        #expect(batches(unpaced.reads) >= 45, "\(batches(unpaced.reads)) batches unpaced")
        #expect(batches(paced.reads) <= 35, "\(batches(paced.reads)) batches paced")
        // The requests before PLAY are not paced: starting takes no 200 ms steps per request.
        #expect(paced.start < unpaced.start + .milliseconds(500), "start \(paced.start) paced, \(unpaced.start) not")
    }

    /// A picture waits at most one interval, counted from its first packet, even from a server that writes with
    /// Nagle's algorithm: the scripted camera writes as GStreamer's does (a picture's first packet alone, then the
    /// rest, which its kernel holds until the first is acknowledged). Holding reads mid-picture made such a
    /// picture wait for the next instant after its start was read: up to the interval plus the 40 ms the
    /// client's kernel may take to acknowledge on its own.
    @Test func aPictureWaitsAtMostOneIntervalFromANagleServer() async throws {
        let capture = try ScriptedCamera.capture("gstreamer_h264_320x240")
        var script = ScriptedCamera.Script(sdp: capture.sdp, packets: capture.packets)
        script.pictureByPicture = true
        script.nagle = true
        script.pause = .milliseconds(40)
        let camera = try await ScriptedCamera(script)
        defer { camera.close() }
        var configuration = RTSPClientConfiguration()
        configuration.readInterval = .milliseconds(200)
        let seen = NIOLockedValueBox<[(timestamp: UInt32, at: NIODeadline)]>([])
        let session = try await RTSPSession.start(url: try RTSPURL(string: camera.url()), configuration: configuration) { event in
            if case .video(let frame) = event {
                seen.withLockedValue { $0.append((frame.accessUnit.rtpTimestamp, frame.receivedAt)) }
            }
        }
        try await Task.sleep(for: .seconds(3))
        await session.stop()
        let sent = camera.pictureSentAt.withLockedValue { $0 }
        let frames = seen.withLockedValue { $0 }
        let waits = frames.compactMap { frame in sent[frame.timestamp].map { Double((frame.at - $0).nanoseconds) / 1e6 } }
        #expect(waits.count >= 50, "\(waits.count) pictures timed")
        let longest = waits.max() ?? .infinity
        // Up to the interval, and the timers' few ms late; holding mid-picture added up to the 40 ms the client's
        // kernel takes to acknowledge on its own (240–261 ms).
        #expect(longest < 230, "a picture waited \(Int(longest)) ms from its first packet, paced at 200 ms")
        // Still merged: about five pictures a read, not one.
        #expect(batches(frames.map(\.at)) <= waits.count / 3, "\(batches(frames.map(\.at))) batches for \(waits.count) pictures")
    }
}
