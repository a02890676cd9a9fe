import Foundation
import Logging
import NIOCore
import NIOPosix
import RTSPCore

/// Whether a camera is up, at almost no cost to it: connect, OPTIONS, DESCRIBE (with the credentials,
/// answering a 401 with Basic or Digest like a session would), then close. No SETUP, no PLAY, no media
/// (RFC 2326 §10.1, §10.2): the camera starts no encoder session for it.
///
/// Driven by the same ``RTSPSessionStateMachine`` as a real session, so redirects, authentication and
/// the SDP's video track are judged exactly as when the stream is played; the exchange stops where the
/// machine asks for the first SETUP.
public enum RTSPDescribeCheck {
    /// What a passed check learned.
    public struct Result: Sendable, Equatable {
        /// The `Server` header, when the camera sends one.
        public var server: String?
        /// How many of the SDP's tracks a session would set up (the video track, and AAC audio when asked for).
        public var trackCount: Int
    }

    /// Runs the check; throws ``RTSPClientError`` (refused, timeout, authentication failed, not found,
    /// not RTSP, no video track…). `timeout` bounds the whole exchange, connection included.
    public static func run(url: RTSPURL, configuration: RTSPClientConfiguration = RTSPClientConfiguration(),
                           timeout: Duration = .seconds(5),
                           group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                           logger: Logger = Logger(label: "watchbox.rtsp")) async throws -> Result {
        var configuration = configuration
        let limit = TimeAmount.nanoseconds(Int64(timeout / .nanoseconds(1)))
        configuration.connectTimeout = min(configuration.connectTimeout, limit)
        configuration.requestTimeout = min(configuration.requestTimeout, limit)
        let deadline = ContinuousClock.now + timeout
        var machine = RTSPSessionStateMachine(url: url, configuration: configuration.stateMachineConfiguration)
        var connection = try await RTSPConnection.connect(to: url, configuration: configuration, group: group, logger: logger)
        defer { connection.close() }
        var action = machine.connectionOpened()
        while true {
            switch action {
            case .send(let request):
                if request.method == "SETUP" || request.method == "PLAY" {
                    return Result(server: machine.serverHeader, trackCount: machine.selectedTracks.count)
                }
                let left = deadline - ContinuousClock.now
                guard left > .zero else {
                    throw RTSPClientError(.timeout, "\(url.redacted) did not finish answering \(request.method) within \(Self.seconds(timeout)) s",
                                         url: url.redacted, method: request.method, cseq: request.cseq)
                }
                let wait = min(configuration.requestTimeout, .nanoseconds(Int64(left / .nanoseconds(1))))
                let response: RTSPResponse
                do {
                    response = try await connection.request(request, timeout: wait)
                } catch let error as RTSPClientError where error.kind == .timeout {
                    // Say the whole check's time, not what was left of it for this request.
                    throw RTSPClientError(.timeout, "\(url.redacted) did not answer \(request.method) within \(Self.seconds(timeout)) s",
                                         url: url.redacted, method: request.method, cseq: request.cseq)
                }
                action = machine.receive(response)
            case .openConnection(let target):
                connection.close()
                connection = try await RTSPConnection.connect(to: target, configuration: configuration, group: group, logger: logger)
                action = machine.connectionOpened()
            case .bindUDPPorts:
                // UDP transport: the next step would be SETUP.
                return Result(server: machine.serverHeader, trackCount: machine.selectedTracks.count)
            case .playing:
                return Result(server: machine.serverHeader, trackCount: machine.selectedTracks.count)
            case .fail(let error):
                throw error
            case .none, .close:
                throw RTSPClientError(.protocolError, "\(url.redacted): the RTSP exchange stopped unexpectedly", url: url.redacted)
            }
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        let value = Double(duration / .milliseconds(1)) / 1000
        return value == value.rounded() ? "\(Int(value))" : String(format: "%.1f", value)
    }
}
