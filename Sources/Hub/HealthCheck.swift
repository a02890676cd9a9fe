import Foundation
import RTSPCore

/// The outcome of one reachability check of a camera nobody is watching (``CameraHealthMonitor``).
public struct HealthCheck: Sendable, Equatable {
    /// When the check finished.
    public var at: Date
    /// Why it failed; nil when the camera answered OPTIONS and DESCRIBE.
    public var failure: RTSPClientError?
    /// The first failed check of the current run of failures (nil while the camera is reachable).
    public var failingSince: Date?

    public init(at: Date, failure: RTSPClientError?, failingSince: Date? = nil) {
        self.at = at
        self.failure = failure
        self.failingSince = failingSince
    }

    public var isReachable: Bool { failure == nil }

    /// The state an idle camera is shown in after this check: `idle` when it passed, else the failure's
    /// state (a dropped connection counts as unreachable: there is no stream to reconnect).
    public var state: CameraState {
        guard let failure else { return .idle }
        let state = CameraState(failure: failure)
        return state == .reconnecting ? .unreachable : state
    }
}

/// An upstream that can tell whether its camera is up without streaming from it.
public protocol HealthCheckable: Sendable {
    /// A cheap check (for RTSP: OPTIONS and DESCRIBE, no SETUP or PLAY) that gives up after `timeout`.
    /// Returns nil when the check was cancelled.
    func checkHealth(timeout: Duration) async -> HealthCheck?
}
