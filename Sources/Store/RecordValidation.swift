import Foundation

/// Rules shared by `Camera` and `StreamProfile` before they reach the database.
enum RecordValidation {
    static func requireName(_ name: String, what: String) throws {
        guard !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw StoreError(.invalidInput, "a \(what) needs a name: give it a non-empty name")
        }
    }

    /// Credentials live in `Camera.username` and `Camera.passwordSealed`, never in a URL: a URL with a
    /// user name or password (RFC 3986 §3.2.1 userinfo) would put a clear-text password in the database.
    static func requireURLWithoutCredentials(_ url: String, what: String) throws {
        guard !url.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw StoreError(.invalidInput, "\(what) needs a stream URL (rtsp://host/path)")
        }
        if let redacted = redactingUserinfo(url) {
            throw StoreError(.invalidInput, """
                the URL of \(what) (\(redacted)) contains a user name or password: \
                store the URL without them and give the credentials separately
                """)
        }
    }

    /// The URL without its userinfo (RFC 3986 §3.2.1) when it has one; nil when it has none.
    static func redactingUserinfo(_ url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let authorityStart = schemeEnd.upperBound
        let authorityEnd = url[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        guard let at = url[authorityStart..<authorityEnd].lastIndex(of: "@") else { return nil }
        return String(url[..<authorityStart]) + String(url[url.index(after: at)...])
    }
}
