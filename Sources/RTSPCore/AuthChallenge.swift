/// One challenge from a `WWW-Authenticate` header (RFC 2326 §12.44 → RFC 7235 §4.1).
public enum AuthChallenge: Sendable, Equatable {
    /// RFC 7617 Basic.
    case basic(realm: String?)
    /// RFC 7616 Digest.
    case digest(DigestChallenge)

    /// All challenges in all `WWW-Authenticate` header values: several headers, or
    /// several challenges in one value (RFC 7235 §4.1), quoted strings holding commas,
    /// `key=value` pairs without a space after the comma. Unknown schemes, Digest
    /// challenges without a nonce and Digest challenges with an unsupported algorithm
    /// are skipped.
    public static func parse(_ headerValues: [String]) -> [AuthChallenge] {
        headerValues.flatMap { value -> [AuthChallenge] in
            var scanner = ChallengeScanner(Array(value.utf8))
            return scanner.scanAll().compactMap { make(scheme: $0.scheme, parameters: $0.parameters) }
        }
    }

    private static func make(scheme: String, parameters: [String: String]) -> AuthChallenge? {
        if scheme.equalsIgnoringASCIICase("Basic") {
            return .basic(realm: parameters["realm"])
        }
        guard scheme.equalsIgnoringASCIICase("Digest"), let nonce = parameters["nonce"] else { return nil }
        var algorithm = DigestAlgorithm.md5
        if let directive = parameters["algorithm"] {
            guard let known = DigestAlgorithm(directive: directive) else { return nil }
            algorithm = known
        }
        let qop = (parameters["qop"] ?? "").split(separator: ",")
            .map { $0.trimmingASCIIWhitespace().lowercased() }
            .filter { !$0.isEmpty }
        let stale = parameters["stale"].map { $0.trimmingASCIIWhitespace().equalsIgnoringASCIICase("true") } ?? false
        return .digest(DigestChallenge(realm: parameters["realm"] ?? "", nonce: nonce, opaque: parameters["opaque"],
                                       algorithm: algorithm, qop: qop, stale: stale))
    }
}

/// RFC 7235 §2.1 / §4.1 challenge list scanner:
/// `challenge = auth-scheme [ 1*SP ( token68 / #auth-param ) ]`,
/// `auth-param = token BWS "=" BWS ( token / quoted-string )`.
struct ChallengeScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Every (scheme, parameters) in order; parameter names lower-cased, the first
    /// occurrence of a name wins.
    mutating func scanAll() -> [(scheme: String, parameters: [String: String])] {
        var challenges: [(scheme: String, parameters: [String: String])] = []
        while index < bytes.count {
            skip { isASCIIWhitespace($0) || $0 == UInt8(ascii: ",") }
            guard index < bytes.count else { break }
            guard let scheme = readToken() else {
                index += 1  // a byte that cannot start anything: skip it
                continue
            }
            var parameters: [String: String] = [:]
            while true {
                skip { isASCIIWhitespace($0) || $0 == UInt8(ascii: ",") }
                let mark = index
                guard let name = readToken() else { break }
                skip(isASCIIWhitespace)
                guard peek() == UInt8(ascii: "=") else {
                    index = mark  // a token not followed by '=' starts the next challenge
                    break
                }
                index += 1
                skip(isASCIIWhitespace)
                let value = peek() == UInt8(ascii: "\"") ? readQuoted() : readBareValue()
                let key = name.lowercased()
                if parameters[key] == nil { parameters[key] = value }
            }
            challenges.append((scheme, parameters))
        }
        return challenges
    }

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func skip(_ predicate: (UInt8) -> Bool) {
        while index < bytes.count, predicate(bytes[index]) { index += 1 }
    }

    /// RFC 7230 §3.2.6 token.
    private mutating func readToken() -> String? {
        let start = index
        skip(Self.isTokenByte)
        guard index > start else { return nil }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// RFC 7230 §3.2.6 quoted-string with quoted-pair; an unterminated string runs to the end.
    private mutating func readQuoted() -> String {
        index += 1  // opening quote
        var value: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\\"), index < bytes.count {
                value.append(bytes[index])
                index += 1
            } else if byte == UInt8(ascii: "\"") {
                break
            } else {
                value.append(byte)
            }
        }
        return String(decoding: value, as: UTF8.self)
    }

    /// An unquoted value: up to a comma or whitespace (token68 padding '=' included).
    private mutating func readBareValue() -> String {
        let start = index
        skip { !isASCIIWhitespace($0) && $0 != UInt8(ascii: ",") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        default: return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
