#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The host's own IPv4 networks (getifaddrs(3)), for the default subnet to scan.
public enum HostNetwork {
    public struct Interface: Sendable, Equatable {
        public var name: String
        public var address: IPv4Address
        public var prefixLength: Int
    }

    /// Every up, non-loopback IPv4 interface address.
    public static func interfaces() -> [Interface] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0, let first else { return [] }
        defer { freeifaddrs(first) }
        var result: [Interface] = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            let flags = Int32(entry.pointee.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0,
                  let addr = entry.pointee.ifa_addr, addr.pointee.sa_family == sa_family_t(AF_INET),
                  let mask = entry.pointee.ifa_netmask else { continue }
            let address = addr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            let netmask = mask.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            result.append(Interface(name: String(cString: entry.pointee.ifa_name), address: IPv4Address(address),
                                    prefixLength: netmask.nonzeroBitCount))
        }
        return result
    }

    /// The /24 around the primary interface's address (the first up, non-loopback IPv4 one, preferring
    /// private addresses, RFC 1918): what `watchbox discover` scans by default.
    public static func defaultSubnet() throws -> IPv4Subnet {
        let all = interfaces()
        let isPrivate = { (a: IPv4Address) -> Bool in
            a.value >> 24 == 10 || a.value >> 20 == 0xAC1 || a.value >> 16 == 0xC0A8
        }
        guard let primary = all.first(where: { isPrivate($0.address) }) ?? all.first else { throw DiscoveryError.noInterface }
        return IPv4Subnet(network: primary.address, prefixLength: max(24, primary.prefixLength))
    }
}
