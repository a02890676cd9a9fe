import NIOCore
import RTSPCore
import Testing

@Suite("RTSPHeaders: case-insensitive, ordered, multi-valued (RFC 2326 §4.2)")
struct RTSPHeadersTests {
    @Test func lookupIgnoresCaseAndKeepsOrder() {
        var headers = RTSPHeaders([("CSeq", "2"), ("WWW-Authenticate", "Digest realm=\"a\""), ("www-authenticate", "Basic realm=\"a\"")])
        headers.add(name: "Session", value: "abc")
        #expect(headers.first(name: "cseq") == "2")
        #expect(headers["WWW-AUTHENTICATE"] == ["Digest realm=\"a\"", "Basic realm=\"a\""])
        #expect(headers.contains(name: "session"))
        #expect(!headers.contains(name: "Content-Length"))
        #expect(headers.first(name: "Content-Length") == nil)
        #expect(headers.map(\.name) == ["CSeq", "WWW-Authenticate", "www-authenticate", "Session"])
    }

    @Test func replaceOrAddKeepsPositionAndDropsDuplicates() {
        var headers = RTSPHeaders([("A", "1"), ("Session", "x"), ("B", "2"), ("session", "y")])
        headers.replaceOrAdd(name: "SESSION", value: "z")
        #expect(headers.map(\.name) == ["A", "SESSION", "B"])
        #expect(headers["Session"] == ["z"])
        headers.replaceOrAdd(name: "C", value: "3")
        #expect(headers.map(\.value) == ["1", "z", "2", "3"])
    }

    @Test func removeDropsEveryLineOfThatName() {
        var headers: RTSPHeaders = ["Accept": "application/sdp", "accept": "text/plain", "CSeq": "1"]
        headers.remove(name: "ACCEPT")
        #expect(headers.count == 1)
        #expect(headers.first(name: "CSeq") == "1")
    }

    @Test func equalityComparesNamesCaseInsensitivelyAndValuesExactly() {
        #expect(RTSPHeaders([("cseq", "1")]) == RTSPHeaders([("CSeq", "1")]))
        #expect(RTSPHeaders([("CSeq", "1")]) != RTSPHeaders([("CSeq", "01")]))
        #expect(RTSPHeaders([("A", "1"), ("B", "2")]) != RTSPHeaders([("B", "2"), ("A", "1")]))
    }

    @Test func descriptionRedactsAuthorization() {
        let headers: RTSPHeaders = ["Authorization": "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==", "CSeq": "3"]
        #expect(!headers.description.contains("QWxhZGRp"))
        #expect(headers.description.contains("CSeq: 3"))
    }
}

@Suite("RTSPRequest / RTSPResponse serialisation (RFC 2326 §4, §6, §7)")
struct RTSPMessageWriteTests {
    @Test func requestUsesCRLFAndAddsContentLengthForABody() {
        let request = RTSPRequest(method: "SET_PARAMETER", uri: "rtsp://10.0.0.5/stream1",
                                  headers: ["CSeq": "7", "Content-Type": "text/parameters", "Content-Length": "999"],
                                  body: ByteBuffer(string: "barparam: barstuff\r\n"))
        var out = ByteBuffer()
        request.write(into: &out)
        #expect(String(buffer: out) == "SET_PARAMETER rtsp://10.0.0.5/stream1 RTSP/1.0\r\nCSeq: 7\r\nContent-Type: text/parameters\r\nContent-Length: 20\r\n\r\nbarparam: barstuff\r\n")
        #expect(request.cseq == 7)
    }

    @Test func requestWithoutBodyHasNoContentLength() {
        let request = RTSPRequest(method: "OPTIONS", uri: "*", headers: ["CSeq": "1", "User-Agent": "WatchBox"])
        var out = ByteBuffer()
        request.write(into: &out)
        #expect(String(buffer: out) == "OPTIONS * RTSP/1.0\r\nCSeq: 1\r\nUser-Agent: WatchBox\r\n\r\n")
    }

    @Test func headerValuesCannotInjectLines() {
        let request = RTSPRequest(method: "DESCRIBE", uri: "rtsp://cam/a", headers: ["User-Agent": "x\r\nEvil: 1"])
        var out = ByteBuffer()
        request.write(into: &out)
        #expect(String(buffer: out) == "DESCRIBE rtsp://cam/a RTSP/1.0\r\nUser-Agent: x Evil: 1\r\n\r\n")
    }

    @Test func responseWithAndWithoutReasonPhrase() {
        var out = ByteBuffer()
        RTSPResponse(statusCode: 200, reasonPhrase: "OK", headers: ["CSeq": "5"]).write(into: &out)
        #expect(String(buffer: out) == "RTSP/1.0 200 OK\r\nCSeq: 5\r\n\r\n")
        out.clear()
        RTSPResponse(statusCode: 451, reasonPhrase: "", headers: ["CSeq": "6"], body: ByteBuffer(string: "x")).write(into: &out)
        #expect(String(buffer: out) == "RTSP/1.0 451\r\nCSeq: 6\r\nContent-Length: 1\r\n\r\nx")
    }

    @Test func writtenMessagesParseBackToTheSameValue() {
        let request = RTSPRequest(method: "GET_PARAMETER", uri: "rtsp://cam/", headers: ["CSeq": "9", "Session": "12345678"])
        let response = RTSPResponse(statusCode: 200, reasonPhrase: "OK", headers: ["CSeq": "9", "Content-Type": "application/sdp"],
                                    body: ByteBuffer(string: "v=0\r\n"))
        var out = ByteBuffer()
        request.write(into: &out)
        response.write(into: &out)
        var parser = RTSPStreamParser()
        parser.append(out)
        #expect(parser.next() == .request(request))
        var expected = response
        expected.headers.add(name: "Content-Length", value: "5")
        #expect(parser.next() == .response(expected))
        #expect(parser.next() == nil)
    }

    @Test func cseqAndBodyString() {
        let response = RTSPResponse(statusCode: 200, reasonPhrase: "OK", headers: ["Cseq": " 12 "], body: ByteBuffer(string: "v=0"))
        #expect(response.cseq == 12)
        #expect(response.bodyString == "v=0")
        #expect(RTSPResponse(statusCode: 200, reasonPhrase: "OK", headers: ["CSeq": "x"]).cseq == nil)
        #expect(RTSPResponse(statusCode: 200, reasonPhrase: "OK").bodyString == nil)
    }
}
