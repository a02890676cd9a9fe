import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle

/// WatchBox's HTTP/1 + WebSocket connections, with one thing the stock upgrade channel lacks: a connection
/// that has not sent a byte yet is closed when the server shuts down, and after `firstByteTimeout`.
///
/// Without it, `watchbox serve` ignored SIGTERM for as long as any client held a connection open without
/// sending a request: a browser's speculative preconnect, a port scanner, a test client that connected
/// late. The upgrade channel waits for the first request with nothing watching for shutdown, and the server
/// waits for every connection, so the hub never got to close its camera sessions and recordings.
struct QuietConnectionCloser: ServerChildChannel {
    struct Value: ServerChildChannelValue {
        let inner: HTTP1WebSocketUpgradeChannel.Value
        let watch: FirstByteWatch
        var channel: any Channel { inner.channel }
    }

    let inner: HTTP1WebSocketUpgradeChannel
    let firstByteTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let watch = FirstByteWatch(timeout: firstByteTimeout)
        do {
            try channel.pipeline.syncOperations.addHandler(watch)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger).map { Value(inner: $0, watch: watch) }
    }

    func handle(value: Value, logger: Logger) async {
        // Closing a silent connection makes the upgrade channel log "Error handling upgrade result" at error
        // level; that close is ours and expected, so it goes to the debug level instead.
        var logger = logger
        logger.handler = SilentCloseLogHandler(base: logger.handler, watch: value.watch)
        await withGracefulShutdownHandler {
            await inner.handle(value: value.inner, logger: logger)
        } onGracefulShutdown: {
            value.watch.closeIfSilent()
        }
    }
}

extension QuietConnectionCloser {
    /// The server's connections: HTTP/1 and the WebSocket routes of `router`.
    static func builder<Router: HTTPResponderBuilder>(webSocketRouter router: Router,
                                                      firstByteTimeout: TimeAmount = .seconds(60)) -> HTTPServerBuilder
        where Router.Responder.Context: WebSocketRequestContext {
        let webSocketResponder = router.buildResponder()
        return HTTPServerBuilder { responder in
            QuietConnectionCloser(inner: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder,
                                                                      configuration: .init()),
                                  firstByteTimeout: firstByteTimeout)
        }
    }
}

/// First in a connection's pipeline: notes whether any byte has arrived, and closes the connection when
/// none has after the timeout, or on ``closeIfSilent()``. Passes everything through untouched.
final class FirstByteWatch: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private struct State {
        var spoke = false
        var closedSilent = false
        var channel: (any Channel)?
        var timer: Scheduled<Void>?
    }

    private let state = NIOLockedValueBox(State())
    private let timeout: TimeAmount

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        let timer = context.eventLoop.scheduleTask(in: timeout) { [weak self] () -> Void in
            self?.closeIfSilent()
        }
        state.withLockedValue {
            $0.channel = channel
            $0.timer = timer
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        let timer = state.withLockedValue { state -> Scheduled<Void>? in
            defer {
                state.timer = nil
                state.channel = nil
            }
            return state.timer
        }
        timer?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let timer = state.withLockedValue { state -> Scheduled<Void>? in
            guard !state.spoke else { return nil }
            state.spoke = true
            defer { state.timer = nil }
            return state.timer
        }
        timer?.cancel()
        context.fireChannelRead(data)
    }

    /// Closes the connection if the client has not sent anything yet; otherwise leaves it to finish its request.
    func closeIfSilent() {
        let channel = state.withLockedValue { state -> (any Channel)? in
            guard !state.spoke, let channel = state.channel else { return nil }
            state.closedSilent = true
            return channel
        }
        channel?.close(promise: nil)
    }

    /// Whether ``closeIfSilent()`` closed the connection.
    var closedSilent: Bool { state.withLockedValue { $0.closedSilent } }
}

/// Passes every log event on, except that errors logged after ``FirstByteWatch`` closed a silent connection
/// (the upgrade that never started) go out at the debug level.
struct SilentCloseLogHandler: LogHandler {
    var base: any LogHandler
    let watch: FirstByteWatch

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        guard event.level >= .error, watch.closedSilent else { return base.log(event: event) }
        guard base.logLevel <= .debug else { return }
        var event = event
        event.level = .debug
        base.log(event: event)
    }
}
