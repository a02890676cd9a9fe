#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOPosix
import RTSPCore

/// One TCP connection the scanner opens to an address of its scope: connect with a short timeout, then
/// request/response exchanges, each bounded by its own timeout (a host that accepts TCP and never answers
/// costs at most `answerTimeout`).
final class RTSPProbeConnection: Sendable {
    enum Failure: Error, Sendable, Equatable {
        /// The connection attempt was refused (or failed in another way than the two below).
        case connectFailed
        /// Nothing answered the connection attempt within the timeout.
        case connectTimedOut
        /// The network said the host cannot be reached (EHOSTUNREACH, ENETUNREACH).
        case unreachable
        /// Connected, but no RTSP answer came within the timeout.
        case timedOut
        /// Connected, and what came back is not RTSP (an HTTP server, a banner, garbage).
        case notRTSP
        /// The peer closed the connection before answering.
        case closed
    }

    let channel: any Channel
    private let handler: NIOLoopBound<ResponseHandler>
    let address: IPv4Address
    let port: Int

    private init(channel: any Channel, handler: NIOLoopBound<ResponseHandler>, address: IPv4Address, port: Int) {
        self.channel = channel
        self.handler = handler
        self.address = address
        self.port = port
    }

    /// Connects to `address:port` after checking it against `scope` (nothing is sent outside it).
    static func connect(to address: IPv4Address, port: Int, scope: ScanScope, timeout: Duration,
                        group: any EventLoopGroup) async throws -> RTSPProbeConnection {
        try scope.authorize(address)
        let target: SocketAddress
        do {
            target = try SocketAddress(ipAddress: address.description, port: port)
        } catch {
            throw Failure.connectFailed
        }
        // The handler is made before connecting and kept here: a peer that sends garbage at once gets its
        // connection closed (and the handler removed from the pipeline) before a lookup could find it.
        let loop = group.next()
        let handler = try await loop.submit { NIOLoopBound(ResponseHandler(), eventLoop: loop) }.get()
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: loop)
                .connectTimeout(.nanoseconds(Int64(timeout.nanoseconds)))
                .channelOption(.tcpOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(handler.value)
                    }
                }
                .connect(to: target)
                .get()
        } catch ChannelError.connectTimeout {
            throw Failure.connectTimedOut
        } catch let error as IOError where error.errnoCode == EHOSTUNREACH || error.errnoCode == ENETUNREACH {
            throw Failure.unreachable
        } catch {
            throw Failure.connectFailed
        }
        return RTSPProbeConnection(channel: channel, handler: handler, address: address, port: port)
    }

    /// Sends `request` and waits up to `timeout` for the response.
    func send(_ request: RTSPRequest, timeout: Duration) async throws -> RTSPResponse {
        let channel = self.channel
        let handler = self.handler
        return try await channel.eventLoop.flatSubmit { () -> EventLoopFuture<RTSPResponse> in
            let promise = channel.eventLoop.makePromise(of: RTSPResponse.self)
            handler.value.expect(promise)
            let timer = channel.eventLoop.scheduleTask(in: .nanoseconds(Int64(timeout.nanoseconds))) {
                promise.fail(Failure.timedOut)
                channel.close(promise: nil)
            }
            promise.futureResult.whenComplete { _ in timer.cancel() }
            var buffer = channel.allocator.buffer(capacity: 256)
            request.write(into: &buffer)
            channel.writeAndFlush(buffer, promise: nil)
            return promise.futureResult
        }.get()
    }

    func close() async {
        try? await channel.close()
    }

    /// Feeds the bytes to `RTSPStreamParser` and completes the waiting request with the first response.
    final class ResponseHandler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer

        private var parser = RTSPStreamParser(maxHeaderBytes: 16 * 1024, maxBodyBytes: 256 * 1024)
        private var pending: EventLoopPromise<RTSPResponse>?
        private var failure: Failure?

        func expect(_ promise: EventLoopPromise<RTSPResponse>) {
            if let failure {
                promise.fail(failure)
            } else {
                pending = promise
            }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            parser.append(unwrapInboundIn(data))
            while let event = parser.next() {
                if case .response(let response) = event, let promise = pending {
                    pending = nil
                    promise.succeed(response)
                }
            }
            // RTSP answers start with "RTSP/1.0 "; a peer whose first bytes the parser threw away is something else.
            if parser.discardedBytes >= 8 {
                fail(.notRTSP)
                context.close(promise: nil)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            fail(.closed)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            fail(.closed)
            context.close(promise: nil)
        }

        private func fail(_ reason: Failure) {
            if failure == nil { failure = reason }
            if let promise = pending {
                pending = nil
                promise.fail(failure ?? reason)
            }
        }
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
