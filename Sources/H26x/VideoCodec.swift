/// The video codecs WatchBox carries without transcoding.
public enum VideoCodec: String, Sendable, Codable {
    /// ITU-T H.264 / ISO/IEC 14496-10 (AVC), RTP payload per RFC 6184.
    case h264
    /// ITU-T H.265 / ISO/IEC 23008-2 (HEVC), RTP payload per RFC 7798.
    case h265
}
