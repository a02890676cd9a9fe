/// RFC 4566 §6 `a=rtpmap:<payload type> <encoding name>/<clock rate>[/<encoding parameters>]`.
public struct RTPMap: Sendable, Equatable {
    /// RFC 3550 §5.1 payload type (0…127).
    public var payloadType: UInt8
    /// The encoding name as written ("H264", "h264", "MPEG4-GENERIC", "pcmu"); compare
    /// case-insensitively (RFC 4855 §3: media subtype names are case-insensitive).
    public var encodingName: String
    /// RTP timestamp clock rate in Hz.
    public var clockRate: Int
    /// Encoding parameters: the channel count for audio, when given.
    public var channels: Int?

    public init(payloadType: UInt8, encodingName: String, clockRate: Int, channels: Int? = nil) {
        self.payloadType = payloadType
        self.encodingName = encodingName
        self.clockRate = clockRate
        self.channels = channels
    }

    /// Parses the attribute value (the text after `a=rtpmap:`), e.g. "96 H264/90000".
    /// Returns nil when the payload type, the name or the clock rate is unusable.
    public init?(attributeValue: String) {
        let parts = attributeValue.trimmingASCIIWhitespace()
            .split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count == 2,
              let payloadType = UInt8(parts[0].trimmingASCIIWhitespace()), payloadType <= 127 else { return nil }
        let fields = parts[1].trimmingASCIIWhitespace().split(separator: "/", omittingEmptySubsequences: false)
        guard fields.count >= 2 else { return nil }
        let name = fields[0].trimmingASCIIWhitespace()
        guard !name.isEmpty, let clockRate = Int(fields[1].trimmingASCIIWhitespace()), clockRate > 0 else { return nil }
        self.payloadType = payloadType
        self.encodingName = name
        self.clockRate = clockRate
        self.channels = fields.count >= 3 ? Int(fields[2].trimmingASCIIWhitespace()) : nil
    }
}
