import Foundation
import H26x
import Logging
import NIOConcurrencyHelpers
import NIOCore
import RTSPClient
import RTSPCore

/// What `watchbox probe` measures.
struct ProbeReport: Codable, Sendable {
    struct Video: Codable, Sendable {
        var codec: String
        var codecString: String
        var profile: String
        var level: String
        var width: Int
        var height: Int
        /// Measured from the RTP timestamps of the frames received.
        var fps: Double
        /// What the SPS states, when it does.
        var declaredFps: Double?
    }
    var url: String
    var server: String?
    var transport: String
    var authentication: String?
    var video: Video
    var durationSeconds: Double
    var frames: Int
    var keyframes: Int
    var bitrateKbps: Double
    /// Frames from one keyframe to the next (median); nil when fewer than two keyframes arrived.
    var keyframeIntervalFrames: Int?
    var packetsReceived: Int
    var packetsLost: Int

    var text: String {
        var lines: [String] = []
        lines.append("url:        \(url)")
        lines.append("server:     \(server ?? "(not stated)")")
        lines.append("transport:  \(transport)\(authentication.map { ", auth \($0)" } ?? "")")
        lines.append("video:      \(video.codec.uppercased()) \(video.profile) level \(video.level) (\(video.codecString)), \(video.width)x\(video.height)")
        lines.append("frame rate: \(String(format: "%.2f", video.fps)) fps measured\(video.declaredFps.map { String(format: ", %.2f declared", $0) } ?? "")")
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
}

enum Probe {
    static func run(url: RTSPURL, configuration: RTSPClientConfiguration, duration: Double, logger: Logger) async throws -> ProbeReport {
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
        let intervals = zip(c.keyframeIndices.dropFirst(), c.keyframeIndices).map { $0 - $1 }.sorted()
        return ProbeReport(
            url: url.redacted,
            server: info?.server,
            transport: configuration.transport.rawValue,
            authentication: info?.authenticationScheme,
            video: .init(codec: format.codec.rawValue, codecString: format.codecString, profile: format.profileName,
                         level: format.level, width: format.width, height: format.height,
                         fps: (fps * 100).rounded() / 100, declaredFps: format.frameRate),
            durationSeconds: duration,
            frames: c.frames,
            keyframes: c.keyframeIndices.count,
            bitrateKbps: (Double(c.bytes * 8) / seconds / 1000).rounded(),
            keyframeIntervalFrames: intervals.isEmpty ? nil : intervals[intervals.count / 2],
            packetsReceived: statistics.rtpPackets,
            packetsLost: statistics.packetsLost)
    }
}
