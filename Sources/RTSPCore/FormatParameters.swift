/// RFC 4566 §6 `a=fmtp:<format> <format specific parameters>`: for the RTP payload
/// formats cameras use (RFC 6184 H.264, RFC 7798 H.265, RFC 3640 MPEG4-GENERIC) a
/// `;`-separated list of `key=value` pairs.
public struct FormatParameters: Sendable, Equatable {
    /// Keys lower-cased, keys and values trimmed. A parameter without '=' maps to "".
    /// When a key repeats, the first value wins.
    public var parameters: [String: String]

    public init(parameters: [String: String] = [:]) {
        var normalised: [String: String] = [:]
        for (key, value) in parameters {
            normalised[key.trimmingASCIIWhitespace().lowercased()] = value.trimmingASCIIWhitespace()
        }
        self.parameters = normalised
    }

    /// Parses the parameter text after the payload type. Tolerates spaces after ';',
    /// a trailing ';', empty items and an empty string (a bare `a=fmtp:96`).
    public init(parsing text: String) {
        var parameters: [String: String] = [:]
        for item in text.split(separator: ";") {
            let (rawKey, rawValue) = item.splitOnce("=")
            let key = rawKey.trimmingASCIIWhitespace().lowercased()
            guard !key.isEmpty, parameters[key] == nil else { continue }
            parameters[key] = rawValue?.trimmingASCIIWhitespace() ?? ""
        }
        self.parameters = parameters
    }

    /// The value for a key, compared case-insensitively.
    public subscript(key: String) -> String? {
        parameters[key.lowercased()]
    }

    /// A comma-separated list of base64 values (RFC 6184 §8.1 `sprop-parameter-sets`,
    /// RFC 7798 §7.1 `sprop-vps`/`sprop-sps`/`sprop-pps`) decoded tolerantly: missing
    /// padding, embedded whitespace and the URL-safe alphabet (RFC 4648 §5) are
    /// accepted; empty and invalid entries are skipped.
    public func base64List(_ key: String) -> [[UInt8]] {
        guard let value = self[key] else { return [] }
        return value.split(separator: ",").compactMap { TolerantBase64.decode($0) }.filter { !$0.isEmpty }
    }
}

/// RFC 4648 §4/§5 base64 decoding that forgives what cameras get wrong.
enum TolerantBase64 {
    static func decode<Text: StringProtocol>(_ text: Text) -> [UInt8]? {
        var sextets: [UInt8] = []
        sextets.reserveCapacity(text.utf8.count)
        var sawPadding = false
        for byte in text.utf8 {
            if isASCIIWhitespace(byte) { continue }
            if byte == UInt8(ascii: "=") {
                sawPadding = true
                continue
            }
            guard !sawPadding, let value = sextet(byte) else { return nil }  // data after padding, or a foreign byte
            sextets.append(value)
        }
        if sextets.count % 4 == 1 { return nil }  // cannot end a quantum
        var output: [UInt8] = []
        output.reserveCapacity(sextets.count * 3 / 4)
        var index = 0
        while index + 4 <= sextets.count {
            let group = UInt32(sextets[index]) << 18 | UInt32(sextets[index + 1]) << 12
                | UInt32(sextets[index + 2]) << 6 | UInt32(sextets[index + 3])
            output.append(UInt8(truncatingIfNeeded: group >> 16))
            output.append(UInt8(truncatingIfNeeded: group >> 8))
            output.append(UInt8(truncatingIfNeeded: group))
            index += 4
        }
        let remaining = sextets.count - index
        if remaining >= 2 {
            let group = UInt32(sextets[index]) << 18 | UInt32(sextets[index + 1]) << 12
                | (remaining == 3 ? UInt32(sextets[index + 2]) << 6 : 0)
            output.append(UInt8(truncatingIfNeeded: group >> 16))
            if remaining == 3 { output.append(UInt8(truncatingIfNeeded: group >> 8)) }
        }
        return output
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"), UInt8(ascii: "-"): return 62
        case UInt8(ascii: "/"), UInt8(ascii: "_"): return 63
        default: return nil
        }
    }
}
