/// What a muxer or a browser needs to know about a video stream.
public struct VideoFormat: Sendable, Equatable {
    public var codec: VideoCodec
    /// Luma samples, with the H.264 frame cropping / H.265 conformance window applied.
    public var width: Int
    public var height: Int
    /// Frames per second from the VUI timing info when present.
    public var frameRate: Double?
    /// e.g. "High", "Main", "Constrained Baseline", "Main 10", "Main 4:4:4".
    public var profileName: String
    /// e.g. "3.1", "4.0" (H.264: level_idc / 10; H.265: general_level_idc / 30).
    public var level: String
    /// RFC 6381: "avc1.4d401f", "hvc1.1.6.L93.B0".
    public var codecString: String
    /// avcC / hvcC payload (box contents without the box header).
    public var decoderConfigurationRecord: [UInt8]
    /// VPS (H.265 only), SPS, PPS(s), in that order, without start codes.
    public var parameterSets: [[UInt8]]

    public init(
        codec: VideoCodec, width: Int, height: Int, frameRate: Double?, profileName: String, level: String,
        codecString: String, decoderConfigurationRecord: [UInt8], parameterSets: [[UInt8]]
    ) {
        self.codec = codec
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.profileName = profileName
        self.level = level
        self.codecString = codecString
        self.decoderConfigurationRecord = decoderConfigurationRecord
        self.parameterSets = parameterSets
    }

    /// The format of an H.264 stream from its SPS and PPS(s) (NAL units with headers, no start codes).
    /// - Throws: `H26xError` when the SPS does not parse or the units are not an SPS and PPSs.
    public init(h264SPS sps: [UInt8], pps: [[UInt8]]) throws {
        let record = try AVCDecoderConfigurationRecord(sps: sps, pps: pps)
        self.init(
            codec: .h264, width: record.sps.width, height: record.sps.height, frameRate: record.sps.frameRate,
            profileName: record.sps.profileName, level: record.sps.levelName, codecString: record.codecString,
            decoderConfigurationRecord: record.bytes, parameterSets: [sps] + pps)
    }

    /// The format of an H.265 stream from its VPS, SPS and PPS(s) (NAL units with headers, no start codes).
    /// - Throws: `H26xError` when the SPS or VPS does not parse or a unit has the wrong type.
    public init(h265VPS vps: [UInt8], sps: [UInt8], pps: [[UInt8]]) throws {
        let record = try HEVCDecoderConfigurationRecord(vps: vps, sps: sps, ppsList: pps)
        self.init(
            codec: .h265, width: record.sps.width, height: record.sps.height, frameRate: record.sps.frameRate,
            profileName: record.sps.profileName, level: record.sps.levelName, codecString: record.codecString,
            decoderConfigurationRecord: record.bytes, parameterSets: [vps, sps] + pps)
    }
}
