import Foundation
import H26x
import NIOConcurrencyHelpers
import NIOCore
import RTP
import Testing
@testable import RTSPClient
import RTSPCore

/// Frames the depacketizer makes of a capture offline: what a client should see over the wire too.
func offlineFrames(_ capture: SessionCapture) throws -> (frames: Int, keyframes: Int, format: VideoFormat?) {
    let sdp = try SessionDescription.parse(capture.sdp)
    let video = try #require(sdp.media.first { $0.type == "video" })
    var depacketizer: any VideoDepacketizer = video.encodingName == "H265"
        ? H265Depacketizer(parameterSets: ["sprop-vps", "sprop-sps", "sprop-pps"].flatMap { video.formatParameters?.base64List($0) ?? [] })
        : H264Depacketizer(parameterSets: video.formatParameters?.base64List("sprop-parameter-sets") ?? [])
    var frames = 0, keyframes = 0
    for (channel, payload) in capture.packets where channel == 0 {
        let packet = try RTPPacket(parsing: payload)
        for unit in depacketizer.push(payload: packet.payload, sequenceNumber: packet.sequenceNumber, timestamp: packet.timestamp, marker: packet.marker) {
            frames += 1
            if unit.isKeyframe { keyframes += 1 }
        }
    }
    for unit in depacketizer.flush() {
        frames += 1
        if unit.isKeyframe { keyframes += 1 }
    }
    return (frames, keyframes, depacketizer.format)
}

struct Watched: Sendable {
    var frames = 0
    var keyframes = 0
    var format: VideoFormat?
}

/// Play a scripted camera until it has sent everything (it then goes quiet and the watchdog ends the session).
func watch(_ url: String, dataTimeout: TimeAmount = .milliseconds(600)) async throws -> (Watched, RTSPSessionStatistics, RTSPClientError?) {
    let seen = NIOLockedValueBox(Watched())
    let session = try await RTSPSession.start(url: try RTSPURL(string: url), configuration: RTSPClientConfiguration(dataTimeout: dataTimeout)) { event in
        seen.withLockedValue { s in
            switch event {
            case .formatChanged(let format): s.format = format
            case .video(let frame):
                s.frames += 1
                if frame.isKeyframe { s.keyframes += 1 }
            case .audioFormat, .audio:
                break
            }
        }
    }
    let reason = await session.play(for: .seconds(15))
    let stats = await session.statistics()
    await session.stop()
    return (seen.withLockedValue { $0 }, stats, reason)
}

@Suite struct CameraQuirkTests {
    @Test(arguments: ["gstreamer_h264_320x240", "gstreamer_h265_320x240"])
    func replayOverTheWireMatchesTheOfflineDepacketizer(_ fixture: String) async throws {
        let capture = try ScriptedCamera.capture(fixture)
        let expected = try offlineFrames(capture)
        #expect(expected.frames > 20)
        let camera = try await ScriptedCamera(.init(sdp: capture.sdp, packets: capture.packets))
        defer { camera.close() }
        let (seen, stats, reason) = try await watch(camera.url())
        #expect(reason?.kind == .noData, "the camera goes quiet after the capture ends")
        #expect(seen.frames == expected.frames)
        #expect(seen.keyframes == expected.keyframes)
        #expect(seen.format == expected.format)
        #expect(stats.packetsLost == 0)
        #expect(seen.format?.width == 320)
        #expect(seen.format?.height == 240)
    }

    /// Quirk: cameras that never set the RTP marker bit; access units end on the timestamp change instead.
    @Test func cameraThatNeverSetsTheMarkerBit() async throws {
        let capture = try ScriptedCamera.capture("gstreamer_h264_320x240")
        let expected = try offlineFrames(capture)
        var packets = capture.packets
        for index in packets.indices where packets[index].channel == 0 {
            // Clear the M bit (second byte, top bit) in place.
            var payload = packets[index].payload
            let byte = payload.getInteger(at: payload.readerIndex + 1, as: UInt8.self)!
            payload.setInteger(byte & 0x7F, at: payload.readerIndex + 1)
            packets[index].payload = payload
        }
        let camera = try await ScriptedCamera(.init(sdp: capture.sdp, packets: packets))
        defer { camera.close() }
        let (seen, _, _) = try await watch(camera.url())
        // The last unit has no following timestamp to end it before the session closes.
        #expect(seen.frames >= expected.frames - 1)
        #expect(seen.frames <= expected.frames)
        #expect(seen.keyframes == expected.keyframes)
    }

    /// Quirk: bytes that are neither RTSP nor `$` frames between interleaved packets.
    @Test func garbageBetweenInterleavedPacketsIsSkipped() async throws {
        let capture = try ScriptedCamera.capture("gstreamer_h264_320x240")
        let expected = try offlineFrames(capture)
        let camera = try await ScriptedCamera(.init(sdp: capture.sdp, packets: capture.packets,
                                                    garbageBetweenPackets: Array("\r\n\u{0}junk\u{7f}".utf8)))
        defer { camera.close() }
        let (seen, stats, _) = try await watch(camera.url())
        #expect(seen.frames == expected.frames)
        #expect(stats.packetsLost == 0)
    }

    /// Quirk: responses without a CSeq header.
    @Test func responsesWithoutCSeq() async throws {
        let capture = try ScriptedCamera.capture("gstreamer_h264_320x240")
        let camera = try await ScriptedCamera(.init(sdp: capture.sdp, packets: capture.packets, omitCSeq: true))
        defer { camera.close() }
        let (seen, _, _) = try await watch(camera.url())
        #expect(seen.frames > 20)
    }

    /// Lost packets: the damaged unit is dropped, the stream resumes at the next keyframe, loss is counted.
    @Test func lossDropsUntilTheNextKeyframe() async throws {
        let capture = try ScriptedCamera.capture("gstreamer_h264_320x240")
        let expected = try offlineFrames(capture)
        var packets = capture.packets
        // Drop every 40th RTP packet.
        var dropped = 0
        packets = packets.enumerated().filter { index, packet in
            if packet.channel == 0 && index % 40 == 20 { dropped += 1; return false }
            return true
        }.map(\.element)
        let camera = try await ScriptedCamera(.init(sdp: capture.sdp, packets: packets))
        defer { camera.close() }
        let (seen, stats, _) = try await watch(camera.url())
        #expect(stats.packetsLost == dropped)
        #expect(seen.frames < expected.frames)
        #expect(seen.keyframes == expected.keyframes)
    }

    @Test func basicAuthOnAScriptedCamera() async throws {
        let capture = try ScriptedCamera.capture("gstreamer_h264_320x240")
        let camera = try await ScriptedCamera(.init(sdp: capture.sdp, packets: capture.packets, requireAuth: ("admin", "12345")))
        defer { camera.close() }
        let (seen, _, _) = try await watch(camera.url(user: "admin", password: "12345"))
        #expect(seen.frames > 20)
        await #expect(throws: RTSPClientError.self) { _ = try await watch(camera.url(user: "admin", password: "nope")) }
    }
}
