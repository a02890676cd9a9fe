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

    public init(state: CameraState, message: String? = nil, fps: Double? = nil, bitrateKbps: Double? = nil,
                lastFrameAt: Date? = nil, viewers: Int = 0, codec: String? = nil, width: Int? = nil, height: Int? = nil) {
        self.state = state
        self.message = message
        self.fps = fps
        self.bitrateKbps = bitrateKbps
        self.lastFrameAt = lastFrameAt
        self.viewers = viewers
        self.codec = codec
        self.width = width
        self.height = height
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
        case .malformedURL, .notFound, .unsupportedTransport, .redirectLoop, .serverError, .protocolError: self = .error
        }
    }
}
