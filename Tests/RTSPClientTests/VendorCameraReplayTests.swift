import Foundation
import H26x
import NIOCore
import Testing
import TestSupport
@testable import RTSPClient
import RTSPCore

/// Real cameras' DESCRIBE answers (Tests/RTSPCoreTests/Fixtures, sources in its README) served by a
/// scripted camera, followed by a captured stream relabelled with the camera's payload type: the
/// client must pick the right track, resolve the camera's control URLs, and play.
@Suite struct VendorCameraReplayTests {
    static let fixtures = PeerRTSPServer.repositoryRoot.appendingPathComponent("Tests/RTSPCoreTests/Fixtures")

    /// The SDP of a fixture that is either a whole DESCRIBE response or a bare SDP.
    static func sdp(of name: String) throws -> String {
        let text = try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
        guard text.hasPrefix("RTSP/") else { return text }
        for separator in ["\r\n\r\n", "\n\n"] {
            if let range = text.range(of: separator) { return String(text[range.upperBound...]) }
        }
        return text
    }

    /// Replays the capture matching the fixture's codec; returns what the client saw.
    func play(_ fixture: String) async throws -> (Watched, expected: Int, codec: VideoCodec) {
        let sdpText = try Self.sdp(of: fixture)
        let sdp = try SessionDescription.parse(sdpText)
        let video = try #require(sdp.media.first { $0.type == "video" })
        let pt = try #require(video.payloadType)
        let codec: VideoCodec = video.encodingName == "H265" ? .h265 : .h264
        let capture = try ScriptedCamera.capture(codec == .h265 ? "gstreamer_h265_320x240" : "gstreamer_h264_320x240")
        let expected = try offlineFrames(capture).frames
        let packets = capture.packets.map { packet -> (channel: UInt8, payload: ByteBuffer) in
            guard packet.channel == 0 else { return packet }
            var payload = packet.payload
            let byte = payload.getInteger(at: payload.readerIndex + 1, as: UInt8.self)!
            payload.setInteger((byte & 0x80) | pt, at: payload.readerIndex + 1)
            return (0, payload)
        }
        let camera = try await ScriptedCamera(.init(sdp: sdpText, packets: packets))
        defer { camera.close() }
        let (seen, _, _) = try await watch(camera.url("/Streaming/Channels/101"))
        return (seen, expected, codec)
    }

    func check(_ fixture: String) async throws {
        let (seen, expected, codec) = try await play(fixture)
        // In-band parameter sets (320x240) replace whatever the camera's SDP advertised.
        #expect(seen.format?.codec == codec)
        #expect(seen.format?.width == 320)
        #expect(seen.format?.height == 240)
        #expect(seen.frames == expected, "\(fixture): \(seen.frames) of \(expected) frames")
    }

    @Test func hikvisionMediaServerV5() async throws { try await check("hikvision_mediaserver_v5_sdp.txt") }
    @Test func hikvisionMediaServerV3Playback() async throws { try await check("hikvision_mediaserver_v3_playback_describe.txt") }
    @Test func dahuaC5AH265() async throws { try await check("dahua_c5a_sdp.txt") }
    /// Ezviz C6N: says H265 but sends an H.264-style fmtp with an empty sprop-parameter-sets, and absolute control URLs.
    @Test func ezvizC6N() async throws { try await check("ezviz_c6n_describe.txt") }
    @Test func foscamFI8620() async throws { try await check("foscam_fi8620_describe.txt") }
    /// H3C-based "VCP IPC": payload type 105 and an ONVIF metadata track.
    @Test func h3cVcpIPC() async throws { try await check("h3c_vcp_ipc_sdp.txt") }
    @Test func honeywellIPC() async throws { try await check("honeywell_ipc_describe.txt") }
    /// Samsung iPOLiS: a non-zero port in the m= line and payload type 98.
    @Test func samsungIPOLiS() async throws { try await check("samsung_ipolis_describe.txt") }
    @Test func tplinkIPCH265() async throws { try await check("tplink_ipc_h265_describe.txt") }
    /// An unbranded camera whose SDP has no v= line.
    @Test func unbrandedCameraWithoutVersionLine() async throws { try await check("unbranded_ipc_describe_no_version.txt") }
}
