/// Why a recording request was refused, in words a person can act on; `kind` maps to an HTTP status.
public struct RecordingError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: String, Sendable { case notFound, conflict, invalidInput, storage }
    public var kind: Kind
    public var description: String
    /// The request field at fault.
    public var field: String?

    public init(_ kind: Kind, _ description: String, field: String? = nil) {
        self.kind = kind
        self.description = description
        self.field = field
    }
}
