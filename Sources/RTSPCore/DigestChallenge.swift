/// RFC 7616 §3.3 (RFC 2617 §3.2.1) `WWW-Authenticate: Digest …` challenge.
public struct DigestChallenge: Sendable, Equatable {
    /// `realm`: shown to users, part of A1.
    public var realm: String
    /// `nonce`: server-chosen value the response hashes.
    public var nonce: String
    /// `opaque`: returned unchanged when present.
    public var opaque: String?
    /// `algorithm`: MD5 when absent (RFC 7616 §3.3).
    public var algorithm: DigestAlgorithm
    /// `qop` options, lower-cased ("auth", "auth-int"); empty for an RFC 2069-style
    /// challenge.
    public var qop: [String]
    /// `stale`: the previous nonce expired but the credentials were right.
    public var stale: Bool

    public init(realm: String, nonce: String, opaque: String? = nil, algorithm: DigestAlgorithm = .md5,
                qop: [String] = [], stale: Bool = false) {
        self.realm = realm
        self.nonce = nonce
        self.opaque = opaque
        self.algorithm = algorithm
        self.qop = qop
        self.stale = stale
    }
}
