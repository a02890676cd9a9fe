/// Thrown by ``SessionDescription/parse(_:)`` when a text holds no usable SDP at all.
public struct SDPParseError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
