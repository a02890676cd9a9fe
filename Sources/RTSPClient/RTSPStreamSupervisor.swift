import Foundation
import H26x
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import RTSPCore

/// What a supervised stream reports.
public enum RTSPStreamEvent: Sendable {
    /// Opening a session (attempt 1 is the first connection, higher ones are reconnects).
    case connecting(attempt: Int)
    case playing(RTSPSessionStateMachine.SessionInfo)
    /// Media from the current session (delivered on its event loop).
    case media(RTSPMediaEvent)
    /// The session ended or could not be opened; the next attempt follows after `retryIn`.
    case disconnected(RTSPClientError, retryIn: Duration)
}

/// Keeps one camera's stream up: opens a session, watches it, and on failure reconnects with
/// exponential backoff, re-doing DESCRIBE/SETUP/PLAY. The depacketizer starts afresh each time
/// but the last known parameter sets are kept, for cameras whose SDP carries none.
public final class RTSPStreamSupervisor: Sendable {
    public let url: RTSPURL
    private let configuration: RTSPClientConfiguration
    private let policy: ReconnectPolicy
    private let group: EventLoopGroup
    private let logger: Logger
    private let knownParameterSets = NIOLockedValueBox<[[UInt8]]>([])

    public init(url: RTSPURL, configuration: RTSPClientConfiguration = RTSPClientConfiguration(),
                reconnect: ReconnectPolicy = ReconnectPolicy(),
                group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                logger: Logger = Logger(label: "watchbox.rtsp")) {
        self.url = url
        self.configuration = configuration
        self.policy = reconnect
        self.group = group
        var logger = logger
        logger[metadataKey: "url"] = "\(url.redacted)"
        self.logger = logger
    }

    /// Runs until the surrounding task is cancelled; then tears the session down.
    public func run(onEvent: @escaping @Sendable (RTSPStreamEvent) -> Void) async {
        var attempt = 0
        var failures = 0
        while !Task.isCancelled {
            attempt += 1
            onEvent(.connecting(attempt: attempt))
            let delivered = NIOLockedValueBox(false)
            let known = knownParameterSets
            let reason: RTSPClientError
            do {
                let session = try await RTSPSession.start(
                    url: url, configuration: configuration, group: group, logger: logger,
                    knownParameterSets: known.withLockedValue { $0 }
                ) { event in
                    switch event {
                    case .formatChanged(let format):
                        known.withLockedValue { $0 = format.parameterSets }
                    case .video:
                        delivered.withLockedValue { $0 = true }
                    case .audioFormat, .audio:
                        break
                    }
                    onEvent(.media(event))
                }
                if let info = await session.info { onEvent(.playing(info)) }
                reason = await withTaskCancellationHandler {
                    await session.waitUntilClosed()
                } onCancel: {
                    Task { await session.stop() }
                }
                if Task.isCancelled { break }
            } catch let failure as RTSPClientError {
                reason = failure
            } catch {
                if Task.isCancelled { break }
                reason = RTSPClientError(.protocolError, "\(url.redacted): \(error)", url: url.redacted)
            }
            if delivered.withLockedValue({ $0 }) { failures = 0 }
            failures += 1
            let delay = reason.isPermanent ? policy.permanentErrorDelay : policy.delay(attempt: failures)
            logger.warning("stream interrupted; reconnecting", metadata: [
                "error": "\(reason)", "kind": "\(reason.kind.rawValue)", "retry-in": "\(delay)",
            ])
            onEvent(.disconnected(reason, retryIn: delay))
            try? await Task.sleep(for: delay)
        }
    }
}
