/// Why the MP4 muxer refused a track or a format, in words a person can act on.
public struct MP4Error: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
