import Foundation
import RTSPCore

/// Where a camera's stream stands, as the grid shows it.
public enum CameraState: String, Codable, Sendable, Equatable, CaseIterable {
    /// Nobody is watching; the upstream is stopped (it starts when a viewer arrives).
    case idle
    case connecting
    case live
    /// Live, but no frame for 5 s.
    case frozen
    case reconnecting
    case authenticationFailed
    case unreachable
    case unsupportedCodec
    /// Too many cameras are streaming at once (`--max-streams`).
    case limitReached
    /// The camera is switched off in the registry.
    case stopped
    case error
}

/// A camera's state with the numbers a person wants to see next to it.
public struct CameraStatus: Codable, Sendable, Equatable {
    public var state: CameraState
    /// Why, in words, when the state is not self-explanatory.
    public var message: String?
    public var fps: Double?
    public var bitrateKbps: Double?
    public var lastFrameAt: Date?
    public var viewers: Int
    public var codec: String?
    public var width: Int?
    public var height: Int?
    /// When the hub last checked the camera while nobody watched it (``CameraHealthMonitor``); nil while
    /// it is watched (then its live stream tells) or before the first check.
    public var checkedAt: Date?
    /// The last check's verdict: true when the camera answered, false when it did not (the state and
    /// message then say why); nil when there is no check to go by.
    public var reachable: Bool?
    /// Set while the camera is down for real, the time the trouble began: a running stream that has not
    /// been live for ``StreamHub/Configuration/failAfter`` (or at once on a wrong password or an unusable
    /// stream), or an idle camera whose checks fail. Clients show "failed" when it is set.
    public var failedSince: Date?

    public init(state: CameraState, message: String? = nil, fps: Double? = nil, bitrateKbps: Double? = nil,
                lastFrameAt: Date? = nil, viewers: Int = 0, codec: String? = nil, width: Int? = nil, height: Int? = nil,
                checkedAt: Date? = nil, reachable: Bool? = nil, failedSince: Date? = nil) {
        self.state = state
        self.message = message
        self.fps = fps
        self.bitrateKbps = bitrateKbps
        self.lastFrameAt = lastFrameAt
        self.viewers = viewers
        self.codec = codec
        self.width = width
        self.height = height
        self.checkedAt = checkedAt
        self.reachable = reachable
        self.failedSince = failedSince
    }

    public static let idle = CameraStatus(state: .idle)
}

extension CameraState {
    /// The state a failed connection attempt leaves the camera in.
    public init(failure: RTSPClientError) {
        switch failure.kind {
        case .authenticationFailed: self = .authenticationFailed
        case .nameResolution, .connectionRefused, .unreachable, .timeout, .tls: self = .unreachable
        case .unsupportedCodec, .noVideoTrack: self = .unsupportedCodec
        case .noData, .connectionClosed: self = .reconnecting
        case .malformedURL, .notFound, .unsupportedTransport, .redirectLoop, .serverError, .protocolError, .notRTSP: self = .error
        }
    }
}
