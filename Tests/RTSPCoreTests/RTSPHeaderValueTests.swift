import RTSPCore
import Testing

@Suite("TransportHeader (RFC 2326 §12.39)")
struct TransportHeaderTests {
    @Test func tcpInterleavedResponse() throws {
        let header = try TransportHeader(parsing: "RTP/AVP/TCP;unicast;interleaved=0-1;ssrc=0A1B2C3D;mode=\"PLAY\"")
        #expect(header.profile == "RTP/AVP/TCP")
        #expect(header.isUnicast)
        #expect(header.isTCP)
        #expect(header.interleaved == TransportHeader.ChannelPair(rtp: 0, rtcp: 1))
        #expect(header.interleaved?.rtcp == 1)
        #expect(header.ssrc == 0x0A1B_2C3D)
        #expect(header.mode == "PLAY")
        #expect(header.clientPort == nil)
    }

    @Test func udpResponse() throws {
        let header = try TransportHeader(parsing: "RTP/AVP;unicast;client_port=5000-5001;server_port=6970-6971;ssrc=1234ABCD;source=10.0.0.5;destination=10.0.0.2")
        #expect(!header.isTCP)
        #expect(header.clientPort == TransportHeader.PortPair(rtp: 5000, rtcp: 5001))
        #expect(header.serverPort?.rtp == 6970)
        #expect(header.serverPort?.rtcp == 6971)
        #expect(header.source == "10.0.0.5")
        #expect(header.destination == "10.0.0.2")
    }

    @Test func singleChannelAndSinglePort() throws {
        #expect(try TransportHeader(parsing: "RTP/AVP/TCP;unicast;interleaved=4").interleaved == .init(rtp: 4, rtcp: 5))
        #expect(try TransportHeader(parsing: "RTP/AVP;unicast;client_port=5000").clientPort == .init(rtp: 5000, rtcp: 5001))
        #expect(try TransportHeader(parsing: "RTP/AVP/TCP;interleaved=255").interleaved == .init(rtp: 255, rtcp: 255))
    }

    @Test func keysInAnyCaseSpacesAndUnknownParameters() throws {
        let header = try TransportHeader(parsing: " RTP/AVP/TCP ; Unicast ; INTERLEAVED = 2-3 ; ttl=127; x-vendor=\"a;b,c\"; Mode=play")
        #expect(header.interleaved == .init(rtp: 2, rtcp: 3))
        #expect(header.mode == "play")
    }

    @Test func ssrcWithLeadingZerosOrAPrefix() throws {
        #expect(try TransportHeader(parsing: "RTP/AVP/TCP;interleaved=0-1;ssrc=0000001A").ssrc == 0x1A)
        #expect(try TransportHeader(parsing: "RTP/AVP/TCP;interleaved=0-1;ssrc=1a").ssrc == 0x1A)
        #expect(try TransportHeader(parsing: "RTP/AVP/TCP;interleaved=0-1;ssrc=000000000DEADBEEF").ssrc == 0xDEAD_BEEF)
        // scottlamb/retina pull request #138: a camera that sends "ssrc=0x6f7c".
        #expect(try TransportHeader(parsing: "RTP/AVP/TCP;unicast;interleaved=0-1;ssrc=0x6f7c;mode=\"PLAY\"").ssrc == 0x6F7C)
        #expect(try TransportHeader(parsing: "RTP/AVP/TCP;interleaved=0-1;ssrc=zz").ssrc == nil)
        #expect(try TransportHeader(parsing: "RTP/AVP/TCP;interleaved=0-1;ssrc=123456789").ssrc == nil)
    }

    @Test func firstAlternativeIsUsed() throws {
        let header = try TransportHeader(parsing: "RTP/AVP/TCP;unicast;interleaved=0-1, RTP/AVP;unicast;client_port=5000-5001")
        #expect(header.isTCP)
        #expect(header.clientPort == nil)
    }

    @Test func multicastAndInterleavedWithoutTCPProfile() throws {
        #expect(try !TransportHeader(parsing: "RTP/AVP;multicast;destination=232.0.0.1").isUnicast)
        #expect(try TransportHeader(parsing: "RTP/AVP;unicast;interleaved=0-1").isTCP)
    }

    @Test func unusableValuesThrowWithAMessage() {
        #expect(throws: TransportHeaderError.self) { try TransportHeader(parsing: "") }
        #expect(throws: TransportHeaderError.self) { try TransportHeader(parsing: "interleaved=0-1") }
        #expect(throws: TransportHeaderError.self) { try TransportHeader(parsing: "RTP/AVP/TCP;interleaved=x-y") }
        #expect(throws: TransportHeaderError.self) { try TransportHeader(parsing: "RTP/AVP/TCP;interleaved=256-257") }
        #expect(throws: TransportHeaderError.self) { try TransportHeader(parsing: "RTP/AVP;client_port=70000") }
        do {
            _ = try TransportHeader(parsing: "RTP/AVP/TCP;interleaved=a")
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("interleaved"))
        }
    }

    @Test func headerValuesOfTheFactories() throws {
        #expect(TransportHeader.tcpInterleaved(0, 1).headerValue == "RTP/AVP/TCP;unicast;interleaved=0-1")
        #expect(TransportHeader.udpUnicast(clientRTPPort: 5000, clientRTCPPort: 5001).headerValue == "RTP/AVP;unicast;client_port=5000-5001")
        let full = TransportHeader(profile: "RTP/AVP", interleaved: .init(rtp: 2, rtcp: 3), ssrc: 0x1A, mode: "PLAY")
        #expect(full.headerValue == "RTP/AVP;unicast;interleaved=2-3;ssrc=0000001A;mode=PLAY")
        #expect(try TransportHeader(parsing: full.headerValue) == full)
    }
}

@Suite("SessionHeader (RFC 2326 §12.37)")
struct SessionHeaderTests {
    @Test func idAndTimeout() {
        #expect(SessionHeader(parsing: "12345678;timeout=60") == SessionHeader(id: "12345678", timeout: 60))
        #expect(SessionHeader(parsing: "5AA3150D") == SessionHeader(id: "5AA3150D", timeout: nil))
        #expect(SessionHeader(parsing: " abc ; Timeout = 30 ") == SessionHeader(id: "abc", timeout: 30))
        #expect(SessionHeader(parsing: "abc;timeout=\"45\"")?.timeout == 45)
        #expect(SessionHeader(parsing: "abc;foo=1;timeout=20")?.timeout == 20)
    }

    @Test func unusableValues() {
        #expect(SessionHeader(parsing: "") == nil)
        #expect(SessionHeader(parsing: " ;timeout=60") == nil)
        #expect(SessionHeader(parsing: "abc;timeout=x")?.timeout == nil)
        #expect(SessionHeader(parsing: "abc;timeout=0")?.timeout == nil)
    }

    @Test func headerValue() {
        #expect(SessionHeader(id: "abc", timeout: 60).headerValue == "abc;timeout=60")
        #expect(SessionHeader(id: "abc").headerValue == "abc")
    }
}

@Suite("RTPInfoEntry (RFC 2326 §12.33)")
struct RTPInfoEntryTests {
    @Test func rfcExample() {
        let entries = RTPInfoEntry.parse("url=rtsp://foo.com/bar.avi/streamid=0;seq=45102, url=rtsp://foo.com/bar.avi/streamid=1;seq=30211;rtptime=2890844526")
        #expect(entries == [
            RTPInfoEntry(url: "rtsp://foo.com/bar.avi/streamid=0", sequenceNumber: 45102),
            RTPInfoEntry(url: "rtsp://foo.com/bar.avi/streamid=1", sequenceNumber: 30211, rtpTimestamp: 2_890_844_526),
        ])
    }

    @Test func semicolonAndCommaInsideTheURL() {
        let entries = RTPInfoEntry.parse("url=rtsp://cam/live?a=1;b=2,c/trackID=1;seq=7;rtptime=9,url=rtsp://cam/live/trackID=2;seq=8")
        #expect(entries.map(\.url) == ["rtsp://cam/live?a=1;b=2,c/trackID=1", "rtsp://cam/live/trackID=2"])
        #expect(entries.map(\.sequenceNumber) == [7, 8])
    }

    @Test func missingURLCaseAndBadNumbers() {
        #expect(RTPInfoEntry.parse("seq=12;rtptime=34") == [RTPInfoEntry(url: "", sequenceNumber: 12, rtpTimestamp: 34)])
        #expect(RTPInfoEntry.parse("URL=rtsp://cam/t;SEQ=1;RtpTime=99999999999") == [RTPInfoEntry(url: "rtsp://cam/t", sequenceNumber: 1)])
        #expect(RTPInfoEntry.parse("url=rtsp://cam/t;ssrc=0A1B;seq=70000") == [RTPInfoEntry(url: "rtsp://cam/t")])
        #expect(RTPInfoEntry.parse("") == [])
    }
}

@Suite("PublicMethods (RFC 2326 §12.28)")
struct PublicMethodsTests {
    @Test func parsesCameraVariants() {
        // Tapo C210 (koush/scrypted #1835) and Uniview (bluenviron/mediamtx #4660) answers.
        #expect(PublicMethods.parse(["OPTIONS, DESCRIBE, SETUP, TEARDOWN, PLAY, GET_PARAMETER, SET_PARAMETER"])
            == ["OPTIONS", "DESCRIBE", "SETUP", "TEARDOWN", "PLAY", "GET_PARAMETER", "SET_PARAMETER"])
        #expect(PublicMethods.parse(["OPTIONS,DESCRIBE,SETUP,PLAY,PAUSE,TEARDOWN,ANNOUNCE,SET_PARAMETER,GET_PARAMETER"]).contains("GET_PARAMETER"))
        #expect(PublicMethods.parse(["options, describe", "Setup,,"]) == ["OPTIONS", "DESCRIBE", "SETUP"])
        #expect(PublicMethods.parse([]).isEmpty)
    }
}
