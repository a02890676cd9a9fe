import AAC
import Foundation
import H26x
import MP4
import NIOCore
import Testing

/// Fixture files and test streams.
enum Fixture {
    static func url(_ name: String) throws -> URL {
        let base = try #require(Bundle.module.resourceURL, "the test bundle has no resources")
        return base.appendingPathComponent("Fixtures").appendingPathComponent(name)
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(name)))
    }

    /// One integer per line (the .pts files).
    static func integers(_ name: String) throws -> [Int64] {
        let text = String(decoding: try bytes(name), as: UTF8.self)
        return try text.split(whereSeparator: \.isNewline).map { try #require(Int64($0.trimmingCharacters(in: .whitespaces))) }
    }
}

/// An elementary stream cut into access units, with its format.
struct VideoStream {
    var format: VideoFormat
    var units: [AccessUnit]

    /// Groups an Annex B stream's NAL units into access units (ITU-T H.264 §7.4.1.2.3, H.265 §7.4.2.4.4):
    /// a unit ends before an AUD, a parameter set, an SEI (after a slice), or the first slice of the next
    /// picture (first_mb_in_slice == 0 / first_slice_segment_in_pic_flag == 1).
    init(annexB bytes: [UInt8], codec: VideoCodec) throws {
        let nals = AnnexB.split(bytes)
        var units: [[[UInt8]]] = []
        var current: [[UInt8]] = []
        var sawSlice = false
        var vps: [UInt8]?
        var sps: [UInt8]?
        var pps: [[UInt8]] = []
        for nal in nals {
            let type = codec == .h264 ? nal[0] & 0x1F : (nal[0] >> 1) & 0x3F
            let isSlice = codec == .h264 ? (1...5).contains(type) : type <= 31
            let firstSliceOfPicture = isSlice && (codec == .h264 ? nal[1] & 0x80 != 0 : nal[2] & 0x80 != 0)
            let startsUnit = codec == .h264
                ? [6, 7, 8, 9].contains(type) || (14...18).contains(type)
                : [32, 33, 34, 35, 39].contains(type) || (41...44).contains(type)
            if sawSlice && (startsUnit || firstSliceOfPicture) {
                units.append(current)
                current = []
                sawSlice = false
            }
            current.append(nal)
            if isSlice { sawSlice = true }
            switch (codec, type) {
            case (.h265, 32): vps = vps ?? nal
            case (.h264, 7), (.h265, 33): sps = sps ?? nal
            case (.h264, 8), (.h265, 34): if pps.isEmpty { pps.append(nal) }
            default: break
            }
        }
        if !current.isEmpty { units.append(current) }
        let spsBytes = try #require(sps, "no SPS in the stream")
        format = codec == .h264
            ? try VideoFormat(h264SPS: spsBytes, pps: pps)
            : try VideoFormat(h265VPS: try #require(vps), sps: spsBytes, pps: pps)
        self.units = units.map { nals in
            let keyframe = nals.contains { nal in
                codec == .h264 ? nal[0] & 0x1F == 5 : (16...23).contains((nal[0] >> 1) & 0x3F)
            }
            return AccessUnit(codec: codec, nalUnits: nals.map { ByteBuffer(bytes: $0) }, isKeyframe: keyframe, rtpTimestamp: 0)
        }
    }

    static func fixture(_ name: String, codec: VideoCodec) throws -> VideoStream {
        try VideoStream(annexB: Fixture.bytes(name), codec: codec)
    }
}

/// Raw AAC frames from an ADTS file (ISO/IEC 14496-3 §1.A.2), and their AudioSpecificConfig.
struct AudioStream {
    var format: AudioFormat
    var frames: [ByteBuffer]

    init(adts bytes: [UInt8]) throws {
        var frames: [ByteBuffer] = []
        var index = 0
        var config: AudioSpecificConfig?
        while index + 7 <= bytes.count {
            try #require(bytes[index] == 0xFF && bytes[index + 1] & 0xF0 == 0xF0, "no ADTS syncword at \(index)")
            let protectionAbsent = bytes[index + 1] & 1 == 1
            let profile = Int(bytes[index + 2] >> 6)
            let frequencyIndex = Int((bytes[index + 2] >> 2) & 0xF)
            let channels = Int((bytes[index + 2] & 1) << 2 | bytes[index + 3] >> 6)
            let length = Int(bytes[index + 3] & 3) << 11 | Int(bytes[index + 4]) << 3 | Int(bytes[index + 5] >> 5)
            let header = protectionAbsent ? 7 : 9
            try #require(length > header && index + length <= bytes.count)
            if config == nil {
                let rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
                config = try AudioSpecificConfig(audioObjectType: profile + 1, samplingFrequency: rates[frequencyIndex],
                                                 channelConfiguration: channels)
            }
            frames.append(ByteBuffer(bytes: bytes[(index + header)..<(index + length)]))
            index += length
        }
        let asc = try #require(config)
        format = AudioFormat(codec: .aac, sampleRate: asc.samplingFrequency, channels: asc.channelConfiguration, config: asc)
        self.frames = frames
    }
}

enum TestFormats {
    /// The no-B-frames fixture's format (H.264 Main 320x240).
    static func h264() throws -> VideoFormat {
        try VideoStream.fixture("h264_main_no_bframes.h264", codec: .h264).format
    }

    static func aac(rate: Int = 48000, channels: Int = 2) throws -> AudioFormat {
        let config = try AudioSpecificConfig(audioObjectType: 2, samplingFrequency: rate, channelConfiguration: channels)
        return AudioFormat(codec: .aac, sampleRate: rate, channels: channels, config: config)
    }

    /// A synthetic access unit: one slice NAL unit of `size` bytes.
    static func unit(keyframe: Bool, size: Int = 100, fill: UInt8 = 0xAB) -> AccessUnit {
        var nal = [UInt8](repeating: fill, count: size)
        nal[0] = keyframe ? 0x65 : 0x41
        return AccessUnit(codec: .h264, nalUnits: [ByteBuffer(bytes: nal)], isKeyframe: keyframe, rtpTimestamp: 0)
    }
}

extension ByteBuffer {
    var bytes: [UInt8] { Array(readableBytesView) }
}

/// A muxer's outputs, collected in order.
struct Collected {
    var initSegments: [(bytes: [UInt8], mimeType: String)] = []
    var fragments: [(bytes: [UInt8], info: FragmentInfo)] = []
    /// Everything in order: what a file on disk holds.
    var file: [UInt8] = []
    /// "init" and "fragment", in the order they came.
    var kinds: [String] = []

    mutating func add(_ outputs: [FragmentedMP4Muxer.Output]) {
        for output in outputs {
            switch output {
            case .initializationSegment(let bytes, let mimeType):
                initSegments.append((bytes.bytes, mimeType))
                file += bytes.bytes
                kinds.append("init")
            case .fragment(let bytes, let info):
                fragments.append((bytes.bytes, info))
                file += bytes.bytes
                kinds.append("fragment")
            }
        }
    }

    /// Each fragment's track fragments, by track ID.
    func trackFragments() throws -> [[UInt32: ParsedTrackFragment]] {
        try fragments.map { fragment in
            let boxes = try Box.parse(fragment.bytes)
            let moof = try #require(boxes.first { $0.type == "moof" })
            var result: [UInt32: ParsedTrackFragment] = [:]
            for traf in moof.children("traf") {
                let parsed = try ParsedTrackFragment(traf)
                result[parsed.trackID] = parsed
            }
            return result
        }
    }
}
