/// The audio codecs a camera's SDP names, as far as WatchBox tells them apart.
public enum AudioCodec: String, Sendable, Codable {
    /// MPEG-4 AAC carried as RTP `mpeg4-generic` (RFC 3640): the audio WatchBox records.
    case aac
    /// ITU-T G.711 µ-law (RFC 3551 §4.5.14 PCMU, static payload type 0, 8000 Hz).
    case pcmu
    /// ITU-T G.711 A-law (RFC 3551 §4.5.14 PCMA, static payload type 8, 8000 Hz).
    case pcma
    /// Opus (RFC 7587 `opus/48000/2`).
    case opus
    /// Anything else, including AAC in LATM (`MP4A-LATM`, RFC 6416), which the RFC 3640 depacketizer
    /// cannot read.
    case other

    /// RFC 3551 §6 Table 4: the static payload type of PCMU.
    public static let pcmuStaticPayloadType: UInt8 = 0
    /// RFC 3551 §6 Table 4: the static payload type of PCMA.
    public static let pcmaStaticPayloadType: UInt8 = 8

    /// From the SDP rtpmap encoding name (case-insensitive: "MPEG4-GENERIC" → .aac, "PCMU" → .pcmu, ...) or,
    /// with no rtpmap, the static payload type (0 → .pcmu, 8 → .pcma).
    ///
    /// A name wins over the payload type; an empty or blank name counts as no name.
    public init(encodingName: String?, payloadType: UInt8) {
        let name = encodingName?.trimmingSpaces.uppercased() ?? ""
        if name.isEmpty {
            switch payloadType {
            case Self.pcmuStaticPayloadType: self = .pcmu
            case Self.pcmaStaticPayloadType: self = .pcma
            default: self = .other
            }
            return
        }
        switch name {
        case "MPEG4-GENERIC": self = .aac
        case "PCMU": self = .pcmu
        case "PCMA": self = .pcma
        case "OPUS": self = .opus
        default: self = .other
        }
    }

    /// "AAC", "G.711 µ-law", "G.711 A-law", "Opus", or "Other" (use
    /// ``displayName(encodingName:payloadType:)`` to show the SDP's own name for unknown codecs).
    public var displayName: String {
        switch self {
        case .aac: "AAC"
        case .pcmu: "G.711 µ-law"
        case .pcma: "G.711 A-law"
        case .opus: "Opus"
        case .other: "Other"
        }
    }

    /// The name to show for an SDP audio track: ``displayName`` for the codecs WatchBox knows, else the
    /// encoding name as the SDP spells it (or "payload type N" when there is none).
    public static func displayName(encodingName: String?, payloadType: UInt8) -> String {
        let codec = AudioCodec(encodingName: encodingName, payloadType: payloadType)
        guard codec == .other else { return codec.displayName }
        if let name = encodingName?.trimmingSpaces, !name.isEmpty { return String(name) }
        return "payload type \(payloadType)"
    }
}
