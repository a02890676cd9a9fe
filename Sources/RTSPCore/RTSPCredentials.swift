/// A username and password for RTSP authentication (RFC 2326 §12.5 → RFC 2617).
public struct RTSPCredentials: Sendable, Equatable, Hashable {
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

extension RTSPCredentials: CustomStringConvertible {
    /// The username only: the password never reaches a log.
    public var description: String { "\(username):***" }
}
