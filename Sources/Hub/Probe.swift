import AAC
import Foundation
import H26x
import Logging
import NIOConcurrencyHelpers
import NIOCore
import RTSPClient
import RTSPCore

/// What `watchbox probe` measures.
public struct ProbeReport: Codable, Sendable, Equatable {
    public struct Video: Codable, Sendable, Equatable {
        public var codec: String
        public var codecString: String
        public var profile: String
        public var level: String
        public var width: Int
        public var height: Int
        /// Measured from the RTP timestamps of the frames received.
        public var fps: Double
        /// What the SPS states, when it does.
        public var declaredFps: Double?
    }
    /// The camera's audio track, when its SDP has one.
    public struct Audio: Codable, Sendable, Equatable {
        /// "aac", "pcmu", "pcma", "opus", or "other".
        public var codec: String
        /// "AAC", "G.711 µ-law"…
        public var name: String
        public var sampleRate: Int?
        public var channels: Int?
        /// AAC frames received (AAC is the audio WatchBox records).
        public var frames: Int
        /// Whether recordings carry this audio.
        public var recorded: Bool
        public var note: String?
    }
    public var url: String
    public var server: String?
    public var transport: String
    public var authentication: String?
    public var video: Video
    public var audio: Audio?
    public var durationSeconds: Double
    public var frames: Int
    public var keyframes: Int
    public var bitrateKbps: Double
    /// Frames from one keyframe to the next (median); nil when fewer than two keyframes arrived.
    public var keyframeIntervalFrames: Int?
    public var packetsReceived: Int
    public var packetsLost: Int

    public var text: String {
        var lines: [String] = []
        lines.append("url:        \(url)")
        lines.append("server:     \(server ?? "(not stated)")")
        lines.append("transport:  \(transport)\(authentication.map { ", auth \($0)" } ?? "")")
        lines.append("video:      \(video.codec.uppercased()) \(video.profile) level \(video.level) (\(video.codecString)), \(video.width)x\(video.height)")
        lines.append("frame rate: \(String(format: "%.2f", video.fps)) fps measured\(video.declaredFps.map { String(format: ", %.2f declared", $0) } ?? "")")
        if let audio {
            var line = "audio:      \(audio.name)"
            if let rate = audio.sampleRate { line += ", \(rate) Hz" }
            if let channels = audio.channels { line += channels == 1 ? ", mono" : channels == 2 ? ", stereo" : ", \(channels) channels" }
            if let note = audio.note { line += " (\(note))" }
            lines.append(line)
        }
        lines.append("bitrate:    \(String(format: "%.0f", bitrateKbps)) kbit/s")
        lines.append("keyframes:  \(keyframes) in \(frames) frames" + (keyframeIntervalFrames.map { ", every \($0) frames" } ?? ""))
        lines.append("packets:    \(packetsReceived) received, \(packetsLost) lost")
        lines.append("duration:   \(String(format: "%.1f", durationSeconds)) s")
        return lines.joined(separator: "\n")
    }
}

/// Collects frames on the event loop; read once at the end.
private struct ProbeCollector {
    var format: VideoFormat?
    var frames = 0
    var keyframeIndices: [Int] = []
    var bytes = 0
    var firstTimestamp: Int64?
    var lastTimestamp: Int64?
    var clockRate = 90_000
    var firstArrival: NIODeadline?
    var lastArrival: NIODeadline?
    var audioFormat: AudioFormat?
    var audioFrames = 0
}

/// Plays a camera's stream for a while and reports what it sends (`watchbox probe`, "Test connection").
public enum Probe {
    public static func run(url: RTSPURL, configuration: RTSPClientConfiguration, duration: Double, logger: Logger) async throws -> ProbeReport {
        let collector = NIOLockedValueBox(ProbeCollector())
        let session = try await RTSPSession.start(url: url, configuration: configuration, logger: logger) { event in
            collector.withLockedValue { c in
                switch event {
                case .formatChanged(let format):
                    c.format = format
                case .video(let frame):
                    if frame.isKeyframe { c.keyframeIndices.append(c.frames) }
                    c.frames += 1
                    c.bytes += frame.accessUnit.byteCount
                    if c.firstTimestamp == nil { c.firstTimestamp = frame.timestamp; c.firstArrival = frame.receivedAt }
                    c.lastTimestamp = frame.timestamp
                    c.lastArrival = frame.receivedAt
                    c.clockRate = frame.clockRate
                case .audioFormat(let format, _, _):
                    c.audioFormat = format
                case .audio:
                    c.audioFrames += 1
                }
            }
        }
        let info = await session.info
        // Play for the duration, unless the session dies first.
        let died = await session.play(for: .milliseconds(Int64(duration * 1000)))
        let statistics = await session.statistics()
        await session.stop()
        if let died { throw died }

        let c = collector.withLockedValue { $0 }
        guard c.frames > 0, let format = c.format else {
            throw RTSPClientError(.noData, "\(url.redacted) sent no decodable video in \(String(format: "%g", duration)) s: the camera may not have sent a keyframe yet; try a longer --duration",
                                  url: url.redacted)
        }
        var fps = 0.0
        if let first = c.firstTimestamp, let last = c.lastTimestamp, last > first, c.frames > 1 {
            fps = Double(c.frames - 1) / (Double(last - first) / Double(c.clockRate))
        }
        var seconds = duration
        if let first = c.firstArrival, let last = c.lastArrival, last > first, c.frames > 1 {
            // Bits over the span they arrived in, extended by one frame period.
            seconds = Double((last - first).nanoseconds) / 1e9 * Double(c.frames) / Double(c.frames - 1)
        }
        var audio: ProbeReport.Audio?
        if let format = c.audioFormat {
            audio = .init(codec: format.codec.rawValue, name: format.codec.displayName, sampleRate: format.sampleRate,
                          channels: format.channels, frames: c.audioFrames, recorded: true, note: nil)
        } else if let info, let media = info.sessionDescription.media.first(where: { $0.type.lowercased() == "audio" }) {
            // An audio track WatchBox does not set up (G.711, Opus…): say so rather than stay silent.
            let codec = AudioCodec(encodingName: media.encodingName, payloadType: media.payloadType ?? 255)
            audio = .init(codec: codec.rawValue, name: codec == .other ? (media.encodingName ?? "unknown") : codec.displayName,
                          sampleRate: media.clockRate, channels: nil, frames: 0, recorded: false,
                          note: codec == .aac ? "its format parameters are unusable" : "recognised, not recorded yet: only AAC is muxed")
        }
        let intervals = zip(c.keyframeIndices.dropFirst(), c.keyframeIndices).map { $0 - $1 }.sorted()
        return ProbeReport(
            url: url.redacted,
            server: info?.server,
            transport: configuration.transport.rawValue,
            authentication: info?.authenticationScheme,
            video: .init(codec: format.codec.rawValue, codecString: format.codecString, profile: format.profileName,
                         level: format.level, width: format.width, height: format.height,
                         fps: (fps * 100).rounded() / 100, declaredFps: format.frameRate),
            audio: audio,
            durationSeconds: duration,
            frames: c.frames,
            keyframes: c.keyframeIndices.count,
            bitrateKbps: (Double(c.bytes * 8) / seconds / 1000).rounded(),
            keyframeIntervalFrames: intervals.isEmpty ? nil : intervals[intervals.count / 2],
            packetsReceived: statistics.rtpPackets,
            packetsLost: statistics.packetsLost)
    }
}
