import Foundation
import Logging
import NIOCore
import NIOPosix
import RTSPClient
import RTSPCore

/// What an upstream (a camera's RTSP stream, or the demo clip) reports to its ``LiveStream``.
public enum UpstreamEvent: Sendable {
    /// Opening the stream (attempt 1 is the first, higher ones are reconnects).
    case connecting(attempt: Int)
    /// Media is about to flow.
    case playing(server: String?)
    case media(RTSPMediaEvent)
    /// The stream ended or could not be opened; the next attempt follows after `retryIn`.
    case disconnected(RTSPClientError, retryIn: Duration)
}

/// A source of one camera stream that keeps itself up until its task is cancelled.
public protocol Upstream: Sendable {
    /// Runs until the surrounding task is cancelled, reporting through `onEvent` (from any thread,
    /// in order). Media events must not be delayed: `onEvent` never blocks.
    func run(onEvent: @escaping @Sendable (UpstreamEvent) -> Void) async

    /// As ``run(onEvent:)``, with the connection on `eventLoop` when the upstream has one (the loop of
    /// the stream's viewers, so that a frame is read, muxed and written to them on one thread).
    func run(on eventLoop: (any EventLoop)?, onEvent: @escaping @Sendable (UpstreamEvent) -> Void) async
}

extension Upstream {
    /// Upstreams without a connection of their own ignore the loop.
    public func run(on eventLoop: (any EventLoop)?, onEvent: @escaping @Sendable (UpstreamEvent) -> Void) async {
        await run(onEvent: onEvent)
    }
}

/// A camera's RTSP stream, kept up by ``RTSPStreamSupervisor`` (reconnect with backoff).
public struct RTSPUpstream: Upstream {
    public let url: RTSPURL
    public let configuration: RTSPClientConfiguration
    public let reconnect: ReconnectPolicy
    public let logger: Logger

    public init(url: RTSPURL, configuration: RTSPClientConfiguration = RTSPClientConfiguration(),
                reconnect: ReconnectPolicy = ReconnectPolicy(), logger: Logger = Logger(label: "watchbox.stream")) {
        self.url = url
        self.configuration = configuration
        self.reconnect = reconnect
        self.logger = logger
    }

    public func run(onEvent: @escaping @Sendable (UpstreamEvent) -> Void) async {
        await run(on: nil, onEvent: onEvent)
    }

    public func run(on eventLoop: (any EventLoop)?, onEvent: @escaping @Sendable (UpstreamEvent) -> Void) async {
        let supervisor = RTSPStreamSupervisor(url: url, configuration: configuration, reconnect: reconnect,
                                              group: eventLoop ?? MultiThreadedEventLoopGroup.singleton, logger: logger)
        await supervisor.run { event in
            switch event {
            case .connecting(let attempt): onEvent(.connecting(attempt: attempt))
            case .playing(let info): onEvent(.playing(server: info.server))
            case .media(let media): onEvent(.media(media))
            case .disconnected(let error, let retryIn): onEvent(.disconnected(error, retryIn: retryIn))
            }
        }
    }
}
