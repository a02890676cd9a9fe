import Foundation
import H26x
import MP4
import NIOCore
import Store

/// Makes a segment file the index does not know usable again (the one a crash left): keeps it up to its last
/// complete fragment and describes it for the index; a file with nothing to keep is moved aside as
/// `<name>.damaged`, never deleted.
public enum SegmentRepair {
    public enum Outcome: Sendable {
        /// The file is whole or was cut to its last complete fragment; `cutBytes` were removed.
        case repaired(Segment, cutBytes: Int64)
        /// Nothing playable: moved to `movedTo`.
        case movedAside(reason: String, movedTo: String)
    }

    public static func repair(root: String, relativePath: String) -> Outcome {
        let path = (root as NSString).appendingPathComponent(relativePath)
        guard let data = FileManager.default.contents(atPath: path) else {
            return moveAside(path, reason: "it cannot be read")
        }
        let bytes = ByteBuffer(bytes: data)
        let layout: FragmentedMP4Layout
        do {
            layout = try FragmentedMP4Layout(bytes)
        } catch {
            return moveAside(path, reason: "\(error)")
        }
        guard let video = layout.videoTrack, let first = layout.fragments.first(where: { $0.videoDecodeTime != nil }),
              first.startsWithKeyframe else {
            return moveAside(path, reason: "it holds no complete fragment starting with a keyframe")
        }
        guard let format = videoFormat(sampleDescription: video.sampleDescription) else {
            return moveAside(path, reason: "its video track's codec parameters cannot be read")
        }
        let cut = Int64(data.count - layout.completeBytes)
        if cut > 0, let error = FileSystem.truncate(path, to: Int64(layout.completeBytes)) {
            return moveAside(path, reason: error)
        }
        let scale = Double(video.timescale)
        var index = KeyframeIndex()
        var end = 0.0
        let origin = Double(first.videoDecodeTime ?? 0) / scale
        for fragment in layout.fragments {
            guard let time = fragment.videoDecodeTime else { continue }
            let seconds = Double(time) / scale - origin
            if fragment.startsWithKeyframe { index.append(mediaTimeMs: Int64((seconds * 1000).rounded(.down)), offset: Int64(fragment.offset)) }
            end = max(end, seconds + Double(fragment.videoDuration) / scale)
        }
        let parsed = SegmentNaming.parse(relativePath)
        var start = parsed?.start ?? Date()
        if let reference = layout.producerReference {
            start = SegmentWriter.date(ntpTimestamp: reference.ntpTimestamp)
                .addingTimeInterval(origin - Double(reference.mediaTime) / scale)
        }
        let mime = "video/mp4; codecs=\"\(format.codecString)\""
        let segment = Segment(cameraID: parsed?.cameraID ?? UUID(), start: start, end: start.addingTimeInterval(end),
                              duration: end, bytes: Int64(layout.completeBytes), path: relativePath,
                              codec: format.codec.rawValue, mimeType: mime, width: format.width, height: format.height,
                              keyframes: index.encoded)
        return .repaired(segment, cutBytes: cut)
    }

    static func moveAside(_ path: String, reason: String) -> Outcome {
        var target = path + ".damaged"
        var number = 2
        while FileManager.default.fileExists(atPath: target) {
            target = path + ".\(number).damaged"
            number += 1
        }
        do {
            try FileManager.default.moveItem(atPath: path, toPath: target)
        } catch {
            return .movedAside(reason: "\(reason); moving it aside failed too (\(error.localizedDescription))", movedTo: path)
        }
        FileSystem.syncDirectory((path as NSString).deletingLastPathComponent)
        return .movedAside(reason: reason, movedTo: target)
    }

    /// The video format from an `stsd` box (ISO/IEC 14496-12 §8.5.2) holding one avc1/avc3 (ISO/IEC 14496-15
    /// §5.3.3.1 avcC) or hvc1/hev1 (§8.3.3.1 hvcC) sample entry: its parameter sets parsed again.
    static func videoFormat(sampleDescription stsd: [UInt8]) -> VideoFormat? {
        // stsd: size, type, version/flags, entry_count; then the entry's size and type; 78 bytes of
        // SampleEntry + VisualSampleEntry fields; then its child boxes.
        guard stsd.count > 16 + 8 + 78 else { return nil }
        let entryType = String(decoding: stsd[20..<24], as: UTF8.self)
        var index = 16 + 8 + 78
        while index + 8 <= stsd.count {
            let size = Int(read32(stsd, index))
            let type = String(decoding: stsd[(index + 4)..<(index + 8)], as: UTF8.self)
            guard size >= 8, index + size <= stsd.count else { return nil }
            let body = Array(stsd[(index + 8)..<(index + size)])
            if type == "avcC", entryType.hasPrefix("avc") {
                return try? avcFormat(body)
            }
            if type == "hvcC", entryType == "hvc1" || entryType == "hev1" {
                return try? hevcFormat(body)
            }
            index += size
        }
        return nil
    }

    private static func read32(_ bytes: [UInt8], _ index: Int) -> UInt32 {
        bytes[index..<(index + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func read16(_ bytes: [UInt8], _ index: Int) -> Int? {
        guard index + 2 <= bytes.count else { return nil }
        return Int(bytes[index]) << 8 | Int(bytes[index + 1])
    }

    struct Malformed: Error {}

    private static func avcFormat(_ body: [UInt8]) throws -> VideoFormat {
        guard body.count > 6 else { throw Malformed() }
        var index = 5
        var sps: [[UInt8]] = []
        var pps: [[UInt8]] = []
        let spsCount = Int(body[index] & 0x1F)
        index += 1
        for _ in 0..<spsCount {
            guard let length = read16(body, index), index + 2 + length <= body.count else { throw Malformed() }
            sps.append(Array(body[(index + 2)..<(index + 2 + length)]))
            index += 2 + length
        }
        guard index < body.count else { throw Malformed() }
        let ppsCount = Int(body[index])
        index += 1
        for _ in 0..<ppsCount {
            guard let length = read16(body, index), index + 2 + length <= body.count else { throw Malformed() }
            pps.append(Array(body[(index + 2)..<(index + 2 + length)]))
            index += 2 + length
        }
        guard let first = sps.first else { throw Malformed() }
        return try VideoFormat(h264SPS: first, pps: pps)
    }

    private static func hevcFormat(_ body: [UInt8]) throws -> VideoFormat {
        guard body.count > 23 else { throw Malformed() }
        var index = 23
        var sets: [UInt8: [[UInt8]]] = [:]
        for _ in 0..<Int(body[22]) {
            guard index + 3 <= body.count, let count = read16(body, index + 1) else { throw Malformed() }
            let type = body[index] & 0x3F
            index += 3
            for _ in 0..<count {
                guard let length = read16(body, index), index + 2 + length <= body.count else { throw Malformed() }
                sets[type, default: []].append(Array(body[(index + 2)..<(index + 2 + length)]))
                index += 2 + length
            }
        }
        guard let vps = sets[32]?.first, let sps = sets[33]?.first, let pps = sets[34] else { throw Malformed() }
        return try VideoFormat(h265VPS: vps, sps: sps, pps: pps)
    }
}
