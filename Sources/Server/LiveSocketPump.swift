import H26x
import Hub
import NIOCore
import NIOWebSocket

/// Writes one live viewer's messages straight into its WebSocket channel, on the channel's event loop, as
/// the camera's stream queues them: no task, no async writer and no thread hop between the frame leaving the
/// muxer and the socket write when the camera's RTSP connection shares the loop (the usual case, see
/// ``StreamHub/watch(cameraID:variant:eventLoop:)``). Messages queued together go out with one flush.
///
/// Backpressure: while the socket's send buffer is above NIO's high-water mark the pump stops taking
/// messages; the viewer's queue then fills and, past its limits, skips to the next keyframe (``Viewer``).
/// ``WritabilityHandler`` resumes the pump when the socket drains.
final class LiveSocketPump: ViewerConsumer, @unchecked Sendable {
    let eventLoop: any EventLoop
    private let channel: any Channel
    private let viewer: Viewer
    private let instrumentation: HubInstrumentation?
    /// The JSON text message announcing an init segment, and a status message.
    private let initText: @Sendable (_ mimeType: String, _ format: VideoFormat) -> String
    private let statusText: @Sendable (CameraStatus) -> String
    private let endedPromise: EventLoopPromise<Void>
    /// Fragments come as complete WebSocket messages (``LiveFragmentFraming/webSocketBinary``).
    private let framed: Bool
    // Confined to `eventLoop`.
    /// The frame encoder's context: framed fragments are written below it, as they are.
    private var encoder: ChannelHandlerContext?
    private var finished = false
    private var timed: [NIODeadline] = []

    /// Completes when the viewer was closed on the hub's side: the socket should then be closed.
    var ended: EventLoopFuture<Void> { endedPromise.futureResult }

    init(viewer: Viewer, channel: any Channel, framing: LiveFragmentFraming, instrumentation: HubInstrumentation?,
         initText: @escaping @Sendable (String, VideoFormat) -> String, statusText: @escaping @Sendable (CameraStatus) -> String) {
        self.viewer = viewer
        self.channel = channel
        self.eventLoop = channel.eventLoop
        self.instrumentation = instrumentation
        self.initText = initText
        self.statusText = statusText
        self.endedPromise = channel.eventLoop.makePromise()
        self.framed = framing == .webSocketBinary
    }

    /// Installs the writability handler and starts taking the viewer's messages.
    func start() async throws {
        try await eventLoop.submit { try self.startOnLoop() }.get()
    }

    /// ``start()``, on the channel's event loop.
    func startOnLoop() throws {
        eventLoop.preconditionInEventLoop()
        let pipeline = channel.pipeline.syncOperations
        if framed { encoder = try pipeline.context(handlerType: WebSocketFrameEncoder.self) }
        try pipeline.addHandler(WritabilityHandler(pump: self), position: .first)
        viewer.attach(self)
    }

    func drain() {
        eventLoop.preconditionInEventLoop()
        guard !finished else { return }
        var wrote = false
        loop: while true {
            guard channel.isWritable else {
                // Resumed by the writability handler; a viewer closed meanwhile ends now (its queue is empty).
                if viewer.isClosed, case .closed = viewer.poll() { end() }
                break
            }
            switch viewer.poll() {
            case .message(let message, let arrival):
                write(message)
                wrote = true
                if let arrival, instrumentation != nil { timed.append(arrival) }
            case .empty:
                break loop
            case .closed:
                end()
                break loop
            }
        }
        if wrote {
            // From the encoder down: the handlers above it have nothing to do with a flush.
            if let encoder { encoder.flush() } else { channel.pipeline.syncOperations.flush() }
            if let instrumentation, !timed.isEmpty {
                let now = NIODeadline.now()
                for arrival in timed { instrumentation.fragmentWritten(arrival: arrival, now: now) }
                timed.removeAll(keepingCapacity: true)
            }
        }
    }

    private func end() {
        guard !finished else { return }
        finished = true
        endedPromise.succeed()
    }

    deinit {
        // Never started, or its loop went away first: nobody waits any more, but a promise must complete.
        if !finished { endedPromise.succeed() }
    }

    private func write(_ message: ViewerMessage) {
        // A live fragment, framed already, goes below the encoder: no pipeline walk from the top.
        if case .fragment(let bytes, _) = message, let encoder {
            encoder.write(NIOAny(bytes), promise: nil)
            return
        }
        let pipeline = channel.pipeline.syncOperations
        switch message {
        case .initialization(let segment, let mimeType, let format):
            writeText(initText(mimeType, format), pipeline)
            pipeline.write(NIOAny(WebSocketFrame(fin: true, opcode: .binary, data: segment)), promise: nil)
        case .fragment(let bytes, _):
            pipeline.write(NIOAny(WebSocketFrame(fin: true, opcode: .binary, data: bytes)), promise: nil)
        case .status(let status):
            writeText(statusText(status), pipeline)
        }
    }

    private func writeText(_ text: String, _ pipeline: ChannelPipeline.SynchronousOperations) {
        let buffer = channel.allocator.buffer(string: text)
        pipeline.write(NIOAny(WebSocketFrame(fin: true, opcode: .text, data: buffer)), promise: nil)
    }

    /// First in the pipeline: resumes the pump when the socket can take more.
    final class WritabilityHandler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        private let pump: LiveSocketPump

        init(pump: LiveSocketPump) {
            self.pump = pump
        }

        func channelWritabilityChanged(context: ChannelHandlerContext) {
            if context.channel.isWritable { pump.drain() }
            context.fireChannelWritabilityChanged()
        }
    }
}
