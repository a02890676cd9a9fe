import Foundation

/// The TCP ports a scan tries on each host.
public enum PortList {
    /// RTSP's registered port 554 (RFC 2326 §3.2), 8554 (the common alternative: GStreamer, live555, many
    /// NVRs), 88 (Foscam's RTSP port), 7447 (Ubiquiti UniFi Video / UniFi Protect RTSP), 5000 (Dahua/Amcrest
    /// and some NVRs' alternative RTSP port).
    public static let defaults = [554, 8554, 88, 7447, 5000]

    /// At most this many ports per host (each costs one connection attempt per host).
    public static let maximumCount = 64

    /// "554, 8554,88" or "8000-8010" (ranges count each port); repeats dropped, order kept.
    public static func parse(_ text: String) throws -> [Int] {
        var ports: [Int] = []
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard !(items.count == 1 && items[0].isEmpty) else { throw DiscoveryError.invalidPorts("it is empty") }
        for item in items {
            guard !item.isEmpty else { throw DiscoveryError.invalidPorts("an empty entry between commas") }
            let bounds = item.split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count <= 2 else { throw DiscoveryError.invalidPorts("'\(item)' is not a port or a range") }
            let numbers = try bounds.map { bound -> Int in
                guard !bound.isEmpty, bound.count <= 5, bound.allSatisfy({ $0.isASCII && $0.isNumber }),
                      let value = Int(bound), (1...65_535).contains(value) else {
                    throw DiscoveryError.invalidPorts("'\(item)' is not a port number")
                }
                return value
            }
            let low = numbers[0], high = numbers.last!
            guard low <= high else { throw DiscoveryError.invalidPorts("range '\(item)' runs backwards") }
            guard high - low < maximumCount else { throw DiscoveryError.invalidPorts("more than \(maximumCount) ports") }
            for port in low...high where !ports.contains(port) { ports.append(port) }
            guard ports.count <= maximumCount else { throw DiscoveryError.invalidPorts("more than \(maximumCount) ports") }
        }
        return ports
    }

    /// Checks ports given as numbers (the API): 1...65535, at most `maximumCount`, repeats dropped.
    public static func validate(_ list: [Int]) throws -> [Int] {
        guard !list.isEmpty else { throw DiscoveryError.invalidPorts("it is empty") }
        var ports: [Int] = []
        for port in list {
            guard (1...65_535).contains(port) else { throw DiscoveryError.invalidPorts("\(port) is not a port number") }
            if !ports.contains(port) { ports.append(port) }
        }
        guard ports.count <= maximumCount else { throw DiscoveryError.invalidPorts("more than \(maximumCount) ports") }
        return ports
    }
}
