/// RFC 4566 §5.13 attribute line: `a=<attribute>` or `a=<attribute>:<value>`.
public struct SDPAttribute: Sendable, Equatable {
    /// The attribute name as written ("control", "rtpmap", "fmtp", "recvonly", …).
    public var name: String
    /// The text after the first ':' with surrounding whitespace trimmed; nil for a
    /// property attribute such as `a=recvonly`.
    public var value: String?

    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }

    /// Parses the text after `a=`.
    init(line: String) {
        let (name, value) = line.splitOnce(":")
        self.name = name.trimmingASCIIWhitespace()
        self.value = value?.trimmingASCIIWhitespace()
    }
}

extension Array where Element == SDPAttribute {
    /// Value of the first attribute with that name (compared case-insensitively: cameras
    /// write `a=Control:` too); duplicates after the first are ignored.
    func firstValue(named name: String) -> String? {
        first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }
}
