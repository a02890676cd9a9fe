import Foundation

/// Produces `Authorization` header values (RFC 2326 §12.5) for the strongest challenge
/// offered: Digest SHA-256 > Digest MD5 > Basic (RFC 7616 §3.7: a client should choose
/// the strongest algorithm it supports).
///
/// Digest follows RFC 7616 §3.4 (RFC 2617 §3.2.2): with `qop=auth` when the server
/// offers it (nc increments on every call, a fresh cnonce each time), and without qop
/// (RFC 2069 style) otherwise. `auth-int` alone is answered without qop.
public struct RTSPAuthenticator: Sendable {
    /// The challenge being answered.
    public let challenge: AuthChallenge
    /// Makes the client nonce; injectable for tests. Default: 16 random bytes as hex.
    public var cnonceGenerator: @Sendable () -> String
    /// RFC 7616 §3.4 nonce-count already used with this nonce.
    public private(set) var nonceCount: UInt32 = 0

    private let credentials: RTSPCredentials

    /// Nil when none of the challenges is one we support.
    public init?(credentials: RTSPCredentials, challenges: [AuthChallenge]) {
        var best: AuthChallenge?
        var bestRank = 0
        for candidate in challenges {
            let rank: Int
            switch candidate {
            case .basic: rank = 1
            case .digest(let digest): rank = 1 + digest.algorithm.strength
            }
            if rank > bestRank {
                best = candidate
                bestRank = rank
            }
        }
        guard let best else { return nil }
        self.challenge = best
        self.credentials = credentials
        self.cnonceGenerator = Self.randomCnonce
    }

    /// "Digest SHA-256", "Digest MD5", "Digest MD5-sess", "Basic" (for logs).
    public var schemeDescription: String {
        switch challenge {
        case .basic: return "Basic"
        case .digest(let digest): return "Digest \(digest.algorithm.rawValue)"
        }
    }

    /// The `Authorization` value for one request. `uri` is the Request-URI exactly as it
    /// appears in the request line (RFC 7616 §3.4.6).
    public mutating func authorization(method: String, uri: String) -> String {
        switch challenge {
        case .basic:
            // RFC 7617 §2: base64(user-id ":" password), UTF-8.
            let token = Data("\(credentials.username):\(credentials.password)".utf8).base64EncodedString()
            return "Basic \(token)"
        case .digest(let digest):
            return digestAuthorization(digest, method: method, uri: uri)
        }
    }

    private mutating func digestAuthorization(_ digest: DigestChallenge, method: String, uri: String) -> String {
        let algorithm = digest.algorithm
        let useQop = digest.qop.contains("auth")
        let needsCnonce = useQop || algorithm.isSession
        let cnonce = needsCnonce ? cnonceGenerator() : ""
        nonceCount &+= 1
        let nc = Self.eightHexDigits(nonceCount)

        // RFC 7616 §3.4.2 A1, §3.4.3 A2, §3.4.1 response.
        var ha1 = algorithm.hash("\(credentials.username):\(digest.realm):\(credentials.password)")
        if algorithm.isSession {
            ha1 = algorithm.hash("\(ha1):\(digest.nonce):\(cnonce)")
        }
        let ha2 = algorithm.hash("\(method):\(uri)")
        let response = useQop
            ? algorithm.hash("\(ha1):\(digest.nonce):\(nc):\(cnonce):auth:\(ha2)")
            : algorithm.hash("\(ha1):\(digest.nonce):\(ha2)")

        var fields = [
            "username=\(Self.quoted(credentials.username))",
            "realm=\(Self.quoted(digest.realm))",
            "nonce=\(Self.quoted(digest.nonce))",
            "uri=\(Self.quoted(uri))",
            "response=\"\(response)\"",
        ]
        if algorithm != .md5 { fields.append("algorithm=\(algorithm.rawValue)") }
        if needsCnonce { fields.append("cnonce=\(Self.quoted(cnonce))") }
        if let opaque = digest.opaque { fields.append("opaque=\(Self.quoted(opaque))") }
        if useQop {
            fields.append("qop=auth")
            fields.append("nc=\(nc)")
        }
        return "Digest " + fields.joined(separator: ", ")
    }

    /// RFC 7230 §3.2.6 quoted-string: backslash-escape '"' and '\'.
    private static func quoted(_ value: String) -> String {
        var out = "\""
        for character in value {
            if character == "\"" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        out.append("\"")
        return out
    }

    private static func eightHexDigits(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 8 - hex.count)) + hex
    }

    @Sendable
    private static func randomCnonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return hexString((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
