import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import RTSPClient
import RTSPCore
import Testing

/// A camera played from a script, for the quirks GStreamer does not have: it answers requests with
/// what a real camera answered (fixtures), then replays a captured session's packets, optionally
/// mangled the way faulty cameras mangle them.
///
/// This is a mock by necessity (no real Hikvision here); the packets it sends were captured from
/// GStreamer's server, and the RTSP answers come from real cameras' published bytes.
final class ScriptedCamera: @unchecked Sendable {
    struct Script: Sendable {
        /// The SDP returned by DESCRIBE.
        var sdp: String
        /// Packets to send after PLAY, as (channel, payload).
        var packets: [(channel: UInt8, payload: ByteBuffer)]
        /// Extra headers per method, e.g. a vendor's Server header.
        var server = "ScriptedCamera"
        /// Omit CSeq from every response (seen on some cheap cameras).
        var omitCSeq = false
        /// Bytes written between packets (garbage on the wire).
        var garbageBetweenPackets: [UInt8]? = nil
        /// Packets per write burst and the pause between bursts.
        var burst = 10
        var pause: TimeAmount = .milliseconds(20)
        /// Requests are answered in this transport (the Transport header is echoed).
        var requireAuth: (user: String, password: String)? = nil
        /// Write picture by picture, one every `pause` (`burst` unused), as GStreamer's server does: a picture's
        /// first packet in a write of its own, then the rest in one more; with `nagle`, on a socket with Nagle's
        /// algorithm on (no TCP_NODELAY), so that the rest waits until the first packet is acknowledged.
        var pictureByPicture = false
        var nagle = false
    }

    let channel: Channel
    var port: Int { channel.localAddress!.port! }
    let requests = NIOLockedValueBox<[String]>([])
    /// When each picture's first write was made (``Script/pictureByPicture``), by its RTP timestamp.
    let pictureSentAt = NIOLockedValueBox<[UInt32: NIODeadline]>([:])

    init(_ script: Script) async throws {
        let requests = self.requests
        let sentAt = self.pictureSentAt
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: script.nagle ? 0 : 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(ScriptedCameraHandler(script: script, log: requests, sentAt: sentAt))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
    }

    func url(_ path: String = "/live", user: String? = nil, password: String? = nil) -> String {
        let auth = user.map { "\($0):\(password ?? "")@" } ?? ""
        return "rtsp://\(auth)127.0.0.1:\(port)\(path)"
    }

    func close() {
        channel.close(promise: nil)
    }

    /// Load a `watchbox capture` fixture.
    static func capture(_ name: String) throws -> SessionCapture {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "rtspcap", subdirectory: "Fixtures"))
        return try SessionCapture(bytes: Array(try Data(contentsOf: url)))
    }
}

private final class ScriptedCameraHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let script: ScriptedCamera.Script
    let log: NIOLockedValueBox<[String]>
    let sentAt: NIOLockedValueBox<[UInt32: NIODeadline]>
    var parser = RTSPStreamParser()
    var streaming: RepeatedTask?
    var next = 0

    init(script: ScriptedCamera.Script, log: NIOLockedValueBox<[String]>, sentAt: NIOLockedValueBox<[UInt32: NIODeadline]>) {
        self.script = script
        self.log = log
        self.sentAt = sentAt
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        parser.append(unwrapInboundIn(data))
        while let event = parser.next() {
            guard case .request(let request) = event else { continue }
            log.withLockedValue { $0.append(request.method) }
            answer(request, context: context)
        }
    }

    func answer(_ request: RTSPRequest, context: ChannelHandlerContext) {
        var headers = RTSPHeaders()
        if !script.omitCSeq, let cseq = request.headers.first(name: "CSeq") { headers.add(name: "CSeq", value: cseq) }
        headers.add(name: "Server", value: script.server)
        if let auth = script.requireAuth {
            let expected = "Basic " + Data("\(auth.user):\(auth.password)".utf8).base64EncodedString()
            if request.headers.first(name: "Authorization") != expected {
                headers.add(name: "WWW-Authenticate", value: "Basic realm=\"scripted\"")
                write(RTSPResponse(statusCode: 401, reasonPhrase: "Unauthorized", headers: headers), context: context)
                return
            }
        }
        switch request.method {
        case "OPTIONS":
            headers.add(name: "Public", value: "OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN, GET_PARAMETER")
            write(RTSPResponse(statusCode: 200, reasonPhrase: "OK", headers: headers), context: context)
        case "DESCRIBE":
            headers.add(name: "Content-Type", value: "application/sdp")
            headers.add(name: "Content-Base", value: request.uri + "/")
            write(RTSPResponse(statusCode: 200, reasonPhrase: "OK", headers: headers, body: ByteBuffer(string: script.sdp)), context: context)
        case "SETUP":
            headers.add(name: "Session", value: "12345678;timeout=60")
            headers.add(name: "Transport", value: request.headers.first(name: "Transport") ?? "RTP/AVP/TCP;unicast;interleaved=0-1")
            write(RTSPResponse(statusCode: 200, reasonPhrase: "OK", headers: headers), context: context)
        case "PLAY":
            headers.add(name: "Session", value: "12345678")
            write(RTSPResponse(statusCode: 200, reasonPhrase: "OK", headers: headers), context: context)
            startStreaming(context: context)
        case "TEARDOWN":
            write(RTSPResponse(statusCode: 200, reasonPhrase: "OK", headers: headers), context: context)
            streaming?.cancel()
        default:
            write(RTSPResponse(statusCode: 200, reasonPhrase: "OK", headers: headers), context: context)
        }
    }

    func write(_ response: RTSPResponse, context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: 256)
        response.write(into: &buffer)
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
    }

    func startStreaming(context: ChannelHandlerContext) {
        if script.pictureByPicture {
            startPictureByPicture(context: context)
            return
        }
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        streaming = context.eventLoop.scheduleRepeatedTask(initialDelay: .milliseconds(5), delay: script.pause) { [self] task in
            let context = loopBound.value
            guard next < script.packets.count else {
                task.cancel()
                return
            }
            var buffer = context.channel.allocator.buffer(capacity: 16 * 1024)
            for _ in 0..<script.burst where next < script.packets.count {
                let packet = script.packets[next]
                next += 1
                SessionCapture.frame(channel: packet.channel, payload: packet.payload, into: &buffer)
                if let garbage = script.garbageBetweenPackets { buffer.writeBytes(garbage) }
            }
            context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        }
    }

    /// The script's video packets (channel 0) grouped into pictures (the marker bit ends one); others dropped.
    static func pictures(_ packets: [(channel: UInt8, payload: ByteBuffer)]) -> [[ByteBuffer]] {
        var pictures: [[ByteBuffer]] = []
        var current: [ByteBuffer] = []
        for packet in packets where packet.channel == 0 {
            current.append(packet.payload)
            if let second = packet.payload.getInteger(at: packet.payload.readerIndex + 1, as: UInt8.self), second & 0x80 != 0 {
                pictures.append(current)
                current = []
            }
        }
        return pictures
    }

    func startPictureByPicture(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        let pictures = Self.pictures(script.packets)
        streaming = context.eventLoop.scheduleRepeatedTask(initialDelay: .milliseconds(5), delay: script.pause) { [self] task in
            let context = loopBound.value
            guard next < pictures.count else {
                task.cancel()
                return
            }
            let picture = pictures[next]
            next += 1
            if let timestamp = picture[0].getInteger(at: picture[0].readerIndex + 4, as: UInt32.self) {
                sentAt.withLockedValue { $0[timestamp] = .now() }
            }
            var first = context.channel.allocator.buffer(capacity: picture[0].readableBytes + 4)
            SessionCapture.frame(channel: 0, payload: picture[0], into: &first)
            context.writeAndFlush(wrapOutboundOut(first), promise: nil)
            guard picture.count > 1 else { return }
            var rest = context.channel.allocator.buffer(capacity: 16 * 1024)
            for payload in picture.dropFirst() { SessionCapture.frame(channel: 0, payload: payload, into: &rest) }
            context.writeAndFlush(wrapOutboundOut(rest), promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        streaming?.cancel()
    }
}
