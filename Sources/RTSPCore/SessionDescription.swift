/// RFC 4566 Session Description Protocol, as a DESCRIBE response carries it (RFC 2326
/// §C), tolerant of real cameras' quirks.
///
/// Named tolerances (each has a test): an unparseable `m=` line (that media section is
/// skipped, the others kept); a bare `a=fmtp:96`; fmtp parameters with spaces after ';'
/// or a trailing ';'; a missing `o=` or `v=` line; no final newline; LF-only or CRLF
/// line endings; blank and indented lines; lower-case encoding names in `a=rtpmap`;
/// `a=control:` absolute, relative or `*`; `a=framerate:25.000000`; an `a=fmtp` for a
/// payload type other than the `m=` line's; duplicated attributes (the first wins).
public struct SessionDescription: Sendable, Equatable {
    /// RFC 4566 §5.1 `v=`.
    public var version: Int?
    /// RFC 4566 §5.2 `o=`, raw.
    public var origin: String?
    /// RFC 4566 §5.3 `s=`.
    public var sessionName: String?
    /// RFC 4566 §5.7 session-level `c=`, raw.
    public var connection: String?
    /// Session-level `a=` lines in order, duplicates included.
    public var attributes: [SDPAttribute]
    /// RFC 4566 §5.14 media descriptions that could be read, in order.
    public var media: [MediaDescription]
    /// What was skipped and why (the caller logs them once).
    public var warnings: [String]

    public init(version: Int? = nil, origin: String? = nil, sessionName: String? = nil, connection: String? = nil,
                attributes: [SDPAttribute] = [], media: [MediaDescription] = [], warnings: [String] = []) {
        self.version = version
        self.origin = origin
        self.sessionName = sessionName
        self.connection = connection
        self.attributes = attributes
        self.media = media
        self.warnings = warnings
    }

    /// RFC 2326 §C.1.1 session-level `a=control`.
    public var control: String? {
        attributes.firstValue(named: "control").flatMap { $0.isEmpty ? nil : $0 }
    }

    /// RFC 2326 §C.1.5 session-level `a=range` value, raw (e.g. "npt=0-", "npt=now-").
    public var range: String? {
        attributes.firstValue(named: "range")
    }

    /// Parses SDP text. Throws ``SDPParseError`` only when the text holds no usable SDP at
    /// all (no `v=` line and no `m=` line); unknown or unparseable lines are skipped with
    /// a warning.
    public static func parse(_ text: String) throws -> SessionDescription {
        var result = SessionDescription()
        var current: MediaDescription?
        var skippingSection = false
        var sawMediaLine = false

        func finishCurrent() {
            guard var section = current else { return }
            let label = "media \(result.media.count + 1) (\(section.type))"
            section.buildFormatTables(label: label, warnings: &result.warnings)
            result.media.append(section)
            current = nil
        }

        var lineNumber = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            lineNumber += 1
            let line = rawLine.trimmingASCIIWhitespace()
            if line.isEmpty { continue }
            let utf8 = Array(line.utf8.prefix(2))
            guard utf8.count == 2, utf8[1] == UInt8(ascii: "="),
                  (utf8[0] >= 0x61 && utf8[0] <= 0x7A) || (utf8[0] >= 0x41 && utf8[0] <= 0x5A) else {
                result.warnings.append("line \(lineNumber): skipped, not an SDP <type>=<value> line: \(excerpt(line))")
                continue
            }
            let type = Character(Unicode.Scalar(utf8[0]))
            let value = String(line.dropFirst(2))

            if type == "m" {
                sawMediaLine = true
                finishCurrent()
                if let section = parseMediaLine(value) {
                    current = section
                    skippingSection = false
                } else {
                    skippingSection = true
                    result.warnings.append("line \(lineNumber): skipped the media section of an unreadable m= line (expected <media> <port> <proto> <fmt>…): \(excerpt(line))")
                }
                continue
            }
            if skippingSection { continue }

            if current != nil {
                switch type {
                case "a": current?.attributes.append(SDPAttribute(line: value))
                case "c": if current?.connection == nil { current?.connection = value.trimmingASCIIWhitespace() }
                case "i", "b", "k": break
                default:
                    result.warnings.append("line \(lineNumber): skipped unknown media-level line \(excerpt(line))")
                }
                continue
            }

            switch type {
            case "v":
                if let version = Int(value.trimmingASCIIWhitespace()) {
                    if result.version == nil { result.version = version }
                } else {
                    result.warnings.append("line \(lineNumber): skipped unreadable version line \(excerpt(line))")
                }
            case "o": if result.origin == nil { result.origin = value.trimmingASCIIWhitespace() }
            case "s": if result.sessionName == nil { result.sessionName = value.trimmingASCIIWhitespace() }
            case "c": if result.connection == nil { result.connection = value.trimmingASCIIWhitespace() }
            case "a": result.attributes.append(SDPAttribute(line: value))
            case "i", "u", "e", "p", "b", "t", "r", "z", "k": break
            default:
                result.warnings.append("line \(lineNumber): skipped unknown session-level line \(excerpt(line))")
            }
        }
        finishCurrent()

        guard result.version != nil || sawMediaLine else {
            throw SDPParseError("no session description found: expected SDP lines starting with \"v=\" or \"m=\" (RFC 4566), got \(excerpt(text.trimmingASCIIWhitespace()))")
        }
        return result
    }

    /// RFC 4566 §5.14 `<media> <port>[/<number of ports>] <proto> <fmt> ...`; nil when the
    /// media type is not a token, the port is not a number or the proto is missing.
    static func parseMediaLine(_ value: String) -> MediaDescription? {
        let fields = value.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard fields.count >= 3 else { return nil }
        let type = fields[0]
        guard type.utf8.allSatisfy(isTokenByte) else { return nil }
        let portText = fields[1].split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
        guard let port = Int(portText), port >= 0, port <= 65535 else { return nil }
        return MediaDescription(type: type, port: port, proto: fields[2], formats: Array(fields.dropFirst(3)))
    }

    /// RFC 4566 §9 token-char (a subset is enough: letters, digits and !#$%&'*+-.^_`{|}~).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        default: return "!#$%&'*+-.^_`{|}~".utf8.contains(byte)
        }
    }

    /// Shortened, quoted text for warnings, with URL credentials replaced by `***`.
    static func excerpt<Text: StringProtocol>(_ text: Text, limit: Int = 80) -> String {
        let string = RTSPURL.redactingCredentials(in: String(text))
        if string.count <= limit { return "\"\(string)\"" }
        return "\"\(string.prefix(limit))…\""
    }
}
