import Crypto
import Foundation

/// WS-Security UsernameToken with a password digest (OASIS Web Services Security UsernameToken
/// Profile 1.0 §3.1; ONVIF Core Specification §5.12.2 "User-based access control"):
/// `PasswordDigest = Base64(SHA-1(nonce + created + password))`, where `nonce` is the raw nonce
/// bytes (sent Base64-encoded), `created` the UTF-8 xsd:dateTime text as sent, `password` UTF-8.
/// ONVIF devices check `Created` against their own clock, so `created` is our time corrected by
/// the camera clock offset learned from GetSystemDateAndTime.
public struct WSSecurityUsernameToken: Sendable, Equatable {
    public var username: String
    /// Raw nonce bytes (the profile recommends at least 16 random bytes).
    public var nonce: [UInt8]
    /// `wsu:Created` text, `YYYY-MM-DDThh:mm:ssZ` (or with fractional seconds).
    public var created: String
    /// Base64 SHA-1 digest.
    public var passwordDigest: String

    /// A token with the digest computed from the password.
    public init(username: String, password: String, nonce: [UInt8], created: String) {
        self.username = username
        self.nonce = nonce
        self.created = created
        self.passwordDigest = Self.digest(nonce: nonce, created: created, password: password)
    }

    /// A fresh token: 20 random nonce bytes, `created` = now + `clockOffset` (camera − ours).
    public init(username: String, password: String, clockOffset: Double, now: Date = Date()) {
        var generator = SystemRandomNumberGenerator()
        let nonce = (0..<20).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        self.init(username: username, password: password, nonce: nonce,
                  created: Self.createdString(now.addingTimeInterval(clockOffset)))
    }

    /// UsernameToken Profile 1.0 §3.1: Base64(SHA-1(nonce + created + password)).
    public static func digest(nonce: [UInt8], created: String, password: String) -> String {
        var hasher = Insecure.SHA1()
        hasher.update(data: nonce)
        hasher.update(data: Array(created.utf8))
        hasher.update(data: Array(password.utf8))
        return Data(hasher.finalize()).base64EncodedString()
    }

    /// xsd:dateTime in UTC with a `Z`, whole seconds: "2010-09-16T07:50:45Z".
    public static func createdString(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { let v = value ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        return "\(c.year ?? 1970)-\(two(c.month))-\(two(c.day))T\(two(c.hour)):\(two(c.minute)):\(two(c.second))Z"
    }

    /// The `wsse:Security` SOAP header block (mustUnderstand, as ONVIF clients send it).
    public var headerXML: String {
        "<wsse:Security xmlns:wsse=\"\(ONVIFNamespace.wsse)\" xmlns:wsu=\"\(ONVIFNamespace.wsu)\" s:mustUnderstand=\"1\">"
            + "<wsse:UsernameToken>"
            + "<wsse:Username>\(XMLEscaping.escape(username))</wsse:Username>"
            + "<wsse:Password Type=\"\(ONVIFNamespace.passwordDigestType)\">\(passwordDigest)</wsse:Password>"
            + "<wsse:Nonce EncodingType=\"\(ONVIFNamespace.base64BinaryEncoding)\">\(Data(nonce).base64EncodedString())</wsse:Nonce>"
            + "<wsu:Created>\(created)</wsu:Created>"
            + "</wsse:UsernameToken></wsse:Security>"
    }
}
