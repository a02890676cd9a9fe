/// What a muxer or a browser needs to know about an audio track.
public struct AudioFormat: Sendable, Equatable {
    public var codec: AudioCodec
    /// Samples per second the decoder outputs. For AAC from a depacketizer: the config's output rate
    /// (`AudioSpecificConfig.outputSamplingFrequency`, the SBR rate when SBR is signalled); for G.711
    /// 8000 (RFC 3551 §4.5.14).
    public var sampleRate: Int
    /// Decoded channels (`AudioSpecificConfig.channelCount` for AAC).
    public var channels: Int
    /// AAC only: the AudioSpecificConfig (ISO/IEC 14496-3 §1.6.2.1) for the `esds` box.
    public var config: AudioSpecificConfig?

    public init(codec: AudioCodec, sampleRate: Int, channels: Int, config: AudioSpecificConfig?) {
        self.codec = codec
        self.sampleRate = sampleRate
        self.channels = channels
        self.config = config
    }

    /// AAC only: the RFC 6381 codecs parameter, "mp4a.40.2" (from the config's audioObjectType).
    public var codecString: String? {
        guard codec == .aac else { return nil }
        return config?.codecString
    }
}
