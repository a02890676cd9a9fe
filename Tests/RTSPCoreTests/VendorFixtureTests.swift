import NIOCore
import RTSPCore
import Testing

/// Real cameras' bytes from public bug reports; sources and edits in Fixtures/README.md.
@Suite("Vendor fixtures")
struct VendorFixtureTests {
    /// Parses a fixture holding one RTSP message, whole and byte by byte, and checks that
    /// the body is exactly Content-Length long (which also proves the CRLF restoration).
    private func response(_ name: String) throws -> RTSPResponse {
        let bytes = try TestSupport.fixture(name)
        let whole = TestSupport.events(bytes, splitAt: [])
        let split = TestSupport.eventsByteByByte(bytes)
        #expect(whole.events == split.events, "\(name): byte-by-byte differs")
        #expect(whole.events.count == 1, "\(name): expected exactly one message")
        #expect(whole.parser.bufferedBytes == 0 && whole.parser.discardedBytes == 0, "\(name): leftover or skipped bytes")
        let response = try #require(whole.events.first?.response, "\(name): not a response")
        if let length = response.headers.first(name: "Content-Length").flatMap({ Int($0) }) {
            #expect(response.body?.readableBytes == length, "\(name): body length")
        }
        return response
    }

    private func describe(_ name: String) throws -> (RTSPResponse, SessionDescription) {
        let message = try response(name)
        let sdp = try SessionDescription.parse(try #require(message.bodyString))
        return (message, sdp)
    }

    @Test func hikvisionMediaServerV3PlaybackDescribe() throws {
        // Quirk: audio fmtp with spaces after ';' and a trailing ';'; a=range:clock=…
        let (message, sdp) = try describe("hikvision_mediaserver_v3_playback_describe")
        #expect(message.statusCode == 200 && message.cseq == 2)
        #expect(sdp.sessionName == "HIK Media Server V3.4.109")
        #expect(sdp.control == "*")
        #expect(sdp.range == "clock=20200618T212222Z-20200618T212312Z")
        #expect(sdp.media.map(\.control) == ["trackID=video", "trackID=audio"])
        #expect(sdp.media[0].encodingName == "H264")
        #expect(sdp.media[0].formatParameters?["packetization-mode"] == "0")
        let aac = try #require(sdp.media[1].formatParameters)
        #expect(sdp.media[1].encodingName == "MPEG4-GENERIC")
        #expect(sdp.media[1].clockRate == 32000)
        #expect(aac["config"] == "1408" && aac["sizelength"] == "13" && aac["profile"] == "1")
        #expect(sdp.warnings.isEmpty)
    }

    @Test func hikvisionMediaServerV5FmtpOnOtherPayloadType() throws {
        // Quirk: m=audio 0 RTP/AVP 104 but a=fmtp:97.
        let text = try TestSupport.fixtureText("hikvision_mediaserver_v5_sdp")
        #expect(text.utf8.count == 724)  // the Content-Length the camera announced
        let sdp = try SessionDescription.parse(text)
        let audio = sdp.media[1]
        #expect(audio.payloadType == 104)
        #expect(audio.fmtps[104] == nil)
        #expect(audio.formatParameters?["config"] == "1408")
        #expect(audio.formatParameters?["mode"] == "AAC-hbr")
        #expect(sdp.warnings.count == 1)
    }

    @Test func hikvisionDS2CD1148Unauthorized() throws {
        // Quirk: Digest and Basic in two headers, stale="FALSE", "Date:  Sat" with two spaces.
        let message = try response("hikvision_ds2cd1148_401")
        #expect(message.statusCode == 401 && message.reasonPhrase == "Unauthorized")
        #expect(message.headers.first(name: "Date") == "Sat, Apr 25 2026 00:05:48 GMT")
        let challenges = AuthChallenge.parse(message.headers["WWW-Authenticate"])
        #expect(challenges == [
            .digest(DigestChallenge(realm: "b4a38201a73f", nonce: "739ee6c7ea93532ef87d5f319b155537")),
            .basic(realm: "b4a38201a73f"),
        ])
        let authenticator = RTSPAuthenticator(credentials: RTSPCredentials(username: "user", password: "password"), challenges: challenges)
        #expect(authenticator?.schemeDescription == "Digest MD5")
    }

    @Test func univiewIPC2122LBUnauthorized() throws {
        // Quirk: realm="…",nonce="…" without a space after the comma.
        let message = try response("uniview_ipc2122lb_401")
        #expect(AuthChallenge.parse(message.headers["WWW-Authenticate"]) == [
            .digest(DigestChallenge(realm: "c4790503a344", nonce: "d809bdf662f8362492f0e04dfeee1751")),
        ])
    }

    @Test func dahuaC5AH265WithBackchannel() throws {
        // Quirk: a=framerate:30.000000, H.265 sprop-vps/sps/pps, duplicated audio sections.
        let sdp = try SessionDescription.parse(try TestSupport.fixtureText("dahua_c5a_sdp"))
        #expect(sdp.media.count == 3)
        let video = sdp.media[0]
        #expect(video.encodingName == "H265" && video.payloadType == 98)
        #expect(video.framerate == 30)
        let fmtp = try #require(video.formatParameters)
        // NAL unit types in the first byte: VPS 32, SPS 33, PPS 34 (ITU-T H.265 §7.4.2.2).
        #expect(fmtp.base64List("sprop-vps").first.map { $0[0] >> 1 } == 32)
        #expect(fmtp.base64List("sprop-sps").first.map { $0[0] >> 1 } == 33)
        #expect(fmtp.base64List("sprop-pps").first.map { $0[0] >> 1 } == 34)
        #expect(sdp.media[1].encodingName == "PCMA" && sdp.media[2].encodingName == "PCMA")
        #expect(sdp.media.map(\.control) == ["trackID=0", "trackID=1", "trackID=5"])
        #expect(sdp.media[2].attributes.contains(SDPAttribute(name: "sendonly", value: nil)))
    }

    @Test func tplinkIPCUnparseableMediaLine() throws {
        // Quirk: "m=application/tp-link 0 RTP/AVP smart/0/25000" — that section is skipped.
        let (message, sdp) = try describe("tplink_ipc_h265_describe")
        #expect(message.headers.first(name: "Content-Base") == "rtsp://192.168.35.39:554/stream1/")
        #expect(sdp.media.map(\.type) == ["video", "audio"])
        #expect(sdp.media[0].encodingName == "H265")
        #expect(sdp.media[0].formatParameters?.base64List("sprop-sps").count == 1)
        #expect(sdp.media[1].control == "track2")
        #expect(sdp.warnings.count == 1)
        #expect(sdp.warnings.first?.contains("m=application/tp-link") == true)
        let base = try RTSPURL(string: "rtsp://admin:pw@192.168.35.39:554/stream1").resolving(try #require(message.headers.first(name: "Content-Base")))
        #expect(base.resolving("track1").requestURI == "rtsp://192.168.35.39:554/stream1/track1")
    }

    @Test func ezvizC6NAbsoluteControlsAndEmptySprop() throws {
        // Quirk: absolute a=control URLs; H265 rtpmap with an empty sprop-parameter-sets=.
        let (message, sdp) = try describe("ezviz_c6n_describe")
        #expect(message.cseq == 2)
        #expect(sdp.control == "rtsp://192.168.1.58:554/h264_stream/")
        let video = sdp.media[0]
        #expect(video.encodingName == "H265")
        #expect(video.formatParameters?["sprop-parameter-sets"] == "")
        #expect(video.formatParameters?.base64List("sprop-parameter-sets") == [])
        let url = try RTSPURL(string: "rtsp://admin:pw@192.168.1.58:554/h264_stream")
        let track = url.resolving(try #require(sdp.control)).resolving(try #require(video.control))
        #expect(track.requestURI == "rtsp://192.168.1.58:554/h264_stream/trackID=1")
        #expect(track.credentials == url.credentials)
    }

    @Test func foscamFI8620LowerCaseHeaderNames() throws {
        // Quirk: "Cseq" and "Content-length"; s=\11; a=framesize.
        let (message, sdp) = try describe("foscam_fi8620_describe")
        #expect(message.cseq == 3)
        #expect(message.headers.first(name: "Server") == "HiIpcam/V100R003 VodServer/1.0.0")
        #expect(sdp.sessionName == "\\11")
        #expect(sdp.media[0].control == "trackID=0")
        #expect(sdp.media[0].formatParameters?.base64List("sprop-parameter-sets").map(\.count) == [9, 5])
    }

    @Test func samsungIPOLiSCredentialsInControlURLs() throws {
        // Quirk: userinfo inside Content-Base and every a=control; non-zero media ports.
        let (message, sdp) = try describe("samsung_ipolis_describe")
        #expect(sdp.media.map(\.port) == [40024, 40028])
        #expect(sdp.media[0].framerate == 30)
        #expect(sdp.media[0].payloadType == 98)
        let base = try RTSPURL(string: "rtsp://admin:mine@10.132.250.29:554/profile2/media.smp")
            .resolving(try #require(message.headers.first(name: "Content-Base")))
        let track = base.resolving(try #require(sdp.media[0].control))
        #expect(track.requestURI == "rtsp://10.132.250.29:554/profile2/media.smp/trackID=v")
        #expect(!"\(track)".contains("SuperSecret"))
        #expect(track.password == "SuperSecret")
    }

    @Test func honeywellIPCAttributesBeforeSessionName() throws {
        // Quirk: a=control and a=source-filter before s=; relative "ctype=video" controls.
        let (message, sdp) = try describe("honeywell_ipc_describe")
        #expect(message.headers.first(name: "Cache-Control") == "no-cache")
        #expect(sdp.sessionName == "WUHAN Ants RtspServer")
        #expect(sdp.control == "*")
        #expect(sdp.range == "npt=0-")
        #expect(sdp.media.map(\.control) == ["ctype=video", "ctype=app106"])
        #expect(sdp.media[1].encodingName == "VND.ONVIF.METADATA")
        #expect(sdp.warnings.isEmpty)
    }

    @Test func unbrandedIPCWithoutVersionLine() throws {
        // Quirk: no v=, o=, s= or t= at all, and a trailing empty line.
        let (_, sdp) = try describe("unbranded_ipc_describe_no_version")
        #expect(sdp.version == nil && sdp.origin == nil)
        #expect(sdp.media.count == 1)
        #expect(sdp.media[0].encodingName == "H264")
        #expect(sdp.media[0].control == "trackID=0")
    }

    @Test func h3cVCPIPCTruncatedOriginAndConnection() throws {
        // Quirk: "o=- 1001 1 IN" and "c=IN"; fmtp with spaces after ';'; LF only.
        let sdp = try SessionDescription.parse(try TestSupport.fixtureText("h3c_vcp_ipc_sdp"))
        #expect(sdp.origin == "- 1001 1 IN")
        #expect(sdp.media.map(\.connection) == ["IN", "IN"])
        let video = sdp.media[0]
        #expect(video.payloadType == 105 && video.encodingName == "H264")
        #expect(video.formatParameters?["sprop-parameter-sets"] == "Z2QAMqw7UBQAWtCAAAH0AABhqEI=,aOqPLA==")
        #expect(video.formatParameters?["packetization-mode"] == "1")
        #expect(sdp.media[1].formatParameters?["decodertag"] == "h3c-v3 RTCP=0")
        #expect(sdp.warnings.isEmpty)
    }

    @Test func avigilonLowerCaseEncodingNames() throws {
        // Quirk: a=rtpmap:0 pcmu/8000, opus/48000/2, and a "c=SM SM …" line.
        let sdp = try SessionDescription.parse(try TestSupport.fixtureText("avigilon_backchannel_sdp_truncated"))
        #expect(sdp.media.count == 3)
        let backchannel = sdp.media[1]
        #expect(backchannel.rtpmaps[0]?.encodingName == "pcmu")
        #expect(backchannel.encodingName == "PCMU")
        #expect(backchannel.rtpmaps[97] == RTPMap(payloadType: 97, encodingName: "opus", clockRate: 48000, channels: 2))
        #expect(backchannel.connection == "IN IP4 192.168.1.63")
        #expect(backchannel.control == "rtsp://192.168.1.63/defaultPrimary/spk0/trackID=2?mtu=1440&streamType=u")
        #expect(sdp.media[0].encodingName == "PCMU")  // static payload type 0
    }

    @Test func allMessageFixturesInOneInterleavedStream() throws {
        // Every RTSP message fixture, with $ frames between them, fed at every 7th split.
        let names = ["hikvision_mediaserver_v3_playback_describe", "hikvision_ds2cd1148_401", "tplink_ipc_h265_describe",
                     "uniview_ipc2122lb_401", "ezviz_c6n_describe", "foscam_fi8620_describe", "samsung_ipolis_describe",
                     "honeywell_ipc_describe", "unbranded_ipc_describe_no_version"]
        var stream: [UInt8] = []
        for (index, name) in names.enumerated() {
            stream += try TestSupport.fixture(name)
            stream += TestSupport.interleavedFrame(channel: UInt8(index), payload: Array(repeating: 0x24, count: index * 100))
        }
        let expected = TestSupport.eventsWhole(stream)
        #expect(expected.count == names.count * 2)
        #expect(expected.compactMap { $0.response?.statusCode } == [200, 401, 200, 401, 200, 200, 200, 200, 200])
        for split in stride(from: 0, through: stream.count, by: 7) {
            #expect(TestSupport.events(stream, splitAt: [split]).events == expected, "split at \(split)")
        }
        #expect(TestSupport.eventsByteByByte(stream).events == expected)
    }
}
