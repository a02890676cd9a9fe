/// RFC 4566 §5.14 media description: an `m=<media> <port> <proto> <fmt> ...` line and
/// the lines that follow it up to the next `m=`.
public struct MediaDescription: Sendable, Equatable {
    /// RFC 4566 §5.14 <media>: "video", "audio", "application", …
    public var type: String
    /// RFC 4566 §5.14 <port>; 0 from most cameras (RTSP negotiates ports in SETUP).
    public var port: Int
    /// RFC 4566 §5.14 <proto>: "RTP/AVP", "RTP/AVP/TCP", …
    public var proto: String
    /// RFC 4566 §5.14 <fmt> list: RTP payload type numbers for RTP/AVP.
    public var formats: [String]
    /// Media-level `a=` lines in order, duplicates included.
    public var attributes: [SDPAttribute]
    /// Media-level `c=` value, when present.
    public var connection: String?
    /// `a=rtpmap` lines by payload type (first wins when a payload type repeats).
    public var rtpmaps: [UInt8: RTPMap]
    /// `a=fmtp` lines by payload type (first wins when a payload type repeats).
    public var fmtps: [UInt8: FormatParameters]

    public init(type: String, port: Int, proto: String, formats: [String], attributes: [SDPAttribute] = [],
                connection: String? = nil, rtpmaps: [UInt8: RTPMap] = [:], fmtps: [UInt8: FormatParameters] = [:]) {
        self.type = type
        self.port = port
        self.proto = proto
        self.formats = formats
        self.attributes = attributes
        self.connection = connection
        self.rtpmaps = rtpmaps
        self.fmtps = fmtps
    }

    /// RFC 2326 §C.1.1 `a=control`: absolute URL, relative reference or `*`.
    public var control: String? {
        attributes.firstValue(named: "control").flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `a=framerate` (RFC 4566 §6), tolerating "25.000000" and "30.0".
    public var framerate: Double? {
        attributes.firstValue(named: "framerate").flatMap { Double($0.trimmingASCIIWhitespace()) }
    }

    /// The first format that is an RTP payload type number (0…127).
    public var payloadType: UInt8? {
        for format in formats {
            if let value = UInt8(format), value <= 127 { return value }
        }
        return nil
    }

    /// Upper-cased encoding name of ``payloadType``, from its `a=rtpmap` or else the
    /// RFC 3551 §6 static payload table.
    public var encodingName: String? {
        guard let payloadType else { return nil }
        if let map = rtpmaps[payloadType] { return map.encodingName.uppercased() }
        return StaticPayloadType.table[payloadType]?.encodingName
    }

    /// Clock rate of ``payloadType``, from its `a=rtpmap` or the static payload table.
    public var clockRate: Int? {
        guard let payloadType else { return nil }
        if let map = rtpmaps[payloadType] { return map.clockRate }
        return StaticPayloadType.table[payloadType]?.clockRate
    }

    /// Channel count of ``payloadType`` when the rtpmap or static table gives one.
    public var channels: Int? {
        guard let payloadType else { return nil }
        if let map = rtpmaps[payloadType] { return map.channels }
        return StaticPayloadType.table[payloadType]?.channels
    }

    /// The fmtp of ``payloadType``. Quirk: when there is none but the section carries
    /// exactly one fmtp, for a payload type not in its `m=` line (Hikvision writes
    /// `m=audio 0 RTP/AVP 104` with `a=fmtp:97 …`), that one is used.
    public var formatParameters: FormatParameters? {
        guard let payloadType else { return nil }
        if let own = fmtps[payloadType] { return own }
        return strayFormatParameters?.parameters
    }

    /// The single fmtp naming a payload type absent from the `m=` line, if that is all there is.
    var strayFormatParameters: (payloadType: UInt8, parameters: FormatParameters)? {
        guard fmtps.count == 1, let (key, value) = fmtps.first,
              !formats.contains(where: { UInt8($0) == key }) else { return nil }
        return (key, value)
    }

    /// Fills ``rtpmaps`` and ``fmtps`` from ``attributes``; appends to `warnings` what it
    /// had to skip. `label` names the section in warnings ("media 2 (audio)").
    mutating func buildFormatTables(label: String, warnings: inout [String]) {
        rtpmaps = [:]
        fmtps = [:]
        for attribute in attributes {
            if attribute.name.equalsIgnoringASCIICase("rtpmap") {
                guard let value = attribute.value, let map = RTPMap(attributeValue: value) else {
                    warnings.append("\(label): skipped unreadable a=rtpmap:\(SessionDescription.excerpt(attribute.value ?? ""))")
                    continue
                }
                if let existing = rtpmaps[map.payloadType] {
                    if existing != map {
                        warnings.append("\(label): ignored a second a=rtpmap for payload type \(map.payloadType) (kept \(existing.encodingName)/\(existing.clockRate))")
                    }
                    continue
                }
                rtpmaps[map.payloadType] = map
            } else if attribute.name.equalsIgnoringASCIICase("fmtp") {
                let text = (attribute.value ?? "").trimmingASCIIWhitespace()
                let parts = text.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" })
                guard let first = parts.first, let payloadType = UInt8(first), payloadType <= 127 else {
                    warnings.append("\(label): skipped a=fmtp without a payload type: \(SessionDescription.excerpt(text))")
                    continue
                }
                let parameters = FormatParameters(parsing: parts.count > 1 ? String(parts[1]) : "")
                if let existing = fmtps[payloadType] {
                    if existing != parameters {
                        warnings.append("\(label): ignored a second a=fmtp for payload type \(payloadType)")
                    }
                    continue
                }
                fmtps[payloadType] = parameters
            }
        }
        if let own = payloadType, fmtps[own] == nil, let stray = strayFormatParameters {
            warnings.append("\(label): a=fmtp names payload type \(stray.payloadType), which is not in the m= line; using it for payload type \(own)")
        }
    }
}

/// RFC 3551 §6 Table 4 and 5: payload types with a fixed meaning.
enum StaticPayloadType {
    struct Entry: Sendable {
        var encodingName: String
        var clockRate: Int
        var channels: Int?
    }

    static let table: [UInt8: Entry] = [
        0: Entry(encodingName: "PCMU", clockRate: 8000, channels: 1),
        3: Entry(encodingName: "GSM", clockRate: 8000, channels: 1),
        4: Entry(encodingName: "G723", clockRate: 8000, channels: 1),
        5: Entry(encodingName: "DVI4", clockRate: 8000, channels: 1),
        6: Entry(encodingName: "DVI4", clockRate: 16000, channels: 1),
        7: Entry(encodingName: "LPC", clockRate: 8000, channels: 1),
        8: Entry(encodingName: "PCMA", clockRate: 8000, channels: 1),
        9: Entry(encodingName: "G722", clockRate: 8000, channels: 1),
        10: Entry(encodingName: "L16", clockRate: 44100, channels: 2),
        11: Entry(encodingName: "L16", clockRate: 44100, channels: 1),
        12: Entry(encodingName: "QCELP", clockRate: 8000, channels: 1),
        13: Entry(encodingName: "CN", clockRate: 8000, channels: 1),
        14: Entry(encodingName: "MPA", clockRate: 90000, channels: nil),
        15: Entry(encodingName: "G728", clockRate: 8000, channels: 1),
        16: Entry(encodingName: "DVI4", clockRate: 11025, channels: 1),
        17: Entry(encodingName: "DVI4", clockRate: 22050, channels: 1),
        18: Entry(encodingName: "G729", clockRate: 8000, channels: 1),
        25: Entry(encodingName: "CELB", clockRate: 90000, channels: nil),
        26: Entry(encodingName: "JPEG", clockRate: 90000, channels: nil),
        28: Entry(encodingName: "NV", clockRate: 90000, channels: nil),
        31: Entry(encodingName: "H261", clockRate: 90000, channels: nil),
        32: Entry(encodingName: "MPV", clockRate: 90000, channels: nil),
        33: Entry(encodingName: "MP2T", clockRate: 90000, channels: nil),
        34: Entry(encodingName: "H263", clockRate: 90000, channels: nil),
    ]
}
