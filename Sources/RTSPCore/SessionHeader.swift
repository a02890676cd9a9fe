/// RFC 2326 §12.37 Session header: `Session: 12345678;timeout=60`.
public struct SessionHeader: Sendable, Equatable {
    /// The session identifier, echoed in every later request of the session.
    public var id: String
    /// Seconds the server keeps the session without activity (RFC 2326 §12.37: 60 when
    /// absent, which the caller applies).
    public var timeout: Int?

    public init(id: String, timeout: Int? = nil) {
        self.id = id
        self.timeout = timeout
    }

    /// Nil when there is no identifier. Tolerates spaces around ';' and '=', parameter
    /// names in any case, an unreadable or non-positive timeout (ignored) and unknown
    /// parameters.
    public init?(parsing value: String) {
        let parts = value.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingASCIIWhitespace() }
        guard let id = parts.first, !id.isEmpty else { return nil }
        self.id = id
        self.timeout = nil
        for part in parts.dropFirst() {
            let (key, rawValue) = part.splitOnce("=")
            guard key.trimmingASCIIWhitespace().equalsIgnoringASCIICase("timeout"),
                  let seconds = rawValue.flatMap({ Int($0.unquoted()) }), seconds > 0 else { continue }
            self.timeout = seconds
            break
        }
    }

    /// The header value, "id" or "id;timeout=n".
    public var headerValue: String {
        timeout.map { "\(id);timeout=\($0)" } ?? id
    }
}
