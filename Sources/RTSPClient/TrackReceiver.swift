import AAC
import Foundation
import H26x
import Logging
import NIOCore
import RTP
import RTSPCore

/// The media pipeline of one track: RTP parse → sequence tracking (→ reorder window for UDP)
/// → depacketizer (H.264/H.265 video, or AAC audio) → timing → ``RTSPMediaEvent``. Confined to the
/// connection's event loop; no locks, no hops, payloads stay slices of the received buffers.
final class TrackReceiver {
    let index: Int
    let payloadType: UInt8
    let clockRate: Int
    let kind: RTSPSessionStateMachine.Track.Kind
    private var depacketizer: any VideoDepacketizer
    /// Audio tracks: the RFC 3640 depacketizer, nil when the track's fmtp could not be used (then its
    /// packets are counted and dropped, and video goes on).
    private var audio: MPEG4GenericDepacketizer?
    private var sequence = SequenceTracker()
    private var reorder: ReorderBuffer?
    private var timestamps = TimestampExtender()
    private var wallClock: WallClockMapper
    private var jitter: JitterEstimator
    private var ssrc: UInt32?
    private let emit: (RTSPMediaEvent) -> Void
    private let logger: Logger
    private var warnedPayloadType = false
    private var warnedMalformed = false
    private var warnedMalformedPayload = false
    private var warnedUnsupportedPayload = false
    private var announcedFormat = false
    private(set) var lastPacketAt: NIODeadline?
    /// The last RTP packet taken left its picture open (no marker bit: RFC 6184 §5.1, the last packet of an
    /// access unit sets it). Merged reads wait only between pictures (``ReadPacer/midPicture``).
    private(set) var pictureOpen = false
    private(set) var statistics = RTSPSessionStatistics()
    /// RFC 3550 §6.4.1 LSR: middle 32 bits of the last SR's NTP timestamp, and when it arrived.
    private var lastSenderReport: (middle: UInt32, at: NIODeadline)?

    init(index: Int, track: RTSPSessionStateMachine.Track, knownParameterSets: [[UInt8]], udp: Bool,
         reorderWindow: Int, logger: Logger, emit: @escaping (RTSPMediaEvent) -> Void) {
        self.index = index
        self.payloadType = track.payloadType
        self.clockRate = track.clockRate
        self.wallClock = WallClockMapper(clockRate: track.clockRate)
        self.jitter = JitterEstimator(clockRate: track.clockRate)
        self.reorder = udp ? ReorderBuffer(capacity: reorderWindow, maxDelay: .milliseconds(50)) : nil
        self.emit = emit
        self.logger = logger
        self.kind = track.kind
        let fmtp = track.media.formatParameters
        if track.kind == .audio {
            // An audio track never stands in the way of video: a bad fmtp disables audio, with one warning.
            self.depacketizer = H264Depacketizer(parameterSets: [])
            do {
                let depacketizer = try MPEG4GenericDepacketizer(formatParameters: fmtp?.parameters ?? [:], clockRate: track.clockRate)
                self.audio = depacketizer
                emit(.audioFormat(depacketizer.format, trackIndex: index, clockRate: track.clockRate))
            } catch {
                logger.warning("quirk: the camera's AAC track cannot be used; recording video only",
                               metadata: ["quirk": "unusable-audio-fmtp", "error": "\(error)"])
            }
        } else if track.encodingName == "H265" {
            var sets: [[UInt8]] = []
            for key in ["sprop-vps", "sprop-sps", "sprop-pps"] { sets += fmtp?.base64List(key) ?? [] }
            self.depacketizer = H265Depacketizer(parameterSets: sets.isEmpty ? knownParameterSets : sets)
        } else {
            let sets = fmtp?.base64List("sprop-parameter-sets") ?? []
            self.depacketizer = H264Depacketizer(parameterSets: sets.isEmpty ? knownParameterSets : sets)
        }
    }

    /// The format from the SDP's parameter sets, if they were complete.
    var format: VideoFormat? { depacketizer.format }

    func receiveRTP(_ buffer: ByteBuffer, now: NIODeadline) {
        let packet: RTPPacket
        do {
            packet = try RTPPacket(parsing: buffer)
        } catch {
            statistics.malformedPackets += 1
            if !warnedMalformed {
                warnedMalformed = true
                logger.warning("quirk: dropped a malformed RTP packet", metadata: ["quirk": "malformed-rtp", "error": "\(error)"])
            }
            return
        }
        guard packet.payloadType == payloadType else {
            if !warnedPayloadType {
                warnedPayloadType = true
                logger.warning("quirk: ignoring RTP packets with an unexpected payload type",
                               metadata: ["quirk": "unexpected-payload-type", "expected": "\(payloadType)", "got": "\(packet.payloadType)"])
            }
            return
        }
        lastPacketAt = now
        pictureOpen = !packet.marker
        statistics.rtpPackets += 1
        statistics.rtpBytes += buffer.readableBytes
        if let known = ssrc, known != packet.ssrc {
            // The camera restarted its sender (new SSRC): start sequence tracking afresh.
            logger.info("RTP source changed", metadata: ["old-ssrc": "\(known)", "new-ssrc": "\(packet.ssrc)"])
            statistics.packetsLost += sequence.packetsLost
            sequence = SequenceTracker()
            timestamps = TimestampExtender()
        }
        ssrc = packet.ssrc
        jitter.record(rtpTimestamp: packet.timestamp, arrival: Double(now.uptimeNanoseconds) / 1e9)
        if reorder != nil {
            // UDP: hold out-of-order packets up to 50 ms for the gap to fill, then give up on it.
            let arrival = ContinuousClock.now
            for released in reorder!.releaseExpired(now: arrival) { process(released, now: now) }
            for released in reorder!.insert(packet, arrival: arrival) { process(released, now: now) }
        } else {
            process(packet, now: now)
        }
    }

    private func process(_ packet: RTPPacket, now: NIODeadline) {
        switch sequence.record(packet.sequenceNumber) {
        case .duplicate:
            statistics.duplicatePackets += 1
            return
        case .late:
            return
        default:
            break
        }
        if kind == .audio {
            guard audio != nil else { return }
            let frames = audio!.push(payload: packet.payload, sequenceNumber: packet.sequenceNumber,
                                     timestamp: packet.timestamp, marker: packet.marker)
            deliverAudio(frames, now: now)
            return
        }
        let units = depacketizer.push(payload: packet.payload, sequenceNumber: packet.sequenceNumber,
                                      timestamp: packet.timestamp, marker: packet.marker)
        // Most packets complete nothing (a picture is a dozen or more): the statistics and the format are
        // looked at once per picture, when a unit completes or the marker bit ends one (even a dropped one).
        if units.isEmpty && !packet.marker { return }
        deliver(units, now: now)
    }

    private func deliverAudio(_ frames: [AudioFrame], now: NIODeadline) {
        if let audio, audio.statistics.malformedPackets > 0, !warnedMalformedPayload {
            warnedMalformedPayload = true
            logger.warning("quirk: malformed AAC payload; the damaged audio frames are dropped",
                           metadata: ["quirk": "malformed-payload"])
        }
        for frame in frames {
            let extended = timestamps.extend(frame.rtpTimestamp)
            statistics.audioFrames += 1
            emit(.audio(AudioSample(data: frame.data, trackIndex: index, timestamp: extended, clockRate: clockRate,
                                    receivedAt: now, senderReportClock: wallClock.date(forRTPTimestamp: frame.rtpTimestamp))))
        }
    }

    private func deliver(_ units: [AccessUnit], now: NIODeadline) {
        let stats = depacketizer.statistics
        if stats.malformedPackets > 0 && !warnedMalformedPayload {
            warnedMalformedPayload = true
            logger.warning("quirk: malformed \(depacketizer.codec.rawValue.uppercased()) payload; the damaged picture is dropped until the next keyframe",
                           metadata: ["quirk": "malformed-payload"])
        }
        if stats.unsupportedPackets > 0 && !warnedUnsupportedPayload {
            warnedUnsupportedPayload = true
            logger.warning("quirk: the camera uses a packetization WatchBox skips (interleaved mode: STAP-B/MTAP/FU-B/PACI)",
                           metadata: ["quirk": "unsupported-packetization"])
        }
        if depacketizer.formatChanged || (!announcedFormat && depacketizer.format != nil) {
            depacketizer.formatChanged = false
            if let format = depacketizer.format {
                announcedFormat = true
                emit(.formatChanged(format))
            }
        }
        for var unit in units {
            let extended = timestamps.extend(unit.rtpTimestamp)
            let reported = wallClock.date(forRTPTimestamp: unit.rtpTimestamp)
            unit.wallClock = reported ?? Date()
            statistics.accessUnits += 1
            if unit.isKeyframe { statistics.keyframes += 1 }
            emit(.video(MediaFrame(accessUnit: unit, trackIndex: index, timestamp: extended, clockRate: clockRate,
                                   receivedAt: now, senderReportClock: reported)))
        }
    }

    func receiveRTCP(_ buffer: ByteBuffer, now: NIODeadline) {
        guard let packets = try? RTCPPacket.parseCompound(buffer) else { return }
        for packet in packets {
            switch packet {
            case .senderReport(let report, _):
                statistics.senderReports += 1
                wallClock.update(with: report)
                lastSenderReport = (UInt32(truncatingIfNeeded: report.ntpTimestamp >> 16), now)
            case .goodbye:
                logger.info("the camera sent RTCP BYE")
            default:
                break
            }
        }
    }

    /// Flush what the reorder window holds (end of session).
    func drain(now: NIODeadline) {
        if reorder != nil {
            for released in reorder!.drain() { process(released, now: now) }
        }
    }

    /// The RTCP receiver report block for this track (RFC 3550 §6.4.2).
    func reportBlock(now: NIODeadline) -> RTCPReportBlock? {
        guard let ssrc else { return nil }
        var lsr: UInt32 = 0
        var dlsr: UInt32 = 0
        if let last = lastSenderReport {
            lsr = last.middle
            // DLSR in units of 1/65536 s.
            let delay = Double((now - last.at).nanoseconds) / 1e9
            dlsr = UInt32(clamping: Int(delay * 65536))
        }
        return sequence.reportBlock(ssrc: ssrc, jitter: jitter.jitter, lastSR: lsr, delaySinceLastSR: dlsr)
    }

    var currentStatistics: RTSPSessionStatistics {
        var stats = statistics
        stats.packetsLost += sequence.packetsLost
        if kind == .video {
            stats.droppedUnits = depacketizer.statistics.droppedUnits
        }
        return stats
    }
}
