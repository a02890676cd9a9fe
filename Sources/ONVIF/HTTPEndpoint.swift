import Foundation

/// An `http://host[:port]/path` URL split for a raw HTTP/1.1 request, with any userinfo removed
/// (it never reaches a log or an error; RFC 3986 §3.2.1 deprecates passwords in URLs).
public struct HTTPEndpoint: Sendable, Equatable {
    public var host: String
    public var port: Int
    /// Path and query, "/" when empty: the request-target (RFC 9112 §3.2.1 origin-form).
    public var target: String
    /// Username and password found in the URL's userinfo, percent-decoded.
    public var userinfo: (username: String, password: String)?

    public static func == (lhs: HTTPEndpoint, rhs: HTTPEndpoint) -> Bool {
        lhs.host == rhs.host && lhs.port == rhs.port && lhs.target == rhs.target
            && lhs.userinfo?.username == rhs.userinfo?.username && lhs.userinfo?.password == rhs.userinfo?.password
    }

    /// Nil for anything but an absolute http URL with a host.
    public init?(_ string: String) {
        guard let components = URLComponents(string: string.trimmingCharacters(in: .whitespaces)),
              components.scheme?.lowercased() == "http",
              let host = components.host, !host.isEmpty else { return nil }
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if let port = components.port {
            guard (1...65535).contains(port) else { return nil }
            self.port = port
        } else {
            self.port = 80
        }
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        self.target = target
        if let user = components.user {
            userinfo = (user, components.password ?? "")
        }
    }

    /// `http://host[:port]/path` without userinfo: what logs and errors show.
    public var redacted: String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return "http://\(hostPart)\(port == 80 ? "" : ":\(port)")\(target)"
    }

    /// The Host header value (RFC 9110 §7.2).
    public var hostHeader: String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return port == 80 ? hostPart : "\(hostPart):\(port)"
    }

    /// `string` with any userinfo removed, for messages about URLs we could not parse.
    public static func redact(_ string: String) -> String {
        guard let schemeEnd = string.range(of: "://") else { return string }
        let rest = string[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return string }
        return String(string[..<schemeEnd.upperBound]) + String(rest[rest.index(after: at)...])
    }
}
