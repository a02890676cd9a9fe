/// An IPv4 address (RFC 791 §3.1, 32 bits), written in dotted-decimal form ("192.168.1.20").
///
/// Parsing is strict: exactly four decimal parts, each 0...255, no leading "+", no empty part, no
/// leading zeros beyond a single "0" (so "010.0.0.1" is refused rather than read as octal by some tools
/// and decimal by others).
public struct IPv4Address: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The address as a host-order integer: 192.168.1.20 is 0xC0A80114.
    public var value: UInt32

    public init(_ value: UInt32) {
        self.value = value
    }

    /// Nil unless `text` is a dotted-decimal IPv4 address.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }),
                  part.count == 1 || part.first != "0", let byte = UInt32(part), byte <= 255 else { return nil }
            value = value << 8 | byte
        }
        self.value = value
    }

    public var description: String {
        "\(value >> 24).\(value >> 16 & 0xFF).\(value >> 8 & 0xFF).\(value & 0xFF)"
    }

    /// RFC 1122 §3.2.1.3 / RFC 5735: 127.0.0.0/8.
    public var isLoopback: Bool { value >> 24 == 127 }

    public static func < (lhs: IPv4Address, rhs: IPv4Address) -> Bool { lhs.value < rhs.value }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let address = IPv4Address(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "'\(text)' is not an IPv4 address"))
        }
        self = address
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
