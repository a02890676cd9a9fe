import Foundation
import NIOCore
import RTSPCore

/// How the client connects and how patient it is.
public struct RTSPClientConfiguration: Sendable {
    public typealias Transport = RTSPSessionStateMachine.Configuration.Transport

    public var transport: Transport
    public var userAgent: String
    /// Also set up the first AAC audio track.
    public var includeAudio: Bool
    /// TCP connect (and TLS handshake) timeout.
    public var connectTimeout: TimeAmount
    /// How long to wait for the answer to one request.
    public var requestTimeout: TimeAmount
    /// A playing session that receives no RTP for this long is dead (the N seconds, default 5).
    public var dataTimeout: TimeAmount
    /// `rtsps://` only: accept a certificate that does not verify (self-signed cameras). Off by default.
    public var allowSelfSignedCertificates: Bool
    /// UDP only: how many out-of-order packets the reorder window holds.
    public var reorderWindow: Int
    /// Send RTCP receiver reports every this often (some cameras use them as a liveness signal).
    public var receiverReportInterval: TimeAmount
    /// Sees every RTP/RTCP packet as received, with its interleaved channel (2n RTP, 2n+1 RTCP of track n),
    /// on the connection's event loop: for `watchbox capture`.
    public var packetTap: (@Sendable (UInt8, ByteBuffer) -> Void)?
    /// TCP only, once playing: read the socket at most once per this interval, on instants every connection of
    /// an event loop shares (``ReadPacer``): fewer wake-ups with many cameras, for up to this much more delay (a
    /// read is held only between pictures).
    /// nil (the default): read as soon as data arrives.
    public var readInterval: TimeAmount?

    public init(transport: Transport = .tcp,
                userAgent: String = "WatchBox/0.1",
                includeAudio: Bool = false,
                connectTimeout: TimeAmount = .seconds(5),
                requestTimeout: TimeAmount = .seconds(10),
                dataTimeout: TimeAmount = .seconds(5),
                allowSelfSignedCertificates: Bool = false,
                reorderWindow: Int = 32,
                receiverReportInterval: TimeAmount = .seconds(5)) {
        self.transport = transport
        self.userAgent = userAgent
        self.includeAudio = includeAudio
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.dataTimeout = dataTimeout
        self.allowSelfSignedCertificates = allowSelfSignedCertificates
        self.reorderWindow = reorderWindow
        self.receiverReportInterval = receiverReportInterval
    }

    var stateMachineConfiguration: RTSPSessionStateMachine.Configuration {
        RTSPSessionStateMachine.Configuration(transport: transport, userAgent: userAgent, includeAudio: includeAudio)
    }
}
