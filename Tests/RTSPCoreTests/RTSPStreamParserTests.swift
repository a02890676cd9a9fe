import NIOCore
import RTSPCore
import Testing

@Suite("RTSPStreamParser: responses, requests and $ frames on one TCP stream (RFC 2326 §10.12)")
struct RTSPStreamParserTests {
    static let describeResponse = "RTSP/1.0 200 OK\r\nCSeq: 2\r\nContent-Type: application/sdp\r\nContent-Length: 20\r\n\r\nv=0\r\nm=video 0 RTP/A"
    static let serverRequest = "GET_PARAMETER rtsp://10.0.0.5/stream1/ RTSP/1.0\r\nCSeq: 1\r\nSession: 5AA3150D\r\n\r\n"
    static let rtp = TestSupport.interleavedFrame(channel: 0, payload: [0x80, 0x60, 0x12, 0x34] + Array(repeating: 0xAB, count: 40))
    static let rtcp = TestSupport.interleavedFrame(channel: 1, payload: [0x81, 0xC8, 0x00, 0x06] + Array(repeating: 0x01, count: 24))

    /// response + interleaved + request + interleaved
    static var mixedStream: [UInt8] {
        Array(describeResponse.utf8) + rtp + Array(serverRequest.utf8) + rtcp
    }

    static var expectedMixed: [RTSPStreamEvent] {
        [
            .response(RTSPResponse(statusCode: 200, reasonPhrase: "OK",
                                   headers: ["CSeq": "2", "Content-Type": "application/sdp", "Content-Length": "20"],
                                   body: ByteBuffer(string: "v=0\r\nm=video 0 RTP/A"))),
            .interleaved(channel: 0, payload: ByteBuffer(bytes: rtp.dropFirst(4))),
            .request(RTSPRequest(method: "GET_PARAMETER", uri: "rtsp://10.0.0.5/stream1/",
                                 headers: ["CSeq": "1", "Session": "5AA3150D"])),
            .interleaved(channel: 1, payload: ByteBuffer(bytes: rtcp.dropFirst(4))),
        ]
    }

    @Test func wholeStream() {
        var parser = RTSPStreamParser()
        parser.append(ByteBuffer(bytes: Self.mixedStream))
        var events: [RTSPStreamEvent] = []
        while let event = parser.next() { events.append(event) }
        #expect(events == Self.expectedMixed)
        #expect(parser.bufferedBytes == 0)
        #expect(parser.discardedBytes == 0)
    }

    @Test func everySplitPoint() {
        let bytes = Self.mixedStream
        for split in 0...bytes.count {
            let (events, parser) = TestSupport.events(bytes, splitAt: [split])
            #expect(events == Self.expectedMixed, "split at \(split)")
            #expect(parser.discardedBytes == 0, "split at \(split)")
        }
    }

    @Test func everyPairOfSplitPointsAroundTheRequest() {
        // Three pieces, the cuts landing anywhere in the interleaved/request/interleaved tail.
        let bytes = Self.mixedStream
        let tailStart = Self.describeResponse.utf8.count
        for first in stride(from: tailStart, through: bytes.count, by: 3) {
            for second in stride(from: first, through: bytes.count, by: 5) {
                #expect(TestSupport.events(bytes, splitAt: [first, second]).events == Self.expectedMixed, "splits \(first), \(second)")
            }
        }
    }

    @Test func byteByByte() {
        let (events, parser) = TestSupport.eventsByteByByte(Self.mixedStream)
        #expect(events == Self.expectedMixed)
        #expect(parser.bufferedBytes == 0)
    }

    @Test func nextReturnsNilUntilTheMessageIsComplete() {
        var parser = RTSPStreamParser()
        let bytes = Array(Self.describeResponse.utf8)
        parser.append(ByteBuffer(bytes: bytes.dropLast()))
        #expect(parser.next() == nil)
        #expect(parser.bufferedBytes == bytes.count - 1)
        parser.append(ByteBuffer(bytes: bytes.suffix(1)))
        #expect(parser.next()?.response?.bodyString == "v=0\r\nm=video 0 RTP/A")
        #expect(parser.next() == nil)
    }

    @Test func zeroLengthInterleavedFrame() {
        let bytes = TestSupport.interleavedFrame(channel: 3, payload: []) + Self.rtp
        let events = TestSupport.eventsWhole(bytes)
        #expect(events.count == 2)
        #expect(events.first?.interleavedPayload?.channel == 3)
        #expect(events.first?.interleavedPayload?.payload == [])
        #expect(TestSupport.eventsByteByByte(bytes).events == events)
    }

    @Test func largestInterleavedFrame() {
        let payload = (0..<65535).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let bytes = TestSupport.interleavedFrame(channel: 2, payload: payload) + Self.rtcp
        // Delivered in 1000-byte reads, as a socket would.
        let (events, parser) = TestSupport.events(bytes, splitAt: Array(stride(from: 1000, to: bytes.count, by: 1000)))
        #expect(events.count == 2)
        #expect(events.first?.interleavedPayload?.channel == 2)
        #expect(events.first?.interleavedPayload?.payload == payload)
        #expect(events.last?.interleavedPayload?.channel == 1)
        #expect(parser.bufferedBytes == 0)
    }

    @Test func interleavedPayloadIsASliceNotACopy() {
        let bytes = Self.rtp
        let incoming = ByteBuffer(bytes: bytes)
        var parser = RTSPStreamParser()
        parser.append(incoming)
        guard case .interleaved(_, let payload)? = parser.next() else {
            Issue.record("expected an interleaved frame")
            return
        }
        let source = incoming.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) }
        let slice = payload.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) }
        #expect(slice == source + 4, "the payload should point into the buffer that was appended")
    }

    @Test func contentLengthBodyContainingDollarAndRTSPText() {
        let body = "$\u{0}\u{0}\u{4}RTSP/1.0 200 OK\r\n\r\n"
        let message = "RTSP/1.0 200 OK\r\nCSeq: 4\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        let bytes = Array(message.utf8) + Self.rtp
        let events = TestSupport.eventsWhole(bytes)
        #expect(events.count == 2)
        #expect(events.first?.response?.bodyString == body)
        #expect(TestSupport.eventsByteByByte(bytes).events == events)
    }

    @Test func garbageBeforeAndBetweenMessagesIsSkippedAndCounted() {
        let garbage1: [UInt8] = [0x00, 0xFF, 0x17, 0x61, 0x62, 0x0D, 0x0A]
        let garbage2 = Array("HELLO WORLD\r\nxyz".utf8)
        let bytes = garbage1 + Array(Self.describeResponse.utf8) + garbage2 + Self.rtp + Array(Self.serverRequest.utf8) + Self.rtcp
        for (events, parser) in [TestSupport.events(bytes, splitAt: []), TestSupport.eventsByteByByte(bytes)] {
            #expect(events == Self.expectedMixed)
            #expect(parser.discardedBytes == garbage1.count + garbage2.count)
        }
    }

    @Test func truncatedMessageFollowedByARealOneResyncs() {
        // A status line that turns out not to be one ("RTSP/1.0 2x0") is garbage.
        let bytes = Array("RTSP/1.0 2x0 OK\r\nCSeq: 1\r\n\r\n".utf8) + Array(Self.serverRequest.utf8)
        let (events, parser) = TestSupport.eventsByteByByte(bytes)
        #expect(events.count == 1)
        #expect(events.first?.request?.method == "GET_PARAMETER")
        #expect(parser.discardedBytes == 28)
    }

    @Test func serverRequestsOfEveryKind() {
        let text = "OPTIONS * RTSP/1.0\r\nCSeq: 10\r\n\r\n"
            + "SET_PARAMETER rtsp://cam/ RTSP/1.0\r\nCSeq: 11\r\nContent-Length: 6\r\n\r\nk: v\r\n"
            + "REDIRECT rtsp://cam/ RTSP/1.0\r\nCSeq: 12\r\nLocation: rtsp://other/\r\n\r\n"
            + "ANNOUNCE rtsp://cam/ RTSP/1.0\r\nCSeq: 13\r\n\r\n"
        let events = TestSupport.eventsWhole(Array(text.utf8))
        #expect(events.compactMap { $0.request?.method } == ["OPTIONS", "SET_PARAMETER", "REDIRECT", "ANNOUNCE"])
        #expect(events.compactMap { $0.request?.cseq } == [10, 11, 12, 13])
        #expect(events[1].request?.bodyString == "k: v\r\n")
        #expect(events[0].request?.uri == "*")
    }

    @Test func longRandomlyChunkedStreamOfManyFrames() {
        var generator = TestSupport.SeededGenerator(seed: 42)
        var bytes: [UInt8] = []
        var expectedChannels: [UInt8] = []
        for index in 0..<2000 {
            if index % 250 == 0 {
                bytes += Array("RTSP/1.0 200 OK\r\nCSeq: \(index)\r\n\r\n".utf8)
                expectedChannels.append(255)
            }
            let length = Int.random(in: 0...1500, using: &generator)
            let channel = UInt8(index % 4)
            bytes += TestSupport.interleavedFrame(channel: channel, payload: Array(repeating: channel, count: length))
            expectedChannels.append(channel)
        }
        var offsets: [Int] = []
        var position = 0
        while position < bytes.count {
            position += Int.random(in: 1...4000, using: &generator)
            if position < bytes.count { offsets.append(position) }
        }
        let (events, parser) = TestSupport.events(bytes, splitAt: offsets)
        #expect(events.map { $0.interleavedPayload?.channel ?? 255 } == expectedChannels)
        #expect(events.allSatisfy { event in
            event.interleavedPayload.map { frame in frame.payload.allSatisfy { $0 == frame.channel } } ?? true
        })
        #expect(parser.bufferedBytes == 0)
        #expect(parser.discardedBytes == 0)
    }

    @Test func randomBytesNeverTrapAndAValidMessageAfterThemIsFound() {
        var generator = TestSupport.SeededGenerator(seed: 7)
        for round in 0..<200 {
            // Random noise without '$' or upper-case letters, so nothing in it can start a message.
            let noise = (0..<Int.random(in: 0...300, using: &generator)).map { _ -> UInt8 in
                let byte = UInt8.random(in: 0...255, using: &generator)
                return (byte == 0x24 || (0x41...0x5A).contains(byte)) ? 0x20 : byte
            }
            let bytes = noise + Array("RTSP/1.0 200 OK\r\nCSeq: \(round)\r\n\r\n".utf8)
            let (events, parser) = TestSupport.events(bytes, splitAt: [Int.random(in: 0...bytes.count, using: &generator)])
            #expect(events.last?.response?.cseq == round, "round \(round)")
            #expect(parser.discardedBytes == noise.count, "round \(round)")
        }
        // Fully random bytes, random chunks: must terminate without trapping.
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0...600, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var parser = RTSPStreamParser(maxHeaderBytes: 128, maxBodyBytes: 64)
            var index = 0
            while index < bytes.count {
                let end = min(bytes.count, index + Int.random(in: 1...50, using: &generator))
                parser.append(ByteBuffer(bytes: bytes[index..<end]))
                while parser.next() != nil {}
                index = end
            }
            #expect(parser.bufferedBytes <= bytes.count)
            #expect(parser.discardedBytes <= bytes.count)
        }
    }

    /// Found by FuzzRTSPStream (Fuzz/Regressions/FuzzRTSPStream/rtsp_method_starting_with_dash.bin):
    /// "r- $" then a zero-length frame on channel 0. Read whole, the resync scan skips to '$';
    /// read in pieces, a buffer starting at '-' was taken for a request line "- $…" and the
    /// frame was lost. A method starts with an upper-case letter, and a control byte ends a
    /// would-be request line at once.
    @Test(arguments: [
        [0x72, 0x2D, 0x20, 0x24, 0x00, 0x00, 0x00] as [UInt8],
        Array("_X rtsp://a/ RTSP/1.0".utf8) + [0x24, 0x01, 0x00, 0x01, 0xEE],
        Array("PLAY rtsp://a/\0".utf8) + [0x24, 0x00, 0x00, 0x00],
    ])
    func sameEventsWhateverTheReadBoundaries(bytes: [UInt8]) {
        let whole = TestSupport.eventsWhole(bytes)
        #expect(whole.contains { $0.interleavedPayload != nil }, "the interleaved frame is found in \(whole)")
        for split in 0...bytes.count {
            #expect(TestSupport.events(bytes, splitAt: [split]).events == whole, "split at \(split)")
        }
        #expect(TestSupport.eventsByteByByte(bytes).events == whole)
    }

    @Test func controlByteEndsACandidateRequestLineWithoutWaitingForMore() {
        var parser = RTSPStreamParser()
        parser.append(ByteBuffer(bytes: Array("DESCRIBE rtsp://cam/\u{01}".utf8)))
        #expect(parser.next() == nil)
        // Everything up to the next possible start is garbage now, not held back for a line end.
        #expect(parser.bufferedBytes < 9)
    }
}
