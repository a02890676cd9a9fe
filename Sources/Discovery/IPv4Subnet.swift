import Foundation

/// An IPv4 network in CIDR notation (RFC 4632 §3.1: "A.B.C.D/N", the prefix length N in 0...32).
///
/// A bare address is a /32. The address is normalised to the network address (10.0.0.7/24 → 10.0.0.0/24),
/// as `ip route` does. Hosts: every address of the block except, for /0 through /30, the network and the
/// broadcast address (RFC 919, RFC 922); a /31 has two hosts (RFC 3021) and a /32 one.
public struct IPv4Subnet: Sendable, Hashable, Codable, CustomStringConvertible {
    public let network: IPv4Address
    public let prefixLength: Int

    /// Larger than this (a smaller prefix length) needs explicit confirmation: a /22 is 1,022 hosts.
    public static let confirmationPrefixLength = 22
    /// Larger than this is refused outright: a /16 is 65,534 hosts, already a long scan.
    public static let maximumPrefixLength = 16

    public init(network: IPv4Address, prefixLength: Int) {
        precondition((0...32).contains(prefixLength), "prefix length \(prefixLength) is outside 0...32")
        self.prefixLength = prefixLength
        self.network = IPv4Address(network.value & Self.mask(prefixLength))
    }

    /// Parses "A.B.C.D/N" or a bare "A.B.C.D" (a /32). Throws `DiscoveryError.invalidSubnet` with an example.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let pieces = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(pieces.count), let address = IPv4Address(pieces[0]) else {
            throw DiscoveryError.invalidSubnet(text)
        }
        var length = 32
        if pieces.count == 2 {
            let digits = pieces[1]
            guard !digits.isEmpty, digits.count <= 2, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = Int(digits), (0...32).contains(value) else {
                throw DiscoveryError.invalidSubnet(text)
            }
            length = value
        }
        self.init(network: address, prefixLength: length)
    }

    public var description: String { "\(network)/\(prefixLength)" }

    /// The netmask for a prefix length: /24 → 0xFFFFFF00.
    public static func mask(_ prefixLength: Int) -> UInt32 {
        prefixLength == 0 ? 0 : UInt32.max << UInt32(32 - prefixLength)
    }

    public var mask: UInt32 { Self.mask(prefixLength) }

    /// Every address in the block, network and broadcast included (2^(32-N)).
    public var addressCount: UInt64 { UInt64(1) << UInt64(32 - prefixLength) }

    /// The number of hosts a scan visits (see `hosts`).
    public var hostCount: Int {
        prefixLength >= 31 ? Int(addressCount) : Int(addressCount - 2)
    }

    public var broadcast: IPv4Address { IPv4Address(network.value | ~mask) }

    public func contains(_ address: IPv4Address) -> Bool {
        address.value & mask == network.value
    }

    /// The addresses a scan visits, in ascending order (lazily: a /16 does not allocate 65,534 values).
    public var hosts: HostSequence { HostSequence(subnet: self) }

    public struct HostSequence: Sequence, Sendable {
        let subnet: IPv4Subnet

        public func makeIterator() -> Iterator {
            let first = UInt64(subnet.network.value)
            let last = first + subnet.addressCount - 1
            if subnet.prefixLength >= 31 { return Iterator(cursor: first, last: last) }
            return Iterator(cursor: first + 1, last: last - 1)
        }

        public struct Iterator: IteratorProtocol, Sendable {
            var cursor: UInt64
            let last: UInt64

            public mutating func next() -> IPv4Address? {
                guard cursor <= last else { return nil }
                defer { cursor += 1 }
                return IPv4Address(UInt32(cursor))
            }
        }
    }

    /// Checks the size rule: larger than /22 only with `allowLarge`, larger than /16 never.
    public func checkSize(allowLarge: Bool) throws {
        if prefixLength < Self.maximumPrefixLength { throw DiscoveryError.subnetTooLarge(self) }
        if prefixLength < Self.confirmationPrefixLength && !allowLarge { throw DiscoveryError.subnetNeedsConfirmation(self) }
    }
}

extension IPv4Subnet {
    /// Parses a list of subnets, checks each one's size and drops repeats (keeping the order given).
    public static func parseList(_ texts: [String], allowLarge: Bool) throws -> [IPv4Subnet] {
        var result: [IPv4Subnet] = []
        for text in texts {
            let subnet = try IPv4Subnet(parsing: text)
            try subnet.checkSize(allowLarge: allowLarge)
            if !result.contains(subnet) { result.append(subnet) }
        }
        return result
    }
}
