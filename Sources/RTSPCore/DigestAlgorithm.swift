import Crypto

/// RFC 7616 §3.3 / §6.1 Digest algorithms (RFC 2617 §3.2.1 defines MD5 and MD5-sess).
public enum DigestAlgorithm: String, Sendable, CaseIterable {
    case md5 = "MD5"
    case md5Session = "MD5-sess"
    case sha256 = "SHA-256"
    case sha256Session = "SHA-256-sess"

    /// Parses the `algorithm` directive case-insensitively; nil for unsupported ones
    /// (SHA-512-256, …).
    public init?(directive: String) {
        let wanted = directive.trimmingASCIIWhitespace()
        guard let match = Self.allCases.first(where: { $0.rawValue.equalsIgnoringASCIICase(wanted) }) else { return nil }
        self = match
    }

    /// Whether A1 includes the nonce and cnonce (RFC 7616 §3.4.2, "-sess" variants).
    public var isSession: Bool {
        self == .md5Session || self == .sha256Session
    }

    /// Lower-case hex of the algorithm's hash of `text` (RFC 7616 §3.4.1 H(data)).
    func hash(_ text: String) -> String {
        let data = Array(text.utf8)
        switch self {
        case .md5, .md5Session:
            return hexString(Insecure.MD5.hash(data: data))
        case .sha256, .sha256Session:
            return hexString(SHA256.hash(data: data))
        }
    }

    /// Preference when several are offered: SHA-256 before MD5 (RFC 7616 §3.7).
    var strength: Int {
        switch self {
        case .sha256, .sha256Session: return 2
        case .md5, .md5Session: return 1
        }
    }
}
