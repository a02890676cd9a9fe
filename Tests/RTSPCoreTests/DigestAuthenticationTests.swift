import RTSPCore
import Testing

/// Pulls `key=value` / `key="value"` out of an Authorization header value.
private func field(_ header: String, _ key: String) -> String? {
    let body = header.hasPrefix("Digest ") ? String(header.dropFirst(7)) : header
    for part in body.components(separatedBy: ", ") {
        let pieces = part.split(separator: "=", maxSplits: 1).map(String.init)
        guard pieces.count == 2, pieces[0] == key else { continue }
        var value = pieces[1]
        if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
        return value
    }
    return nil
}

@Suite("RTSPAuthenticator: Digest (RFC 2617, RFC 7616) and Basic (RFC 7617)")
struct DigestAuthenticationTests {
    static let rfc7616Nonce = "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v"
    static let rfc7616Opaque = "FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"
    static let rfc7616Cnonce = "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ"
    // RFC 7616 §3.9.1: the password is "Circle of Life" (lower-case "of", erratum 4495).
    static let mufasa7616 = RTSPCredentials(username: "Mufasa", password: "Circle of Life")

    private func rfc7616(_ algorithm: DigestAlgorithm) -> RTSPAuthenticator? {
        let challenge = DigestChallenge(realm: "http-auth@example.org", nonce: Self.rfc7616Nonce, opaque: Self.rfc7616Opaque,
                                        algorithm: algorithm, qop: ["auth", "auth-int"])
        var authenticator = RTSPAuthenticator(credentials: Self.mufasa7616, challenges: [.digest(challenge)])
        authenticator?.cnonceGenerator = { Self.rfc7616Cnonce }
        return authenticator
    }

    @Test func rfc7616Section391SHA256() throws {
        var authenticator = try #require(rfc7616(.sha256))
        #expect(authenticator.schemeDescription == "Digest SHA-256")
        let header = authenticator.authorization(method: "GET", uri: "/dir/index.html")
        #expect(header.hasPrefix("Digest "))
        #expect(field(header, "response") == "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1")
        #expect(field(header, "username") == "Mufasa")
        #expect(field(header, "realm") == "http-auth@example.org")
        #expect(field(header, "uri") == "/dir/index.html")
        #expect(field(header, "algorithm") == "SHA-256")
        #expect(field(header, "qop") == "auth")
        #expect(field(header, "nc") == "00000001")
        #expect(field(header, "cnonce") == Self.rfc7616Cnonce)
        #expect(field(header, "opaque") == Self.rfc7616Opaque)
    }

    @Test func rfc7616Section391MD5() throws {
        var authenticator = try #require(rfc7616(.md5))
        #expect(authenticator.schemeDescription == "Digest MD5")
        let header = authenticator.authorization(method: "GET", uri: "/dir/index.html")
        #expect(field(header, "response") == "8ca523f5e9506fed4657c9700eebdbec")
        #expect(field(header, "algorithm") == nil)
    }

    @Test func rfc2617Section35() throws {
        let challenge = DigestChallenge(realm: "testrealm@host.com", nonce: "dcd98b7102dd2f0e8b11d0f600bfb0c093",
                                        opaque: "5ccc069c403ebaf9f0171e9517f40e41", qop: ["auth", "auth-int"])
        var authenticator = try #require(RTSPAuthenticator(credentials: RTSPCredentials(username: "Mufasa", password: "Circle Of Life"),
                                                           challenges: [.digest(challenge)]))
        authenticator.cnonceGenerator = { "0a4f113b" }
        let first = authenticator.authorization(method: "GET", uri: "/dir/index.html")
        #expect(field(first, "response") == "6629fae49393a05397450978507c4ef1")
        #expect(field(first, "nc") == "00000001")
        // The nonce count increments with every request on the same nonce (RFC 7616 §3.4).
        let second = authenticator.authorization(method: "GET", uri: "/dir/index.html")
        #expect(field(second, "nc") == "00000002")
        #expect(field(second, "response") == "15b6bb427e3fecd23a43cb702ce447d5")
        #expect(authenticator.nonceCount == 2)
    }

    @Test func md5SessionVariant() throws {
        let challenge = DigestChallenge(realm: "testrealm@host.com", nonce: "dcd98b7102dd2f0e8b11d0f600bfb0c093",
                                        algorithm: .md5Session, qop: ["auth"])
        var authenticator = try #require(RTSPAuthenticator(credentials: RTSPCredentials(username: "Mufasa", password: "Circle Of Life"),
                                                           challenges: [.digest(challenge)]))
        authenticator.cnonceGenerator = { "0a4f113b" }
        let header = authenticator.authorization(method: "GET", uri: "/dir/index.html")
        #expect(field(header, "response") == "8e3825c57e897f5a0dec6c2d4e5059d0")
        #expect(field(header, "algorithm") == "MD5-sess")
    }

    @Test func sha256SessionVariantSecondRequest() throws {
        var authenticator = try #require(rfc7616(.sha256Session))
        _ = authenticator.authorization(method: "GET", uri: "/dir/index.html")
        let header = authenticator.authorization(method: "GET", uri: "/dir/index.html")
        #expect(field(header, "response") == "6bb0010aa4bdf46422a798c509ea32e256f27bd37de5cc3bdf8ed51e1d77d650")
        #expect(field(header, "nc") == "00000002")
    }

    @Test func withoutQopItIsRFC2069Style() throws {
        // A LIVE555 (Reolink) style challenge: realm and nonce only.
        let challenge = DigestChallenge(realm: "LIVE555 Streaming Media", nonce: "435a79a4baaee7fe09baf6278cfe05ce")
        var authenticator = try #require(RTSPAuthenticator(credentials: RTSPCredentials(username: "admin", password: "secret"),
                                                           challenges: [.digest(challenge)]))
        authenticator.cnonceGenerator = { Issue.record("no cnonce without qop"); return "x" }
        let uri = "rtsp://192.168.1.48:554/h264Preview_01_main"
        let header = authenticator.authorization(method: "DESCRIBE", uri: uri)
        #expect(field(header, "response") == "3ae3d618a444870caef23621be80bef5")
        #expect(field(header, "uri") == uri)
        #expect(field(header, "qop") == nil)
        #expect(field(header, "nc") == nil)
        #expect(field(header, "cnonce") == nil)
        #expect(field(header, "opaque") == nil)
    }

    @Test func defaultCnonceIsFreshEachTime() throws {
        let challenge = DigestChallenge(realm: "r", nonce: "n", qop: ["auth"])
        var authenticator = try #require(RTSPAuthenticator(credentials: RTSPCredentials(username: "u", password: "p"), challenges: [.digest(challenge)]))
        let first = try #require(field(authenticator.authorization(method: "OPTIONS", uri: "rtsp://cam/"), "cnonce"))
        let second = try #require(field(authenticator.authorization(method: "OPTIONS", uri: "rtsp://cam/"), "cnonce"))
        #expect(first != second)
        #expect(first.count == 32)
        #expect(first.allSatisfy { $0.isHexDigit })
    }

    @Test func onlyAuthIntOfferedFallsBackToNoQop() throws {
        let challenge = DigestChallenge(realm: "LIVE555 Streaming Media", nonce: "435a79a4baaee7fe09baf6278cfe05ce", qop: ["auth-int"])
        var authenticator = try #require(RTSPAuthenticator(credentials: RTSPCredentials(username: "admin", password: "secret"),
                                                           challenges: [.digest(challenge)]))
        let header = authenticator.authorization(method: "DESCRIBE", uri: "rtsp://192.168.1.48:554/h264Preview_01_main")
        #expect(field(header, "response") == "3ae3d618a444870caef23621be80bef5")
        #expect(field(header, "qop") == nil)
    }

    @Test func quotesInUsernameAreEscaped() throws {
        var authenticator = try #require(RTSPAuthenticator(credentials: RTSPCredentials(username: "a\"b\\c", password: "p"),
                                                           challenges: [.digest(DigestChallenge(realm: "r", nonce: "n"))]))
        #expect(authenticator.authorization(method: "OPTIONS", uri: "*").contains("username=\"a\\\"b\\\\c\""))
    }

    @Test func basicRFC7617Section2() throws {
        var authenticator = try #require(RTSPAuthenticator(credentials: RTSPCredentials(username: "Aladdin", password: "open sesame"),
                                                           challenges: [.basic(realm: "WallyWorld")]))
        #expect(authenticator.schemeDescription == "Basic")
        #expect(authenticator.authorization(method: "DESCRIBE", uri: "rtsp://cam/") == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        // RFC 7617 §2.1: UTF-8 user-pass.
        var utf8 = try #require(RTSPAuthenticator(credentials: RTSPCredentials(username: "test", password: "123\u{A3}"),
                                                  challenges: [.basic(realm: nil)]))
        #expect(utf8.authorization(method: "DESCRIBE", uri: "rtsp://cam/") == "Basic dGVzdDoxMjPCow==")
    }

    @Test func picksTheStrongestOfferedChallenge() {
        let basic = AuthChallenge.basic(realm: "cam")
        let md5 = AuthChallenge.digest(DigestChallenge(realm: "cam", nonce: "1"))
        let md5Sess = AuthChallenge.digest(DigestChallenge(realm: "cam", nonce: "2", algorithm: .md5Session))
        let sha = AuthChallenge.digest(DigestChallenge(realm: "cam", nonce: "3", algorithm: .sha256))
        let credentials = RTSPCredentials(username: "u", password: "p")
        #expect(RTSPAuthenticator(credentials: credentials, challenges: [basic, md5, sha])?.challenge == sha)
        #expect(RTSPAuthenticator(credentials: credentials, challenges: [sha, md5, basic])?.challenge == sha)
        #expect(RTSPAuthenticator(credentials: credentials, challenges: [basic, md5])?.challenge == md5)
        #expect(RTSPAuthenticator(credentials: credentials, challenges: [md5, md5Sess])?.challenge == md5)
        #expect(RTSPAuthenticator(credentials: credentials, challenges: [basic])?.challenge == basic)
        #expect(RTSPAuthenticator(credentials: credentials, challenges: []) == nil)
    }

    @Test func credentialsDescriptionHidesThePassword() {
        #expect("\(RTSPCredentials(username: "admin", password: "hunter2"))" == "admin:***")
    }
}

@Suite("AuthChallenge.parse (RFC 7235 §4.1 WWW-Authenticate)")
struct AuthChallengeTests {
    @Test func severalHeaders() {
        let challenges = AuthChallenge.parse([
            "Digest realm=\"IP Camera(C1214)\", nonce=\"0191a41d87c28cd52b3e9c8adc99291c\", stale=\"FALSE\"",
            "Basic realm=\"IP Camera(C1214)\"",
        ])
        #expect(challenges == [
            .digest(DigestChallenge(realm: "IP Camera(C1214)", nonce: "0191a41d87c28cd52b3e9c8adc99291c")),
            .basic(realm: "IP Camera(C1214)"),
        ])
    }

    @Test func severalChallengesInOneValueWithCommasInQuotes() {
        let challenges = AuthChallenge.parse([
            "Digest realm=\"cams, building A\", nonce=\"abc\", qop=\"auth,auth-int\", opaque=\"xyz\", Basic realm=\"cams, building A\"",
        ])
        #expect(challenges == [
            .digest(DigestChallenge(realm: "cams, building A", nonce: "abc", opaque: "xyz", qop: ["auth", "auth-int"])),
            .basic(realm: "cams, building A"),
        ])
    }

    @Test func unknownSchemesAndAlgorithmsAreSkipped() {
        let challenges = AuthChallenge.parse([
            "Negotiate YIIFyQYGKwYBBQUCoIIFvTCC, Bearer realm=\"x\"",
            "Digest realm=\"r\", nonce=\"n1\", algorithm=SHA-512-256, qop=\"auth\"",
            "Digest realm=\"r\", nonce=\"n2\", algorithm=sha-256, qop=\"auth\", stale=TRUE",
            "Digest realm=\"r\"",
        ])
        #expect(challenges == [.digest(DigestChallenge(realm: "r", nonce: "n2", algorithm: .sha256, qop: ["auth"], stale: true))])
    }

    @Test func noSpaceAfterCommaAndTokenValues() {
        let challenges = AuthChallenge.parse(["Digest realm=\"c4790503a344\",nonce=\"d809bdf662f8362492f0e04dfeee1751\", stale=\"FALSE\",algorithm=MD5-sess,qop=auth"])
        #expect(challenges == [.digest(DigestChallenge(realm: "c4790503a344", nonce: "d809bdf662f8362492f0e04dfeee1751",
                                                       algorithm: .md5Session, qop: ["auth"]))])
    }

    @Test func escapedQuotesAndSchemeCase() {
        let challenges = AuthChallenge.parse(["digest Realm=\"a \\\"quoted\\\" realm\", NONCE=\"n\"", "BASIC"])
        #expect(challenges == [.digest(DigestChallenge(realm: "a \"quoted\" realm", nonce: "n")), .basic(realm: nil)])
    }

    @Test func garbageNeverTraps() {
        for value in ["", ",,,", "=", "Digest", "Digest =\"", "Digest realm=\"unterminated", "\u{0}\u{1}\"\"", "Basic ====="] {
            _ = AuthChallenge.parse([value])
        }
        #expect(AuthChallenge.parse(["Digest realm=\"unterminated, nonce=\"n\""]).isEmpty)
    }
}
