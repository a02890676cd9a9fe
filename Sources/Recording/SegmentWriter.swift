import AAC
import Foundation
import H26x
import Hub
import MP4
import NIOConcurrencyHelpers
import NIOCore
import RTSPClient
import Store

/// One segment file being written: the muxer (one fragment per ~second, cut on keyframes), the file written
/// whole fragments at a time (``FragmentFileWriter`` rolls a failed write back), the keyframe index and a
/// `prft` box saying when its time 0 was, so the file alone can be indexed again after a crash.
final class SegmentWriter {
    let cameraID: UUID
    let relativePath: String
    let absolutePath: String
    let start: Date
    let format: VideoFormat
    private var muxer: FragmentedMP4Muxer
    private let file: FragmentFileWriter
    private(set) var index = KeyframeIndex()
    /// Seconds of video on disk (end of the last written fragment).
    private(set) var writtenSeconds = 0.0
    private(set) var fragments = 0
    private(set) var mimeType: String
    /// The first keyframe: time 0 of the file.
    let originTimestamp: Int64
    private let originSenderReport: Date?
    private let originReceived: NIODeadline
    private let clockRate: Int
    private var audioOriginSet = false
    private let hasAudio: Bool
    /// Negative, unique in this process: the id an open segment is listed under.
    let openID: Int64
    private static let nextOpenID = NIOLockedValueBox<Int64>(-1)

    /// What is on disk so far (nil before the first fragment).
    var progress: OpenSegment? {
        guard fragments > 0 else { return nil }
        return OpenSegment(id: openID, cameraID: cameraID, relativePath: relativePath, start: start, writtenSeconds: writtenSeconds,
                           committedBytes: file.committedBytes, keyframes: index, codec: format.codec.rawValue, mimeType: mimeType,
                           width: format.width, height: format.height)
    }

    /// Creates the file for a segment starting with `frame` (a keyframe) at wall time `start`.
    init(root: String, cameraID: UUID, start: Date, format: VideoFormat, audio: AudioFormat?, audioClockRate: Int?,
         fragmentSeconds: Double, firstFrame frame: MediaFrame) throws(RecordingWriteError) {
        self.cameraID = cameraID
        self.start = start
        self.format = format
        var number = 1
        var relative = SegmentNaming.relativePath(cameraID: cameraID, start: start, number: number)
        while FileManager.default.fileExists(atPath: (root as NSString).appendingPathComponent(relative)) {
            number += 1
            relative = SegmentNaming.relativePath(cameraID: cameraID, start: start, number: number)
        }
        relativePath = relative
        absolutePath = (root as NSString).appendingPathComponent(relative)
        let directory = (absolutePath as NSString).deletingLastPathComponent
        do {
            try FileSystem.makeDirectory(directory)
        } catch {
            let code = (error as NSError).code
            throw RecordingWriteError(kind: code == Int(ENOSPC) ? .diskFull : .other,
                                      description: "cannot create the folder \(directory): \(error.localizedDescription); check the recordings folder's permissions and free space")
        }
        file = try FragmentFileWriter(path: absolutePath)
        do {
            muxer = try FragmentedMP4Muxer(video: format, audio: audio, audioClockRate: audioClockRate,
                                           policy: .duration(seconds: fragmentSeconds))
        } catch {
            try? file.close()
            try? FileManager.default.removeItem(atPath: absolutePath)
            throw RecordingWriteError(kind: .other, description: "cannot record this stream: \(error)")
        }
        hasAudio = audio != nil
        openID = Self.nextOpenID.withLockedValue { value in
            defer { value -= 1 }
            return value
        }
        mimeType = muxer.mimeType
        originTimestamp = frame.timestamp
        originSenderReport = frame.senderReportClock
        originReceived = frame.receivedAt
        clockRate = frame.clockRate
    }

    /// Seconds of stream time from the segment's first frame to `frame`.
    func elapsed(_ frame: MediaFrame) -> Double {
        Double(frame.timestamp - originTimestamp) / Double(frame.clockRate)
    }

    func appendVideo(_ frame: MediaFrame) throws(RecordingWriteError) {
        let outputs = muxer.appendVideo(frame.accessUnit, timestamp: frame.timestamp)
        try write(outputs)
    }

    func appendAudio(_ sample: AudioSample) throws(RecordingWriteError) {
        guard hasAudio else { return }
        if !audioOriginSet {
            // Time zero of the audio: its timestamp captured with the first keyframe. Sender reports put both
            // tracks on one clock; without them, arrival times are the best guess (as StreamRecorder does).
            let offset: Double
            if let audioClock = sample.senderReportClock, let videoClock = originSenderReport {
                offset = audioClock.timeIntervalSince(videoClock)
            } else {
                offset = Double((sample.receivedAt - originReceived).nanoseconds) / 1e9
            }
            muxer.setAudioOrigin(sample.timestamp - Int64((offset * Double(sample.clockRate)).rounded()))
            audioOriginSet = true
        }
        try write(muxer.appendAudio(sample.data, timestamp: sample.timestamp))
    }

    /// Writes what the muxer holds, flushes the file and its directory. Returns the row to insert, or nil when
    /// no fragment reached the disk (the empty file is removed).
    func finish(flushing: Bool = true) -> (segment: Segment?, error: RecordingWriteError?) {
        var failure: RecordingWriteError?
        if flushing {
            do { try write(muxer.finish()) } catch { failure = error }
        }
        do { try file.close() } catch { failure = failure ?? error }
        guard fragments > 0 else {
            try? FileManager.default.removeItem(atPath: absolutePath)
            return (nil, failure)
        }
        FileSystem.syncDirectory((absolutePath as NSString).deletingLastPathComponent)
        let segment = Segment(cameraID: cameraID, start: start, end: start.addingTimeInterval(writtenSeconds),
                              duration: writtenSeconds, bytes: file.committedBytes, path: relativePath,
                              codec: format.codec.rawValue, mimeType: mimeType, width: format.width, height: format.height,
                              keyframes: index.encoded)
        return (segment, failure)
    }

    private func write(_ outputs: [FragmentedMP4Muxer.Output]) throws(RecordingWriteError) {
        for output in outputs {
            switch output {
            case .initializationSegment(let bytes, let mime):
                guard file.committedBytes == 0 else {
                    // A new init segment mid-file (format change): the recorder cuts the segment before this happens.
                    throw RecordingWriteError(kind: .other, description: "the stream's format changed inside a segment")
                }
                mimeType = mime
                try file.append(bytes, isFragment: false)
                let ntp = Self.ntpTimestamp(start)
                try file.append(FragmentedMP4Layout.producerReferenceTime(trackID: FragmentedMP4Muxer.videoTrackID,
                                                                           ntpTimestamp: ntp, mediaTime: 0), isFragment: false)
            case .fragment(let bytes, let info):
                let offset = file.committedBytes
                try file.append(bytes)
                fragments += 1
                if info.startsWithKeyframe {
                    index.append(mediaTimeMs: Int64((info.startTime * 1000).rounded(.down)), offset: offset)
                }
                if info.videoSamples > 0 { writtenSeconds = max(writtenSeconds, info.startTime + info.duration) }
            }
        }
    }

    /// RFC 5905 §6 NTP timestamp: seconds since 1900 in the high 32 bits, the fraction in the low 32.
    static func ntpTimestamp(_ date: Date) -> UInt64 {
        let seconds = date.timeIntervalSince1970 + 2_208_988_800
        let whole = UInt64(seconds)
        let fraction = UInt64((seconds - Double(whole)) * 4_294_967_296)
        return (whole << 32) | (fraction & 0xFFFF_FFFF)
    }

    static func date(ntpTimestamp ntp: UInt64) -> Date {
        let seconds = Double(ntp >> 32) + Double(ntp & 0xFFFF_FFFF) / 4_294_967_296
        return Date(timeIntervalSince1970: seconds - 2_208_988_800)
    }
}
