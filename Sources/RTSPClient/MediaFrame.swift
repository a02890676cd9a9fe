import Foundation
import H26x
import NIOCore

/// A complete video access unit with its timing: what the depacketizer hands to the rest of the hub.
public struct MediaFrame: Sendable {
    public var accessUnit: AccessUnit
    /// Which SDP track (index into `SessionInfo.tracks`).
    public var trackIndex: Int
    /// The RTP timestamp extended to 64 bits (monotonic across wrap), in `clockRate` units.
    public var timestamp: Int64
    public var clockRate: Int
    /// When the last packet of the unit arrived (monotonic clock).
    public var receivedAt: NIODeadline

    public var isKeyframe: Bool { accessUnit.isKeyframe }
}

/// What a playing session delivers, on the connection's event loop, in order.
public enum RTSPMediaEvent: Sendable {
    /// The stream's format is known or changed (new parameter sets, new resolution). Always precedes the first frame.
    case formatChanged(VideoFormat)
    case video(MediaFrame)
}

/// Counters of one session, for `probe`, health and metrics.
public struct RTSPSessionStatistics: Sendable, Equatable, Codable {
    public var rtpPackets = 0
    public var rtpBytes = 0
    public var packetsLost = 0
    public var duplicatePackets = 0
    public var malformedPackets = 0
    public var accessUnits = 0
    public var keyframes = 0
    public var droppedUnits = 0
    public var senderReports = 0

    public init() {}
}
