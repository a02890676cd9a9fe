import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOCore
import RTSPCore

/// The thin NIO side of the RTSP stream decoder: bytes in, ``RTSPStreamParser`` events out.
///
/// Responses complete the request waiting for their CSeq, interleaved frames go to the media
/// router, and requests from the server (OPTIONS, GET_PARAMETER, SET_PARAMETER, …) are answered.
/// All state is confined to the channel's event loop.
final class RTSPChannelHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var parser = RTSPStreamParser()
    private var pending: [(cseq: Int?, promise: EventLoopPromise<RTSPResponse>, timeout: Scheduled<Void>?)] = []
    private var context: ChannelHandlerContext?
    private var warnedGarbage = false
    /// Whether the peer has sent an RTSP message yet; until it has, bytes that are not RTSP mean a wrong port.
    private var sawRTSP = false
    /// The first bytes the peer sent (up to 16), to tell what it is when it is not RTSP.
    private var prelude: [UInt8] = []
    /// Bytes received before the first RTSP message.
    private var bytesBeforeRTSP = 0
    /// Garbage skipped before the first message that makes the peer "not RTSP": enough to pass over a
    /// stray CRLF or two in front of a camera's first answer, few enough to judge an HTTP status line at once.
    static let notRTSPThreshold = 8
    private let logger: Logger
    private let url: RTSPURL

    /// Called for every `$` frame (RFC 2326 §10.12). Set on the event loop.
    var onInterleaved: ((UInt8, ByteBuffer) -> Void)?
    /// Why the connection ended, when we know better than "closed".
    private(set) var closeReason: RTSPClientError?
    /// The session id to echo when answering server requests.
    var sessionID: String?
    /// Whether the last read ended inside a message or an interleaved frame (its rest is on its way).
    var holdsPartialMessage: Bool { parser.bufferedBytes > 0 }

    init(url: RTSPURL, logger: Logger) {
        self.url = url
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        if !sawRTSP {
            bytesBeforeRTSP += bytes.readableBytes
            if prelude.count < 16, let head = bytes.getBytes(at: bytes.readerIndex, length: min(16 - prelude.count, bytes.readableBytes)) {
                prelude += head
            }
        }
        parser.append(bytes)
        while let event = parser.next() {
            switch event {
            case .interleaved(let channel, let payload):
                onInterleaved?(channel, payload)
            case .response(let response):
                sawRTSP = true
                complete(response)
            case .request(let request):
                sawRTSP = true
                answer(request, context: context)
            }
        }
        if !sawRTSP && parser.discardedBytes >= Self.notRTSPThreshold {
            failNotRTSP(context: context)
            return
        }
        if parser.discardedBytes > 0 && !warnedGarbage {
            warnedGarbage = true
            logger.warning("quirk: skipped bytes that are neither RTSP nor interleaved RTP; resynchronised",
                           metadata: ["quirk": "garbage-in-stream", "bytes": "\(parser.discardedBytes)"])
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !sawRTSP && bytesBeforeRTSP > 0 && closeReason == nil {
            closeReason = notRTSPError()
        }
        let error = closeReason ?? RTSPClientError(.connectionClosed, "\(url.redacted) closed the connection", url: url.redacted)
        failAll(error)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if closeReason == nil {
            closeReason = RTSPErrorMapping.map(error, url: url)
        }
        context.close(promise: nil)
    }

    /// The peer answered with something that is not RTSP: fail every request now, not after its timeout.
    private func failNotRTSP(context: ChannelHandlerContext) {
        let error = notRTSPError()
        if closeReason == nil { closeReason = error }
        logger.warning("the server's answer is not RTSP", metadata: ["bytes": "\(bytesBeforeRTSP)"])
        failAll(error)
        context.close(promise: nil)
    }

    private func notRTSPError() -> RTSPClientError {
        let reply = ForeignReply(prefix: prelude, byteCount: bytesBeforeRTSP)
        return RTSPClientError(.notRTSP, reply.message(where: "\(url.host):\(url.port)"), url: url.redacted)
    }

    /// Close the connection, remembering why.
    func close(reason: RTSPClientError?) {
        if closeReason == nil { closeReason = reason }
        context?.close(promise: nil)
    }

    /// Write a request; the future completes with the response carrying the same CSeq.
    func send(_ request: RTSPRequest, timeout: TimeAmount, promise: EventLoopPromise<RTSPResponse>) {
        guard let context, context.channel.isActive else {
            promise.fail(closeReason ?? RTSPClientError(.connectionClosed, "\(url.redacted) closed the connection", url: url.redacted,
                                                        method: request.method, cseq: request.cseq))
            return
        }
        let cseq = request.cseq
        let url = self.url
        let scheduled = context.eventLoop.scheduleTask(in: timeout) { [weak self] in
            guard let self, let index = self.pending.firstIndex(where: { $0.promise.futureResult === promise.futureResult }) else { return }
            self.pending.remove(at: index)
            promise.fail(RTSPClientError(.timeout, "\(url.redacted) did not answer \(request.method) within \(timeout.nanoseconds / 1_000_000_000) s",
                                         url: url.redacted, method: request.method, cseq: cseq))
        }
        pending.append((cseq, promise, scheduled))
        var buffer = context.channel.allocator.buffer(capacity: 512)
        request.write(into: &buffer)
        writeOut(buffer, context: context)
    }

    /// Write raw bytes (interleaved RTCP receiver reports).
    func write(_ buffer: ByteBuffer) {
        guard let context else { return }
        writeOut(buffer, context: context)
    }

    /// Writes and flushes bytes of ours (requests, answers, receiver reports), then asks the kernel for quick
    /// acknowledgements again. Sending anything makes Linux take the connection for an interactive one and
    /// delay its acknowledgements by up to 40 ms; a server that writes with Nagle's algorithm (GStreamer's
    /// does, and so do many cameras') holds the rest of a frame until the first packet of the frame is
    /// acknowledged, so every receiver report made one frame 40 ms late (0.6 % of the frames at 25 fps with
    /// reports every 5 s). `TCP_QUICKACK` once the bytes are out takes the connection back to quick
    /// acknowledgements (one `setsockopt` per write of ours: a few per minute).
    private func writeOut(_ buffer: ByteBuffer, context: ChannelHandlerContext) {
        #if os(Linux)
        let channel = context.channel
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.whenSuccess {
            try? channel.syncOptions?.setOption(ChannelOptions.tcpOption(.init(rawValue: CInt(TCP_QUICKACK))), value: 1)
        }
        context.writeAndFlush(wrapOutboundOut(buffer), promise: written)
        #else
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        #endif
    }

    private func complete(_ response: RTSPResponse) {
        // Match by CSeq; a camera that omits CSeq answers the oldest request.
        let index: Int?
        if let cseq = response.cseq {
            index = pending.firstIndex { $0.cseq == cseq }
        } else {
            index = pending.indices.first
            if index != nil {
                logger.warning("quirk: response without CSeq taken as the answer to the oldest request",
                               metadata: ["quirk": "missing-cseq"])
            }
        }
        guard let index else { return }
        let entry = pending.remove(at: index)
        entry.timeout?.cancel()
        entry.promise.succeed(response)
    }

    private func answer(_ request: RTSPRequest, context: ChannelHandlerContext) {
        var headers = RTSPHeaders()
        if let cseq = request.headers.first(name: "CSeq") { headers.add(name: "CSeq", value: cseq) }
        if let sessionID { headers.add(name: "Session", value: sessionID) }
        let response: RTSPResponse
        switch request.method.uppercased() {
        case "OPTIONS", "GET_PARAMETER", "SET_PARAMETER", "ANNOUNCE":
            response = RTSPResponse(statusCode: 200, reasonPhrase: "OK", headers: headers)
        default:
            response = RTSPResponse(statusCode: 501, reasonPhrase: "Not Implemented", headers: headers)
        }
        logger.debug("answered a request from the server", metadata: ["method": "\(request.method)", "status": "\(response.statusCode)"])
        var buffer = context.channel.allocator.buffer(capacity: 128)
        response.write(into: &buffer)
        writeOut(buffer, context: context)
    }

    private func failAll(_ error: RTSPClientError) {
        let entries = pending
        pending.removeAll()
        for entry in entries {
            entry.timeout?.cancel()
            entry.promise.fail(error)
        }
    }
}
