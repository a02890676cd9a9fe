import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import Testing
@testable import RTSPClient
import RTSPCore

/// ``RTSPChannelHandler`` on an EmbeddedChannel: a reply that is not RTSP fails the request at once,
/// fed whole and byte by byte; stray bytes in front of a real answer, or between frames after it, do not.
@Suite("RTSPChannelHandler: not RTSP")
struct ChannelHandlerNotRTSPTests {
    func exchange(_ reply: [UInt8], byteByByte: Bool) throws -> Result<RTSPResponse, RTSPClientError> {
        let url = try RTSPURL(string: "rtsp://admin:pw@192.0.2.1:8080/stream")
        let handler = RTSPChannelHandler(url: url, logger: Logger(label: "test"))
        let channel = EmbeddedChannel(handler: handler)
        try channel.connect(to: SocketAddress(ipAddress: "192.0.2.1", port: 8080)).wait()
        let promise = channel.eventLoop.makePromise(of: RTSPResponse.self)
        var headers = RTSPHeaders()
        headers.add(name: "CSeq", value: "1")
        handler.send(RTSPRequest(method: "OPTIONS", uri: "rtsp://192.0.2.1:8080/stream", headers: headers), timeout: .seconds(30), promise: promise)
        let outcome = NIOLockedValueBox<Result<RTSPResponse, RTSPClientError>?>(nil)
        promise.futureResult.whenComplete { result in
            outcome.withLockedValue { $0 = result.mapError { ($0 as? RTSPClientError) ?? RTSPClientError(.protocolError, "\($0)") } }
        }
        let chunks = byteByByte ? reply.map { [$0] } : [reply]
        for chunk in chunks where outcome.withLockedValue({ $0 }) == nil && channel.isActive {
            var buffer = channel.allocator.buffer(capacity: chunk.count)
            buffer.writeBytes(chunk)
            try channel.writeInbound(buffer)
        }
        _ = try? channel.finish()
        return try #require(outcome.withLockedValue { $0 })
    }

    @Test(arguments: [false, true])
    func httpFailsAtOnce(byteByByte: Bool) throws {
        let reply = Array("HTTP/1.1 400 Bad Request\r\nServer: tcp_peer\r\nContent-Length: 4\r\n\r\nnope".utf8)
        guard case .failure(let error) = try exchange(reply, byteByByte: byteByByte) else {
            Issue.record("an HTTP answer was taken as RTSP")
            return
        }
        #expect(error.kind == .notRTSP)
        #expect(error.message == "192.0.2.1:8080 answered, but not with RTSP (it looks like an HTTP server): check the port and the URL")
        #expect(!error.message.contains("pw"))
    }

    @Test(arguments: [false, true])
    func strayLineEndsBeforeTheAnswerAreTolerated(byteByByte: Bool) throws {
        let reply = Array("\r\n\r\nRTSP/1.0 200 OK\r\nCSeq: 1\r\nPublic: OPTIONS, DESCRIBE\r\n\r\n".utf8)
        guard case .success(let response) = try exchange(reply, byteByByte: byteByByte) else {
            Issue.record("a camera that sends CRLFs before its answer was refused")
            return
        }
        #expect(response.statusCode == 200)
    }
}
