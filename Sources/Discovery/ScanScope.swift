/// The ranges a scan was given, and the one check every connection goes through: the scanner never
/// sends a byte to an address outside them (the network rule, and a user's trust: "scan my /24" must not
/// touch anything else).
public struct ScanScope: Sendable, Equatable {
    public let subnets: [IPv4Subnet]

    public init(_ subnets: [IPv4Subnet]) {
        self.subnets = subnets
    }

    public func contains(_ address: IPv4Address) -> Bool {
        subnets.contains { $0.contains(address) }
    }

    /// Throws `DiscoveryError.outsideRange` for an address no subnet of the scope contains.
    public func authorize(_ address: IPv4Address) throws {
        guard contains(address) else { throw DiscoveryError.outsideRange(address.description) }
    }

    /// Throws unless `host` is an IPv4 address inside the scope (a name is refused: it could resolve anywhere).
    public func authorize(host: String) throws {
        guard let address = IPv4Address(host) else { throw DiscoveryError.outsideRange(host) }
        try authorize(address)
    }

    /// Every host of every subnet once, in the order given (overlapping subnets visit a host once).
    public var hosts: [IPv4Address] {
        var seen = Set<IPv4Address>()
        var result: [IPv4Address] = []
        for subnet in subnets {
            for host in subnet.hosts where seen.insert(host).inserted { result.append(host) }
        }
        return result
    }
}
