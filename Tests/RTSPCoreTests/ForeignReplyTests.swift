import RTSPCore
import Testing

/// ``ForeignReply``: what a port that does not answer RTSP looks like, from its first bytes.
@Suite("ForeignReply")
struct ForeignReplyTests {
    @Test func httpStatusLine() {
        let reply = ForeignReply(prefix: Array("HTTP/1.1 400 Bad Request\r\n".utf8), byteCount: 120)
        #expect(reply.guess == .http)
        #expect(reply.message(where: "192.0.2.1:8080")
            == "192.0.2.1:8080 answered, but not with RTSP (it looks like an HTTP server): check the port and the URL")
    }

    @Test func sshBanner() {
        #expect(ForeignReply(prefix: Array("SSH-2.0-OpenSSH_9.2\r\n".utf8), byteCount: 21).guess == .ssh)
    }

    @Test func tlsRecords() {
        // RFC 8446 §5.1: a handshake record (22) and an alert (21), version 3.x.
        #expect(ForeignReply(prefix: [0x16, 0x03, 0x03, 0x00, 0x7A], byteCount: 127).guess == .tls)
        #expect(ForeignReply(prefix: [0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x46], byteCount: 7).guess == .tls)
        #expect(ForeignReply(prefix: [0x15, 0x03, 0x01], byteCount: 3).explanation.contains("rtsps://"))
    }

    @Test func anythingElseCountsTheBytes() {
        let reply = ForeignReply(prefix: [0x00, 0x17] + Array("SSH-2.0".utf8), byteCount: 64)
        #expect(reply.guess == .unknown)
        #expect(reply.explanation == "it sent 64 bytes that are not an RTSP response")
        #expect(ForeignReply(prefix: [0xFF], byteCount: 1).explanation == "it sent 1 byte that is not an RTSP response")
    }

    @Test func shortPrefixesAreNotMistaken() {
        // Fewer bytes than a signature: not enough to call it HTTP.
        #expect(ForeignReply(prefix: Array("HTT".utf8), byteCount: 3).guess == .unknown)
        #expect(ForeignReply(prefix: [], byteCount: 0).guess == .unknown)
    }
}
