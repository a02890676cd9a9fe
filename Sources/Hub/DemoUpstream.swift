import Foundation
import H26x
import Logging
import NIOCore
import RTSPClient
import RTSPCore

/// A camera that loops a short H.264 clip shipped with the project as if it were live, so a newcomer
/// with no camera sees moving video at once.
///
/// The bundled clip (`Resources/demo/demo.h264`) is a raw Annex B stream: 8 s, 200 frames, 1280x720 at
/// 25 fps, H.264 Main, an IDR (with SPS and PPS) every 50 frames, no B-frames, about 1 Mbit/s. Every
/// moving part of it (the colour field, the clock hands, the ball) has a period of 200 frames, so the
/// last frame leads smoothly into the first. It was made with ffmpeg from lavfi sources
/// (`nullsrc`+`geq` background, `rotate`d hands and an `overlay`ed ball driven by the frame number `n`),
/// encoded with `libx264 -profile:v main -g 50 -bf 0 -sc_threshold 0
/// -x264-params keyint=50:min-keyint=50:scenecut=0:repeat-headers=1 -b:v 1000k`, SEI removed with
/// `-bsf:v filter_units=remove_types=6`. `Resources/demo/make-demo.sh` rebuilds it.
///
/// The clip is read and split into access units once per ``run(onEvent:)``; frames are then sent at
/// `frameRate`, paced against `ContinuousClock` deadlines (no drift), with 90 kHz timestamps that keep
/// increasing across loops. At the default 25 fps a frame advances the timestamp by 3600.
public struct DemoUpstream: Upstream {
    /// What the demo reports as its server (`UpstreamEvent.playing`).
    public static let serverName = "WatchBox demo"

    public let clip: URL
    public let frameRate: Double
    public let logger: Logger

    /// - Parameters:
    ///   - clip: a raw H.264 Annex B file (the bundled clip by default).
    ///   - frameRate: frames sent per second; also sets the timestamp step (90000 / frameRate).
    ///     Values that are not finite and positive are replaced by 25.
    public init(clip: URL = DemoUpstream.bundledClip, frameRate: Double = 25,
                logger: Logger = Logger(label: "watchbox.demo")) {
        self.clip = clip
        self.frameRate = frameRate.isFinite && frameRate > 0 ? frameRate : 25
        self.logger = logger
    }

    /// The clip shipped in the module's resources (`Resources/demo/demo.h264`).
    public static var bundledClip: URL {
        Bundle.module.url(forResource: "demo", withExtension: "h264", subdirectory: "demo")
            ?? Bundle.module.bundleURL.appendingPathComponent("demo/demo.h264")
    }

    /// The 90 kHz timestamp step of one frame at `frameRate` (3600 at 25 fps).
    public var timestampStep: Int64 { max(1, Int64((90_000 / frameRate).rounded())) }

    /// A demo clip split into access units: what ``run(onEvent:)`` loops.
    public struct Clip: Sendable {
        public var format: VideoFormat
        /// In decode order, the first a keyframe; access unit delimiters removed, SPS/PPS kept in band.
        public var units: [AccessUnit]
    }

    /// Reads and parses `url`.
    /// - Throws: `RTSPClientError` `.notFound` when the file cannot be read or holds no usable H.264.
    public static func loadClip(_ url: URL) throws(RTSPClientError) -> Clip {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw RTSPClientError(.notFound, "the demo clip \(url.path) cannot be read (\(error.localizedDescription)): "
                + "reinstall WatchBox, or give the demo camera a readable H.264 Annex B file")
        }
        var buffer = ByteBufferAllocator().buffer(capacity: data.count)
        buffer.writeBytes(data)
        do {
            return try parse(buffer)
        } catch {
            throw RTSPClientError(.notFound, "the demo clip \(url.path) is not usable: \(error.message)")
        }
    }

    /// Why a byte stream is not a usable demo clip.
    struct ClipError: Error {
        var message: String
    }

    /// ITU-T H.264 Table 7-1 nal_unit_type values used here.
    private enum NAL {
        static let nonIDRSlice: UInt8 = 1
        static let idrSlice: UInt8 = 5
        static let sei: UInt8 = 6
        static let sps: UInt8 = 7
        static let pps: UInt8 = 8
        static let accessUnitDelimiter: UInt8 = 9
    }

    /// Splits an H.264 Annex B stream into access units (ITU-T H.264 §7.4.1.2.3): after a picture's
    /// slices, an access unit delimiter, SPS, PPS, SEI or NAL unit types 14...18 starts the next unit, as
    /// does a slice whose first_mb_in_slice is 0 (§7.4.3). Access unit delimiters are dropped (as the
    /// depacketizer does); units before the first IDR picture are dropped (they cannot be decoded).
    static func parse(_ stream: ByteBuffer) throws(ClipError) -> Clip {
        var sps: [UInt8]?
        var pps: [[UInt8]] = []
        var units: [AccessUnit] = []
        var current: [ByteBuffer] = []
        var currentHasSlice = false
        var currentIsIDR = false

        func finish() {
            if currentHasSlice && (currentIsIDR || !units.isEmpty) {
                units.append(AccessUnit(codec: .h264, nalUnits: current, isKeyframe: currentIsIDR, rtpTimestamp: 0))
            }
            current = []
            currentHasSlice = false
            currentIsIDR = false
        }

        for nal in AnnexB.split(stream) {
            guard let header = nal.getInteger(at: nal.readerIndex, as: UInt8.self), header & 0x80 == 0 else { continue }
            let type = header & 0x1F
            switch type {
            case NAL.accessUnitDelimiter, NAL.sps, NAL.pps, NAL.sei, 14...18:
                if currentHasSlice { finish() }
            case NAL.nonIDRSlice...NAL.idrSlice:
                // Slices and partition A start with first_mb_in_slice, ue(v): 0 is coded as a single 1 bit, the
                // top bit of the byte after the header. Partitions B and C (3, 4) continue their picture.
                let firstByte = nal.getInteger(at: nal.readerIndex + 1, as: UInt8.self) ?? 0
                let startsPicture = type != 3 && type != 4 && firstByte & 0x80 != 0
                if currentHasSlice && startsPicture { finish() }
                currentHasSlice = true
                if type == NAL.idrSlice { currentIsIDR = true }
            default:
                break
            }
            if type == NAL.sps, sps == nil {
                sps = nal.getBytes(at: nal.readerIndex, length: nal.readableBytes)
            } else if type == NAL.pps, units.isEmpty {
                let bytes = nal.getBytes(at: nal.readerIndex, length: nal.readableBytes) ?? []
                if !pps.contains(bytes) { pps.append(bytes) }
            }
            if type != NAL.accessUnitDelimiter { current.append(nal) }
        }
        finish()

        guard let sps, !pps.isEmpty else {
            throw ClipError(message: "it has no H.264 SPS and PPS (is it a raw H.264 Annex B stream?)")
        }
        guard !units.isEmpty else {
            throw ClipError(message: "it has no IDR picture to start from")
        }
        do {
            return Clip(format: try VideoFormat(h264SPS: sps, pps: pps), units: units)
        } catch {
            throw ClipError(message: "its SPS cannot be parsed (\(error))")
        }
    }

    public func run(onEvent: @escaping @Sendable (UpstreamEvent) -> Void) async {
        var attempt = 1
        while !Task.isCancelled {
            onEvent(.connecting(attempt: attempt))
            let clip: Clip
            do {
                clip = try Self.loadClip(self.clip)
            } catch {
                logger.error("the demo camera cannot play its clip", metadata: ["error": "\(error)"])
                let retry = Duration.seconds(60)
                onEvent(.disconnected(error, retryIn: retry))
                do { try await Task.sleep(for: retry) } catch { return }
                attempt += 1
                continue
            }
            logger.debug("demo clip loaded", metadata: [
                "frames": "\(clip.units.count)", "format": "\(clip.format.width)x\(clip.format.height)",
            ])
            onEvent(.playing(server: Self.serverName))
            onEvent(.media(.formatChanged(clip.format)))
            await play(clip, onEvent: onEvent)
            return
        }
    }

    /// Sends the clip's frames in a loop until the task is cancelled.
    private func play(_ clip: Clip, onEvent: @escaping @Sendable (UpstreamEvent) -> Void) async {
        let clock = ContinuousClock()
        let period = Duration.seconds(1 / frameRate)
        let step = timestampStep
        var origin = clock.now
        var sinceOrigin: Int64 = 0   // frames sent since `origin`
        var timestamp: Int64 = 0
        var index = 0
        while !Task.isCancelled {
            let deadline = origin + period * sinceOrigin
            do {
                try await Task.sleep(until: deadline, clock: clock)
            } catch {
                return
            }
            // Far behind (the machine was suspended or starved): start counting afresh instead of bursting.
            let now = clock.now
            if now - deadline > .seconds(1) {
                origin = now
                sinceOrigin = 0
            }
            // A fresh copy, as a depacketizer hands out each picture once (the live muxer writes around it).
            var unit = clip.units[index].packed()
            unit.rtpTimestamp = UInt32(truncatingIfNeeded: timestamp)
            unit.wallClock = Date()
            onEvent(.media(.video(MediaFrame(accessUnit: unit, trackIndex: 0, timestamp: timestamp, clockRate: 90_000,
                                             receivedAt: .now()))))
            timestamp += step
            sinceOrigin += 1
            index += 1
            if index == clip.units.count { index = 0 }
        }
    }
}
