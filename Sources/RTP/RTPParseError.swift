/// A malformed RTP or RTCP packet (RFC 3550).
///
/// `description` says what was wrong, with the numbers involved and the section of
/// RFC 3550 that the bytes break, so that a log line is enough to tell a truncated
/// datagram from a stream that is not RTP at all (wrong port, wrong interleaved channel).
public struct RTPParseError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of fault was found; handy for tests and metrics, `description` has the details.
    public enum Kind: Sendable, Equatable {
        /// Fewer bytes than a header, a declared list or a declared length needs.
        case truncated
        /// The version field (RFC 3550 §5.1 / §6.4.1 "V") is not 2.
        case unsupportedVersion
        /// The CSRC count (RFC 3550 §5.1 "CC") runs past the end of the packet.
        case csrcOverrun
        /// The header extension (RFC 3550 §5.3.1) runs past the end of the packet.
        case extensionOverrun
        /// The padding count (RFC 3550 §5.1 "P") is zero or larger than the bytes after the header.
        case invalidPadding
        /// An RTCP packet whose contents disagree with its own header (RFC 3550 §6.4–§6.6).
        case malformedRTCP
    }

    /// What kind of fault was found.
    public var kind: Kind
    /// A sentence a person can act on.
    public var description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
