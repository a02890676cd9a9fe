/// Why a string is not a usable RTSP URL. The message says what is wrong and how to fix
/// it, and never contains the password (userinfo is replaced by `***`).
public struct RTSPURLError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
