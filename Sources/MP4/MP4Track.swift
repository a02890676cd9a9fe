import AAC
import H26x

/// One track of a fragmented file. trackID 1 = video, 2 = audio (by convention).
public struct MP4Track: Sendable, Equatable {
    public enum Media: Sendable, Equatable {
        /// H.264 (`avc1` + `avcC`) or H.265 (`hvc1` + `hvcC`), ISO/IEC 14496-15.
        case video(VideoFormat)
        /// AAC only (`mp4a` + `esds`, ISO/IEC 14496-14); other audio codecs make the initializer throw.
        case audio(AudioFormat)
    }

    /// ISO/IEC 14496-12 §8.3.2 track_ID: 1 or more, unique in the file.
    public var trackID: UInt32
    public var media: Media
    /// ISO/IEC 14496-12 §8.4.2 mdhd timescale: ticks per second. Video: 90000 (the RTP clock);
    /// audio: the sample rate.
    public var timescale: UInt32

    /// - Throws: `MP4Error` when the track cannot be written: track ID 0, a video format without a decoder
    ///   configuration record or with a size that does not fit the sample entry, audio that is not AAC or
    ///   has no AudioSpecificConfig, or a zero timescale.
    public init(trackID: UInt32, media: Media, timescale: UInt32? = nil) throws(MP4Error) {
        guard trackID > 0 else {
            throw MP4Error("track ID 0 is reserved (ISO/IEC 14496-12 §8.3.2); use 1 for video and 2 for audio")
        }
        switch media {
        case .video(let format):
            guard !format.decoderConfigurationRecord.isEmpty else {
                throw MP4Error("the \(format.codec.rawValue) video format has no decoder configuration record: wait for the stream's parameter sets (SPS/PPS) before muxing")
            }
            guard (1...0xFFFF).contains(format.width), (1...0xFFFF).contains(format.height) else {
                throw MP4Error("a \(format.width)x\(format.height) picture does not fit an MP4 visual sample entry (1...65535 each way)")
            }
        case .audio(let format):
            guard format.codec == .aac else {
                throw MP4Error("\(format.codec.rawValue) audio cannot go into MP4 here: only AAC is muxed (record without audio, or set the camera's audio to AAC)")
            }
            guard format.config != nil else {
                throw MP4Error("the AAC audio has no AudioSpecificConfig (the SDP's config= parameter): it cannot be described in an esds box")
            }
            guard format.sampleRate > 0, format.sampleRate <= Int(UInt32.max) else {
                throw MP4Error("the AAC audio has a sample rate of \(format.sampleRate) Hz; it must be positive")
            }
        }
        let scale: UInt32
        if let timescale {
            scale = timescale
        } else {
            switch media {
            case .video: scale = 90_000
            case .audio(let format): scale = UInt32(format.sampleRate)
            }
        }
        guard scale > 0 else {
            throw MP4Error("track \(trackID) has a timescale of 0 ticks per second; use 90000 for video or the sample rate for audio")
        }
        self.trackID = trackID
        self.media = media
        self.timescale = scale
    }

    /// RFC 6381 codec parameter for this track ("avc1.64001f", "hvc1.1.6.L93.B0", "mp4a.40.2").
    public var codecString: String {
        switch media {
        case .video(let format): return format.codecString
        case .audio(let format): return format.codecString ?? format.config.map { "mp4a.40.\($0.audioObjectType)" } ?? "mp4a.40.2"
        }
    }

    var isVideo: Bool {
        if case .video = media { return true }
        return false
    }
}
