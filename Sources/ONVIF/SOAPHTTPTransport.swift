import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// One HTTP/1.1 POST per connection (`Connection: close`) on SwiftNIO, with a hard deadline
/// covering connect, send and the whole response: a device that accepts the connection and
/// never answers ends in `.timedOut`, never a hang.
struct SOAPHTTPTransport: Sendable {
    struct Response: Sendable {
        var status: HTTPResponseStatus
        var headers: HTTPHeaders
        var body: Data
    }

    enum Failure: Error, Sendable {
        case timedOut
        case unreachable(String)
        case tooLarge
    }

    /// Bodies above this are refused (no ONVIF response comes near it).
    static let maximumBodySize = 4 * 1024 * 1024

    let eventLoopGroup: any EventLoopGroup

    func post(_ endpoint: HTTPEndpoint, body: String, action: String, authorization: String?,
              timeout: Duration) async throws(Failure) -> Response {
        let eventLoop = eventLoopGroup.next()
        let promise = eventLoop.makePromise(of: Response.self)
        let nanoseconds = Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        let deadline = eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) {
            promise.fail(Failure.timedOut)
        }
        let limit = Self.maximumBodySize
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(.nanoseconds(nanoseconds))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture(withResultOf: {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(ResponseCollector(promise: promise, limit: limit))
                })
            }
        bootstrap.connect(host: endpoint.host, port: endpoint.port).whenComplete { result in
            switch result {
            case .failure(let error):
                if case ChannelError.connectTimeout = error {
                    promise.fail(Failure.timedOut)
                } else {
                    promise.fail(Failure.unreachable(Self.describe(error)))
                }
            case .success(let channel):
                promise.futureResult.whenComplete { _ in channel.close(promise: nil) }
                var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: endpoint.target)
                let bytes = ByteBuffer(string: body)
                head.headers.add(name: "Host", value: endpoint.hostHeader)
                // SOAP 1.2 Part 2 §7.1.4: the action travels as a media type parameter.
                head.headers.add(name: "Content-Type", value: "application/soap+xml; charset=utf-8; action=\"\(action)\"")
                head.headers.add(name: "Content-Length", value: String(bytes.readableBytes))
                head.headers.add(name: "Connection", value: "close")
                if let authorization { head.headers.add(name: "Authorization", value: authorization) }
                channel.write(HTTPClientRequestPart.head(head), promise: nil)
                channel.write(HTTPClientRequestPart.body(.byteBuffer(bytes)), promise: nil)
                channel.writeAndFlush(HTTPClientRequestPart.end(nil)).whenFailure { error in
                    promise.fail(Failure.unreachable(Self.describe(error)))
                }
            }
        }
        do {
            let response = try await promise.futureResult.get()
            deadline.cancel()
            return response
        } catch let failure as Failure {
            deadline.cancel()
            throw failure
        } catch {
            deadline.cancel()
            throw Failure.unreachable(Self.describe(error))
        }
    }

    static func describe(_ error: any Error) -> String {
        if let io = error as? IOError {
            return String(cString: strerror(io.errnoCode)).lowercased()
        }
        if let socket = error as? SocketAddressError {
            return "cannot resolve the host (\(socket))"
        }
        if case ChannelError.ioOnClosedChannel = error { return "the connection was closed" }
        if error is NIOConnectionError { return "connection refused or no route to host" }
        return "\(error)"
    }
}

/// Collects one HTTP response into a promise; closing before the end is a failure.
private final class ResponseCollector: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let promise: EventLoopPromise<SOAPHTTPTransport.Response>
    private let limit: Int
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()
    private var done = false

    init(promise: EventLoopPromise<SOAPHTTPTransport.Response>, limit: Int) {
        self.promise = promise
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !done else { return }
        switch unwrapInboundIn(data) {
        case .head(let responseHead):
            head = responseHead
        case .body(var part):
            guard body.readableBytes + part.readableBytes <= limit else {
                finish(.failure(SOAPHTTPTransport.Failure.tooLarge))
                context.close(promise: nil)
                return
            }
            body.writeBuffer(&part)
        case .end:
            guard let head else { return }
            finish(.success(.init(status: head.status, headers: head.headers,
                                  body: Data(body.readableBytesView))))
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.failure(SOAPHTTPTransport.Failure.unreachable("the device closed the connection without a complete answer")))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.failure(SOAPHTTPTransport.Failure.unreachable(SOAPHTTPTransport.describe(error))))
        context.close(promise: nil)
    }

    private func finish(_ result: Result<SOAPHTTPTransport.Response, any Error>) {
        guard !done else { return }
        done = true
        promise.completeWith(result)
    }
}
