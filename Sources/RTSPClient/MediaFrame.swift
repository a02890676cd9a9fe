import AAC
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
    /// The capture time the camera's RTCP sender reports give for this frame (RFC 3550 §6.4.1), nil
    /// until the first report arrives. Tracks of one camera share this clock: it is what lines audio up
    /// with video.
    public var senderReportClock: Date?

    public init(accessUnit: AccessUnit, trackIndex: Int, timestamp: Int64, clockRate: Int, receivedAt: NIODeadline,
                senderReportClock: Date? = nil) {
        self.accessUnit = accessUnit
        self.trackIndex = trackIndex
        self.timestamp = timestamp
        self.clockRate = clockRate
        self.receivedAt = receivedAt
        self.senderReportClock = senderReportClock
    }

    public var isKeyframe: Bool { accessUnit.isKeyframe }
}

/// One AAC access unit (raw, no ADTS header) with its timing.
public struct AudioSample: Sendable {
    public var data: ByteBuffer
    public var trackIndex: Int
    /// The RTP timestamp extended to 64 bits, in `clockRate` units (the sample rate for AAC).
    public var timestamp: Int64
    public var clockRate: Int
    public var receivedAt: NIODeadline
    /// As ``MediaFrame/senderReportClock``.
    public var senderReportClock: Date?

    public init(data: ByteBuffer, trackIndex: Int, timestamp: Int64, clockRate: Int, receivedAt: NIODeadline,
                senderReportClock: Date? = nil) {
        self.data = data
        self.trackIndex = trackIndex
        self.timestamp = timestamp
        self.clockRate = clockRate
        self.receivedAt = receivedAt
        self.senderReportClock = senderReportClock
    }
}

/// What a playing session delivers, on the connection's event loop, in order.
public enum RTSPMediaEvent: Sendable {
    /// The stream's format is known or changed (new parameter sets, new resolution). Always precedes the first frame.
    case formatChanged(VideoFormat)
    case video(MediaFrame)
    /// The session carries an AAC track in this format (sent once, before PLAY's first packets). `clockRate`
    /// is the RTP clock of its timestamps, which for HE-AAC may differ from the format's output sample rate.
    case audioFormat(AudioFormat, trackIndex: Int, clockRate: Int)
    case audio(AudioSample)
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
    /// RTCP receiver reports this client sent.
    public var receiverReports = 0
    public var audioFrames = 0

    public init() {}
}
