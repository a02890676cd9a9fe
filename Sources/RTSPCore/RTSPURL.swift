import Foundation

/// An `rtsp://` or `rtsps://` URL (RFC 2326 §3.2, RFC 3986 §3) split into the parts a
/// client needs, with credentials kept apart so they never reach a log.
///
/// `description` and `redacted` never include the userinfo, so string interpolation of
/// an `RTSPURL` is always safe to log.
public struct RTSPURL: Sendable, Equatable, Hashable, CustomStringConvertible {
    public enum Scheme: String, Sendable {
        case rtsp, rtsps

        /// RFC 2326 §3.2 default port 554; 322 for RTSP over TLS (IANA "rtsps").
        public var defaultPort: Int {
            self == .rtsp ? 554 : 322
        }
    }

    public var scheme: Scheme
    /// Host name or address, without IPv6 brackets.
    public var host: String
    /// The port to connect to: explicit, or the scheme's default.
    public var port: Int
    /// Whether the port was written in the URL (it is then kept in ``requestURI``).
    public var explicitPort: Bool
    /// Starts with "/" (possibly just "/"); includes the query "?…" as written.
    public var path: String
    /// Percent-decoded userinfo user name.
    public var username: String?
    /// Percent-decoded userinfo password.
    public var password: String?

    /// Parses a URL such as `rtsp://user:pa%40ss@10.0.0.5:554/Streaming/Channels/101`.
    ///
    /// Throws ``RTSPURLError`` for a wrong scheme (naming those supported), a missing
    /// host, a bad port or whitespace. Tolerates an unencoded '@' in the password: the
    /// last '@' before the path separates userinfo from the host. A '/', '?' or '#' in
    /// the password must be percent-encoded.
    public init(string: String) throws {
        let input = string.trimmingASCIIWhitespace()
        let shown = Self.redactingCredentials(in: input)
        guard !input.isEmpty else {
            throw RTSPURLError("empty RTSP URL: expected rtsp://host[:port]/path")
        }
        if input.utf8.contains(where: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }) {
            throw RTSPURLError("RTSP URL \"\(shown)\" contains whitespace: percent-encode spaces as %20")
        }
        guard let schemeEnd = input.range(of: "://") else {
            throw RTSPURLError("malformed RTSP URL \"\(shown)\": expected rtsp://host[:port]/path")
        }
        let schemeText = String(input[..<schemeEnd.lowerBound])
        guard let scheme = Scheme(rawValue: schemeText.lowercased()) else {
            throw RTSPURLError("unsupported scheme \"\(schemeText)\" in \"\(shown)\": supported schemes are rtsp:// and rtsps://")
        }
        var rest = Substring(input[schemeEnd.upperBound...])
        if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }

        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        let pathPart = rest[authorityEnd...]

        var username: String?
        var password: String?
        if let at = authority.lastIndex(of: "@") {
            let userinfo = authority[..<at]
            authority = authority[authority.index(after: at)...]
            let (user, pass) = userinfo.splitOnce(":")
            username = Self.percentDecoded(user)
            password = pass.map(Self.percentDecoded)
        }

        var host: String
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw RTSPURLError("malformed RTSP URL \"\(shown)\": an IPv6 address needs a closing ']' (rtsp://[::1]:554/path)")
            }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else {
                    throw RTSPURLError("malformed RTSP URL \"\(shown)\": expected ':port' after the IPv6 address")
                }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            portText = authority[authority.index(after: colon)...]
        } else {
            host = String(authority)
        }
        guard !host.isEmpty else {
            throw RTSPURLError("RTSP URL \"\(shown)\" has no host: expected \(scheme.rawValue)://host[:port]/path")
        }

        var port = scheme.defaultPort
        var explicitPort = false
        if let portText, !portText.isEmpty {
            guard portText.utf8.allSatisfy(isASCIIDigit), let value = Int(portText), (1...65535).contains(value) else {
                throw RTSPURLError("RTSP URL \"\(shown)\" has a bad port \"\(portText)\": use a number from 1 to 65535 (if the password contains '/', '?' or '#', percent-encode it)")
            }
            port = value
            explicitPort = true
        }

        var path = String(pathPart)
        if path.isEmpty {
            path = "/"
        } else if path.hasPrefix("?") {
            path = "/" + path
        }

        self.scheme = scheme
        self.host = host
        self.port = port
        self.explicitPort = explicitPort
        self.path = path
        self.username = username
        self.password = password
    }

    /// The userinfo as credentials (an absent password is ""), nil without a username.
    public var credentials: RTSPCredentials? {
        guard let username else { return nil }
        return RTSPCredentials(username: username, password: password ?? "")
    }

    /// "rtsp://host[:port]/path": the Request-URI (RFC 2326 §6.1) without userinfo,
    /// IPv6 hosts bracketed, the port only when it was explicit.
    public var requestURI: String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        let portPart = explicitPort ? ":\(port)" : ""
        return "\(scheme.rawValue)://\(hostPart)\(portPart)\(path)"
    }

    /// Same as ``requestURI``: the only form allowed in logs and errors.
    public var redacted: String { requestURI }

    /// Same as ``redacted``, so interpolation never leaks a password.
    public var description: String { redacted }

    /// Resolves an SDP `a=control` value, a `Content-Base` or a `Location` against this
    /// URL (RFC 2326 §C.1.1), keeping credentials:
    /// - absolute "rtsp://…" or "rtsps://…" replaces this URL; our credentials are
    ///   carried over when it has none (an unparseable absolute URL yields self);
    /// - "*" or "" → self;
    /// - "/abs" → same scheme, host and port with that path;
    /// - anything else is appended to our path, with a "/" between unless the path
    ///   already ends in one — the de-facto rule cameras expect (so
    ///   ".../realmonitor?channel=1&subtype=0/" + "trackID=0" keeps the query), not
    ///   RFC 3986 §5.2 sibling resolution.
    public func resolving(_ reference: String) -> RTSPURL {
        let reference = reference.trimmingASCIIWhitespace()
        if reference.isEmpty || reference == "*" { return self }
        if reference.hasASCIIPrefixIgnoringCase("rtsp://") || reference.hasASCIIPrefixIgnoringCase("rtsps://") {
            guard var absolute = try? RTSPURL(string: reference) else { return self }
            if absolute.username == nil {
                absolute.username = username
                absolute.password = password
            }
            return absolute
        }
        var resolved = self
        if reference.hasPrefix("/") {
            resolved.path = reference
        } else {
            resolved.path = path.hasSuffix("/") ? path + reference : path + "/" + reference
        }
        return resolved
    }

    /// The same URL with other credentials (nil removes them).
    public func withCredentials(_ credentials: RTSPCredentials?) -> RTSPURL {
        var copy = self
        copy.username = credentials?.username
        copy.password = credentials?.password
        return copy
    }

    /// Replaces the userinfo of every "scheme://userinfo@" in `text` with "***", so that
    /// URLs quoted in errors and warnings never carry a password.
    static func redactingCredentials(in text: String) -> String {
        guard text.contains("@"), text.contains("//") else { return text }
        var output = ""
        var remaining = Substring(text)
        while let slashes = remaining.range(of: "//") {
            output += remaining[..<slashes.upperBound]
            let after = remaining[slashes.upperBound...]
            // Userinfo ends at the last '@' before the next whitespace or quote. This errs on
            // the side of hiding too much: a password may hold an unencoded '/', a path rarely '@'.
            let end = after.firstIndex(where: { $0 == " " || $0 == "\"" || $0 == "\t" || $0 == "\n" || $0 == "\r" }) ?? after.endIndex
            let authority = after[..<end]
            if let at = authority.lastIndex(of: "@") {
                output += "***"
                remaining = after[at...]
            } else {
                remaining = after
            }
        }
        output += remaining
        return output
    }

    /// RFC 3986 §2.1 percent-decoding; text with a broken escape ("100%") is kept as written.
    private static func percentDecoded<Text: StringProtocol>(_ text: Text) -> String {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
               let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2]) {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
