import Foundation
import Logging
import NIOCore
import RTP
import RTSPCore

/// Routes a session's RTP/RTCP (interleaved channels or UDP sockets) to the track receivers,
/// watches for the stream going silent, and sends RTCP receiver reports.
/// Confined to the connection's event loop.
final class MediaRouter: @unchecked Sendable {
    private let eventLoop: EventLoop
    private let receivers: [TrackReceiver]
    /// Interleaved channel → (receiver, isRTCP).
    private var channels: [UInt8: (receiver: Int, rtcp: Bool)] = [:]
    private let dataTimeout: TimeAmount
    private let reportInterval: TimeAmount
    private let logger: Logger
    private let url: RTSPURL
    private let ownSSRC = UInt32.random(in: 1...UInt32.max)
    private var startedAt = NIODeadline.now()
    private var lastReport = NIODeadline.now()
    private var watchdog: RepeatedTask?
    /// Whether the last video RTP packet left its picture open (no marker bit yet): the rest of the picture is
    /// on its way. Merged reads wait only between pictures (``ReadPacer/midPicture``); asked by the pacer only,
    /// from what the receiver parsed anyway. A camera that never sets the marker bit leaves this true: its
    /// reads are then never held.
    var videoPictureOpen: Bool { receivers.contains { $0.kind == .video && $0.pictureOpen } }
    private var receiverReportsSent = 0
    /// Closes the session (data timeout).
    var onDead: ((RTSPClientError) -> Void)?
    /// Sends an RTCP packet for a receiver (interleaved or UDP).
    var sendRTCP: ((Int, ByteBuffer) -> Void)?
    /// Sees every packet (channel 2n RTP / 2n+1 RTCP of receiver n's track).
    var tap: ((UInt8, ByteBuffer) -> Void)?

    init(eventLoop: EventLoop, receivers: [TrackReceiver], dataTimeout: TimeAmount, reportInterval: TimeAmount,
         url: RTSPURL, logger: Logger) {
        self.eventLoop = eventLoop
        self.receivers = receivers
        self.dataTimeout = dataTimeout
        self.reportInterval = reportInterval
        self.url = url
        self.logger = logger
    }

    func mapInterleaved(rtp: UInt8, rtcp: UInt8, receiver: Int) {
        channels[rtp] = (receiver, false)
        channels[rtcp] = (receiver, true)
    }

    func interleaved(channel: UInt8, payload: ByteBuffer) {
        guard let target = channels[channel] else { return }
        tap?(UInt8(2 * target.receiver + (target.rtcp ? 1 : 0)), payload)
        let now = NIODeadline.now()
        if target.rtcp {
            receivers[target.receiver].receiveRTCP(payload, now: now)
        } else {
            receivers[target.receiver].receiveRTP(payload, now: now)
        }
    }

    func udp(receiver: Int, rtcp: Bool, payload: ByteBuffer) {
        tap?(UInt8(2 * receiver + (rtcp ? 1 : 0)), payload)
        let now = NIODeadline.now()
        if rtcp {
            receivers[receiver].receiveRTCP(payload, now: now)
        } else {
            receivers[receiver].receiveRTP(payload, now: now)
        }
    }

    func start() {
        startedAt = .now()
        lastReport = .now()
        let tick = TimeAmount.milliseconds(min(500, max(50, dataTimeout.nanoseconds / 1_000_000 / 4)))
        watchdog = eventLoop.scheduleRepeatedTask(initialDelay: tick, delay: tick) { [weak self] _ in
            self?.check()
        }
    }

    func stop() {
        watchdog?.cancel()
        watchdog = nil
        let now = NIODeadline.now()
        for receiver in receivers { receiver.drain(now: now) }
    }

    private func check() {
        let now = NIODeadline.now()
        // Video is what the stream is for: audio still flowing does not keep a dead video track alive.
        let video = receivers.filter { $0.kind == .video }
        let last = video.compactMap(\.lastPacketAt).max() ?? startedAt
        if now - last > dataTimeout {
            let seconds = Double(dataTimeout.nanoseconds) / 1e9
            let never = video.allSatisfy { $0.lastPacketAt == nil }
            let message = never
                ? "\(url.redacted) accepted PLAY but sent no video for \(String(format: "%g", seconds)) s: the stream may be disabled, or UDP may be blocked (try --transport tcp)"
                : "no video from \(url.redacted) for \(String(format: "%g", seconds)) s: the camera stopped sending"
            watchdog?.cancel()
            watchdog = nil
            onDead?(RTSPClientError(.noData, message, url: url.redacted))
            return
        }
        if now - lastReport >= reportInterval {
            lastReport = now
            for (index, receiver) in receivers.enumerated() {
                guard let block = receiver.reportBlock(now: now) else { continue }
                let report = RTCPReceiverReport(ssrc: ownSSRC, cname: "watchbox", reports: [block])
                var buffer = ByteBufferAllocator().buffer(capacity: 64)
                report.write(into: &buffer)
                sendRTCP?(index, buffer)
                receiverReportsSent += 1
            }
        }
    }

    var statistics: RTSPSessionStatistics {
        var total = RTSPSessionStatistics()
        total.receiverReports = receiverReportsSent
        for receiver in receivers {
            let s = receiver.currentStatistics
            total.rtpPackets += s.rtpPackets
            total.rtpBytes += s.rtpBytes
            total.packetsLost += s.packetsLost
            total.duplicatePackets += s.duplicatePackets
            total.malformedPackets += s.malformedPackets
            total.accessUnits += s.accessUnits
            total.keyframes += s.keyframes
            total.droppedUnits += s.droppedUnits
            total.senderReports += s.senderReports
            total.audioFrames += s.audioFrames
        }
        return total
    }
}

/// Hands UDP datagrams (RTP or RTCP of one track) to the router.
final class UDPMediaHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    var onDatagram: ((ByteBuffer) -> Void)?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        onDatagram?(unwrapInboundIn(data).data)
    }
}
