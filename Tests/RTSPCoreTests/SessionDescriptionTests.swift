import RTSPCore
import Testing

@Suite("SessionDescription (RFC 4566) and its camera quirks")
struct SessionDescriptionTests {
    static let reference = """
        v=0
        o=- 1109162014219182 0 IN IP4 0.0.0.0
        s=Media Server
        c=IN IP4 0.0.0.0
        t=0 0
        a=control:*
        a=range:npt=0-
        m=video 0 RTP/AVP 96
        a=rtpmap:96 H264/90000
        a=fmtp:96 packetization-mode=1;profile-level-id=64001F;sprop-parameter-sets=Z2QAH6zZQFAFuwEQAAADABAAAAMDyPGDGWA=,aOvjyyLA
        a=control:trackID=1
        m=audio 0 RTP/AVP 97
        a=rtpmap:97 MPEG4-GENERIC/16000/2
        a=fmtp:97 streamtype=5;profile-level-id=1;mode=AAC-hbr;sizelength=13;indexlength=3;indexdeltalength=3;config=1410
        a=control:trackID=2

        """

    @Test func parsesSessionAndMediaFields() throws {
        let sdp = try SessionDescription.parse(Self.reference)
        #expect(sdp.version == 0)
        #expect(sdp.origin == "- 1109162014219182 0 IN IP4 0.0.0.0")
        #expect(sdp.sessionName == "Media Server")
        #expect(sdp.connection == "IN IP4 0.0.0.0")
        #expect(sdp.control == "*")
        #expect(sdp.range == "npt=0-")
        #expect(sdp.media.count == 2)
        #expect(sdp.warnings.isEmpty)

        let video = sdp.media[0]
        #expect(video.type == "video")
        #expect(video.port == 0)
        #expect(video.proto == "RTP/AVP")
        #expect(video.formats == ["96"])
        #expect(video.payloadType == 96)
        #expect(video.encodingName == "H264")
        #expect(video.clockRate == 90000)
        #expect(video.control == "trackID=1")
        #expect(video.formatParameters?["packetization-mode"] == "1")
        #expect(video.formatParameters?["Profile-Level-Id"] == "64001F")
        #expect(video.formatParameters?.base64List("sprop-parameter-sets").map(\.count) == [26, 6])

        let audio = sdp.media[1]
        #expect(audio.encodingName == "MPEG4-GENERIC")
        #expect(audio.clockRate == 16000)
        #expect(audio.channels == 2)
        #expect(audio.rtpmaps[97] == RTPMap(payloadType: 97, encodingName: "MPEG4-GENERIC", clockRate: 16000, channels: 2))
        #expect(audio.formatParameters?["config"] == "1410")
    }

    @Test func lfOnlyAndCRLFGiveTheSameResult() throws {
        let lf = try SessionDescription.parse(Self.reference)
        let crlf = try SessionDescription.parse(Self.reference.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(lf == crlf)
    }

    @Test func missingFinalNewline() throws {
        let sdp = try SessionDescription.parse("v=0\r\nm=video 0 RTP/AVP 96\r\na=rtpmap:96 H264/90000\r\na=control:track1")
        #expect(sdp.media.first?.control == "track1")
    }

    @Test func blankAndIndentedLines() throws {
        let sdp = try SessionDescription.parse("\r\n  v=0\r\n\r\n\r\n   m=video 0 RTP/AVP 96\r\n\r\n\ta=rtpmap:96 H264/90000\r\n\r\n")
        #expect(sdp.version == 0)
        #expect(sdp.media.first?.encodingName == "H264")
        #expect(sdp.warnings.isEmpty)
    }

    @Test func missingOriginLine() throws {
        let sdp = try SessionDescription.parse("v=0\ns=No origin\nt=0 0\nm=video 0 RTP/AVP 96\na=rtpmap:96 H265/90000\n")
        #expect(sdp.origin == nil)
        #expect(sdp.sessionName == "No origin")
        #expect(sdp.media.first?.encodingName == "H265")
    }

    @Test func unparseableMediaLineSkipsOnlyThatSection() throws {
        let sdp = try SessionDescription.parse("""
            v=0
            m=video 0 RTP/AVP 96
            a=rtpmap:96 H264/90000
            m=application/x-vendor 0 RTP/AVP smart/0/25000
            a=rtpmap:95 vendor/25000
            a=control:track3
            m=video notaport RTP/AVP 97
            a=control:track4
            m=audio 0 RTP/AVP 8
            a=control:track2
            """)
        #expect(sdp.media.map(\.type) == ["video", "audio"])
        #expect(sdp.media.last?.control == "track2")
        #expect(sdp.media.last?.encodingName == "PCMA")
        #expect(sdp.warnings.count == 2)
        #expect(sdp.warnings.allSatisfy { $0.contains("m= line") })
    }

    @Test func bareFmtpWithNothingAfterThePayloadType() throws {
        let sdp = try SessionDescription.parse("v=0\nm=audio 0 RTP/AVP 8\na=rtpmap:8 PCMA/8000/1\na=fmtp:8\nm=audio 0 RTP/AVP 97\na=rtpmap:97 OPUS/48000\na=fmtp:97 \n")
        #expect(sdp.media[0].fmtps[8] == FormatParameters())
        #expect(sdp.media[0].formatParameters?.parameters.isEmpty == true)
        #expect(sdp.media[1].fmtps[97] == FormatParameters())
        #expect(sdp.warnings.isEmpty)
    }

    @Test func fmtpWithSpacesAfterSemicolonsAndATrailingSemicolon() throws {
        let sdp = try SessionDescription.parse("v=0\nm=audio 0 RTP/AVP 104\na=rtpmap:104 MPEG4-GENERIC/32000\na=fmtp:104 profile-level-id=15; streamtype=5; mode=AAC-hbr; config=1408;SizeLength=13; IndexLength=3;;\n")
        let fmtp = try #require(sdp.media.first?.formatParameters)
        #expect(fmtp.parameters == ["profile-level-id": "15", "streamtype": "5", "mode": "AAC-hbr", "config": "1408",
                                    "sizelength": "13", "indexlength": "3"])
    }

    @Test func rtpmapWithLowerCaseEncodingName() throws {
        let sdp = try SessionDescription.parse("v=0\nm=video 0 RTP/AVP 96\na=rtpmap:96 h264/90000\n")
        #expect(sdp.media[0].rtpmaps[96]?.encodingName == "h264")
        #expect(sdp.media[0].encodingName == "H264")
    }

    @Test func controlAbsoluteRelativeAndStar() throws {
        let sdp = try SessionDescription.parse("""
            v=0
            a=control:*
            m=video 0 RTP/AVP 96
            a=control:rtsp://10.0.0.5:554/Streaming/Channels/101/trackID=1
            m=audio 0 RTP/AVP 0
            a=control:trackID=2
            m=application 0 RTP/AVP 107
            a=control:
            """)
        #expect(sdp.control == "*")
        #expect(sdp.media.map(\.control) == ["rtsp://10.0.0.5:554/Streaming/Channels/101/trackID=1", "trackID=2", nil])
    }

    @Test func framerateWithDecimals() throws {
        let sdp = try SessionDescription.parse("v=0\nm=video 0 RTP/AVP 96\na=framerate:25.000000\nm=video 0 RTP/AVP 97\na=framerate:30.0\nm=video 0 RTP/AVP 98\na=framerate:fast\n")
        #expect(sdp.media.map(\.framerate) == [25.0, 30.0, nil])
    }

    @Test func fmtpForAPayloadTypeOtherThanTheMediaLines() throws {
        let sdp = try SessionDescription.parse("v=0\nm=audio 0 RTP/AVP 104\na=rtpmap:104 MPEG4-GENERIC/16000\na=fmtp:97 streamtype=5;config=1408\n")
        let audio = try #require(sdp.media.first)
        #expect(audio.fmtps[104] == nil)
        #expect(audio.fmtps[97]?["config"] == "1408")
        #expect(audio.formatParameters?["config"] == "1408")
        #expect(sdp.warnings.count == 1)
        #expect(sdp.warnings.first?.contains("payload type 97") == true)
    }

    @Test func strayFmtpIsNotUsedWhenTheRightOneExists() throws {
        let sdp = try SessionDescription.parse("v=0\nm=video 0 RTP/AVP 96\na=fmtp:96 packetization-mode=1\na=fmtp:97 packetization-mode=0\n")
        #expect(sdp.media[0].formatParameters?["packetization-mode"] == "1")
    }

    @Test func duplicatedAttributesFirstWins() throws {
        let sdp = try SessionDescription.parse("""
            v=0
            a=control:*
            a=control:rtsp://cam/other
            m=video 0 RTP/AVP 96
            a=control:trackID=1
            a=control:trackID=9
            a=rtpmap:96 H264/90000
            a=rtpmap:96 H265/90000
            a=fmtp:96 packetization-mode=1
            a=fmtp:96 packetization-mode=0
            a=framerate:25
            a=framerate:12
            """)
        let video = sdp.media[0]
        #expect(sdp.control == "*")
        #expect(video.control == "trackID=1")
        #expect(video.encodingName == "H264")
        #expect(video.formatParameters?["packetization-mode"] == "1")
        #expect(video.framerate == 25)
        #expect(video.attributes.filter { $0.name == "control" }.count == 2)
        #expect(sdp.warnings.count == 2)
    }

    @Test func staticPayloadTypesWithoutRtpmap() throws {
        let sdp = try SessionDescription.parse("v=0\nm=audio 0 RTP/AVP 0\nm=video 0 RTP/AVP 26\nm=audio 0 RTP/AVP 14\nm=video 0 RTP/AVP 33\nm=video 0 RTP/AVP 32\nm=video 0 RTP/AVP 96\n")
        #expect(sdp.media.map(\.encodingName) == ["PCMU", "JPEG", "MPA", "MP2T", "MPV", nil])
        #expect(sdp.media.map(\.clockRate) == [8000, 90000, 90000, 90000, 90000, nil])
    }

    @Test func payloadTypeIsTheFirstNumericFormat() throws {
        let sdp = try SessionDescription.parse("v=0\nm=audio 0 RTP/AVP 116 115 0 8\na=rtpmap:116 MPEG4-GENERIC/64000\n")
        #expect(sdp.media[0].payloadType == 116)
        #expect(sdp.media[0].formats == ["116", "115", "0", "8"])
    }

    @Test func unknownAndMalformedLinesAreSkippedWithWarnings() throws {
        let sdp = try SessionDescription.parse("v=0\nx-garbage\nq=unknown\nm=video 0 RTP/AVP 96\na=rtpmap:96 H264\na=fmtp:abc x=1\n")
        #expect(sdp.media.count == 1)
        #expect(sdp.warnings.count == 4)
    }

    @Test func warningsNeverQuoteCredentials() throws {
        let sdp = try SessionDescription.parse("v=0\nm=video 0 RTP/AVP 96\nthis line is broken rtsp://admin:hunter2@10.0.0.5/x\n")
        #expect(sdp.warnings.count == 1)
        #expect(!sdp.warnings[0].contains("hunter2"))
        #expect(sdp.warnings[0].contains("rtsp://***@10.0.0.5/x"))
    }

    @Test func textWithoutVersionOrMediaLinesThrows() {
        #expect(throws: SDPParseError.self) { try SessionDescription.parse("<html><body>404</body></html>") }
        #expect(throws: SDPParseError.self) { try SessionDescription.parse("") }
        do {
            _ = try SessionDescription.parse("s=only a name\n")
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("v="))
        }
    }

    @Test func mediaWithoutVersionLineIsAccepted() throws {
        let sdp = try SessionDescription.parse("m=video 0 RTP/AVP 96\r\na=rtpmap:96 H264/90000\r\n")
        #expect(sdp.version == nil)
        #expect(sdp.media.count == 1)
    }
}

@Suite("FormatParameters (RFC 4566 §6 a=fmtp)")
struct FormatParametersTests {
    @Test func keysAreCaseInsensitiveAndFirstValueWins() {
        let fmtp = FormatParameters(parsing: "Profile-Level-Id=42e01f; packetization-mode=1; profile-level-id=640028; flag")
        #expect(fmtp["PROFILE-LEVEL-ID"] == "42e01f")
        #expect(fmtp["flag"] == "")
        #expect(fmtp["missing"] == nil)
    }

    @Test func base64ListToleratesMissingPaddingWhitespaceAndURLSafeAlphabet() {
        // sprop-parameter-sets from samsung_ipolis_describe.txt, written in four damaged ways.
        let expectedSPS: [UInt8] = [0x67, 0x64, 0x00, 0x28, 0xAC, 0xB4, 0x03, 0xC0, 0x11, 0x3F, 0x2A]
        let expectedPPS: [UInt8] = [0x68, 0xEE, 0x01, 0x9E, 0x2C]
        for value in ["Z2QAKKy0A8ARPyo=,aO4Bniw=", "Z2QAKKy0A8ARPyo,aO4Bniw", " Z2QAKKy0 A8ARPyo= , aO4Bniw= ", "Z2QAKKy0A8ARPyo=,aO4Bniw=,"] {
            let fmtp = FormatParameters(parameters: ["sprop-parameter-sets": value])
            #expect(fmtp.base64List("sprop-parameter-sets") == [expectedSPS, expectedPPS], "\(value)")
        }
        let urlSafe = FormatParameters(parameters: ["x": "-_8=,+/8="])
        #expect(urlSafe.base64List("x") == [[0xFB, 0xFF], [0xFB, 0xFF]])
    }

    @Test func base64ListSkipsInvalidEntries() {
        let fmtp = FormatParameters(parsing: "sprop-parameter-sets=Z2QA*KKy,aO4Bniw=,A,=,aO4=Bniw")
        #expect(fmtp.base64List("sprop-parameter-sets") == [[0x68, 0xEE, 0x01, 0x9E, 0x2C]])
        #expect(fmtp.base64List("absent") == [])
        #expect(FormatParameters(parsing: "sprop-parameter-sets=").base64List("sprop-parameter-sets") == [])
    }
}
