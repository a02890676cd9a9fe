import Foundation

/// The kernel's IPv4 neighbour (ARP) table, `/proc/net/arp` on Linux: tells a host that does not exist on
/// the local link (its ARP request went unanswered) from one that exists but ignores a port.
///
/// The scanner uses it after a connection attempt to a host's first port timed out: an address whose
/// neighbour entry is still incomplete (flags 0x0, ATF_COM unset: RFC 826 request sent, no reply) is not on
/// the link, so its other ports are not tried — on a sparse /24 that saves four timeouts per empty address.
public struct NeighborTable: Sendable, Equatable {
    /// IPv4 address → whether its entry is complete (ATF_COM, flag 0x2: a reply arrived).
    public var entries: [IPv4Address: Bool]

    public init(entries: [IPv4Address: Bool]) {
        self.entries = entries
    }

    /// Parses /proc/net/arp: a header line, then "IP address  HW type  Flags  HW address  Mask  Device".
    public init(procNetARP text: String) {
        var entries: [IPv4Address: Bool] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 3, let address = IPv4Address(fields[0]),
                  fields[2].hasPrefix("0x"), let flags = Int(fields[2].dropFirst(2), radix: 16) else { continue }
            entries[address] = flags & 0x2 != 0
        }
        self.entries = entries
    }

    /// The table now, or nil where there is none to read (not Linux, no /proc).
    public static func current() -> NeighborTable? {
        guard let text = try? String(contentsOfFile: "/proc/net/arp", encoding: .utf8) else { return nil }
        return NeighborTable(procNetARP: text)
    }

    /// True only when the kernel asked for the address on the link and got no answer.
    public func isUnanswered(_ address: IPv4Address) -> Bool {
        entries[address] == false
    }
}
