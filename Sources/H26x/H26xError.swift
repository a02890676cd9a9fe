/// An error from the H26x module: a malformed parameter set or an impossible request.
///
/// The description names what was wrong and where, so a person reading a log can act on it
/// (for example "H.264 SPS is truncated: ran out of bits reading pic_width_in_mbs_minus1").
public struct H26xError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
