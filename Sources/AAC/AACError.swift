/// An error from the AAC module: an unusable AudioSpecificConfig, fmtp or request.
///
/// The description says what was wrong and what to do about it, so a person reading a log can act on
/// it (for example "the fmtp has no config= parameter: the camera did not describe its AAC stream…").
public struct AACError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
