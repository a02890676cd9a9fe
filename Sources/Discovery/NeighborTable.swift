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
        load(path: "/proc/net/arp")
    }

    /// Reads a table in /proc/net/arp's format from `path` to its end.
    ///
    /// Read in a loop until read(2) returns 0: a /proc file has no size (st_size 0), and Foundation's
    /// `String(contentsOfFile:)` then reads one page only — 4 KB, about 50 entries — so on a /24 or larger the
    /// other addresses looked unknown rather than unanswered, and each cost every port's timeout.
    public static func load(path: String) -> NeighborTable? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return NeighborTable(procNetARP: String(decoding: bytes, as: UTF8.self))
    }

    /// True only when the kernel asked for the address on the link and got no answer.
    public func isUnanswered(_ address: IPv4Address) -> Bool {
        entries[address] == false
    }
}
