import NIOCore
import RTSPCore
import Testing

/// Each named tolerance of ``RTSPStreamParser``, fed whole and byte by byte.
@Suite("RTSPStreamParser quirks")
struct RTSPStreamParserQuirkTests {
    private func parseBothWays(_ text: String, parser: RTSPStreamParser = RTSPStreamParser()) -> [RTSPStreamEvent] {
        let bytes = Array(text.utf8)
        let whole = TestSupport.eventsWhole(bytes, parser: parser)
        let split = TestSupport.eventsByteByByte(bytes, parser: parser).events
        #expect(whole == split, "byte-by-byte must give the same events")
        return whole
    }

    @Test func lfOnlyLineEndings() {
        let events = parseBothWays("RTSP/1.0 200 OK\nCSeq: 3\nContent-Length: 5\n\nhello" + "RTSP/1.0 200 OK\nCSeq: 4\n\n")
        #expect(events.count == 2)
        #expect(events[0].response?.bodyString == "hello")
        #expect(events[1].response?.cseq == 4)
    }

    @Test func mixedCRLFAndLFLineEndings() {
        let events = parseBothWays("RTSP/1.0 200 OK\r\nCSeq: 3\nSession: 1\r\n\n")
        #expect(events.first?.response?.headers.first(name: "Session") == "1")
    }

    @Test func foldedHeaderLines() {
        let events = parseBothWays("RTSP/1.0 200 OK\r\nCSeq: 1\r\nPublic: OPTIONS, DESCRIBE,\r\n SETUP,\r\n\tPLAY\r\n\r\n")
        #expect(events.first?.response?.headers.first(name: "Public") == "OPTIONS, DESCRIBE, SETUP, PLAY")
        #expect(events.first?.response?.headers.count == 2)
    }

    @Test func headerNamesInAnyCase() {
        let events = parseBothWays("RTSP/1.0 200 OK\r\ncseq: 5\r\nCONTENT-LENGTH: 2\r\n\r\nok")
        #expect(events.first?.response?.cseq == 5)
        #expect(events.first?.response?.bodyString == "ok")
    }

    @Test func whitespaceAroundColon() {
        let events = parseBothWays("RTSP/1.0 200 OK\r\nCSeq : 6\r\nContent-Length:   3  \r\nSession:abc\r\n\r\nxyz")
        let response = events.first?.response
        #expect(response?.cseq == 6)
        #expect(response?.bodyString == "xyz")
        #expect(response?.headers.first(name: "Session") == "abc")
    }

    @Test func missingReasonPhrase() {
        let events = parseBothWays("RTSP/1.0 200\r\nCSeq: 7\r\n\r\n")
        #expect(events.first?.response?.statusCode == 200)
        #expect(events.first?.response?.reasonPhrase == "")
    }

    @Test func reasonPhraseWithSpaces() {
        let events = parseBothWays("RTSP/1.0 461 Unsupported Transport\r\nCSeq: 8\r\n\r\n")
        #expect(events.first?.response?.reasonPhrase == "Unsupported Transport")
    }

    @Test func responseWithoutContentLengthHasNoBody() {
        let frame = TestSupport.interleavedFrame(channel: 0, payload: [1, 2, 3])
        let bytes = Array("RTSP/1.0 200 OK\r\nCSeq: 9\r\nSession: 1\r\n\r\n".utf8) + frame
        let events = TestSupport.eventsWhole(bytes)
        #expect(events.count == 2)
        #expect(events.first?.response?.body == nil)
        #expect(events.last?.interleavedPayload?.payload == [1, 2, 3])
        #expect(TestSupport.eventsByteByByte(bytes).events == events)
    }

    @Test func unparseableContentLengthMeansNoBody() {
        let events = parseBothWays("RTSP/1.0 200 OK\r\nCSeq: 1\r\nContent-Length: lots\r\n\r\nRTSP/1.0 200 OK\r\nCSeq: 2\r\n\r\n")
        #expect(events.compactMap { $0.response?.cseq } == [1, 2])
    }

    @Test func bodyLargerThanMaxBodyBytesIsSkippedNotBuffered() {
        let big = String(repeating: "x", count: 5000)
        let text = "RTSP/1.0 200 OK\r\nCSeq: 1\r\nContent-Length: 5000\r\n\r\n\(big)RTSP/1.0 200 OK\r\nCSeq: 2\r\nContent-Length: 2\r\n\r\nhi"
        let limited = RTSPStreamParser(maxBodyBytes: 1000)
        let bytes = Array(text.utf8)
        for (events, parser) in [TestSupport.events(bytes, splitAt: [], parser: limited), TestSupport.eventsByteByByte(bytes, parser: limited)] {
            #expect(events.count == 2)
            #expect(events[0].response?.cseq == 1)
            #expect(events[0].response?.body == nil)
            #expect(events[0].response?.headers.first(name: "Content-Length") == "5000")
            #expect(events[1].response?.bodyString == "hi")
            #expect(parser.skippedBodyBytes == 5000)
            #expect(parser.discardedBytes == 0)
        }
        // Byte by byte, the skipped body never accumulates in the buffer.
        var parser = limited
        var maxBuffered = 0
        var events: [RTSPStreamEvent] = []
        for byte in bytes {
            parser.append(ByteBuffer(bytes: [byte]))
            while let event = parser.next() { events.append(event) }
            maxBuffered = max(maxBuffered, parser.bufferedBytes)
        }
        #expect(events.count == 2)
        #expect(maxBuffered < 100)
    }

    @Test func oversizedHeaderBlockIsGarbageAndTheParserResyncs() {
        let filler = (0..<40).map { "x-filler-\($0): aaaaaaaaaaaaaaaaaaaa\r\n" }.joined()
        let huge = "RTSP/1.0 200 OK\r\nCSeq: 1\r\n\(filler)\r\n"
        let good = "RTSP/1.0 200 OK\r\nCSeq: 2\r\n\r\n"
        let bytes = Array((huge + good).utf8)
        let limited = RTSPStreamParser(maxHeaderBytes: 256)
        for (events, parser) in [TestSupport.events(bytes, splitAt: [], parser: limited), TestSupport.eventsByteByByte(bytes, parser: limited)] {
            #expect(events.compactMap { $0.response?.cseq } == [2])
            #expect(parser.discardedBytes == huge.utf8.count)
        }
    }

    @Test func headBlockWithoutEndNeverGrowsBeyondTheLimit() {
        var parser = RTSPStreamParser(maxHeaderBytes: 256)
        parser.append(ByteBuffer(string: "RTSP/1.0 200 OK\r\n"))
        for _ in 0..<100 {
            parser.append(ByteBuffer(string: "x-endless: header line\r\n"))
            #expect(parser.next() == nil)
        }
        #expect(parser.bufferedBytes < 300)
        #expect(parser.discardedBytes > 2000)
    }

    @Test func requestLineNeedsTheRTSPVersion() {
        // An upper-case word followed by a space is not yet a request: the line must end in RTSP/x.y.
        let events = parseBothWays("GET / HTTP/1.1\r\nHost: x\r\n\r\nOPTIONS * RTSP/1.0\r\nCSeq: 2\r\n\r\n")
        #expect(events.count == 1)
        #expect(events.first?.request?.method == "OPTIONS")
    }
}
