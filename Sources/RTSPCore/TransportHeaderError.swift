/// Why a `Transport` header value (RFC 2326 §12.39) could not be used.
public struct TransportHeaderError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
