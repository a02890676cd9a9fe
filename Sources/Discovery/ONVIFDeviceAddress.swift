import Foundation

/// An ONVIF device named by the user rather than found by WS-Discovery: cameras on another subnet or VLAN
/// never hear a multicast Probe (it does not cross routers), but their device service answers unicast HTTP.
///
/// Accepted forms: `A.B.C.D`, `A.B.C.D:PORT`, or the device service URL `http://A.B.C.D[:PORT]/path`.
/// Without a path the address is ONVIF's fixed device service path, `/onvif/device_service` (ONVIF Core
/// Specification §5.1.1 "the entry point for the device management service is fixed to
/// http://onvif_host/onvif/device_service"). The host must be an IPv4 address (a name could resolve
/// anywhere) and, when queried, inside the scan's subnets: `ONVIFFinder` checks that with `ScanScope`.
public struct ONVIFDeviceAddress: Sendable, Equatable, Hashable, CustomStringConvertible {
    public let host: IPv4Address
    /// nil: the scheme's default (80 for http, 443 for https).
    public let port: Int?
    public let secure: Bool
    public let path: String

    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let lower = trimmed.lowercased()
        let withScheme = lower.hasPrefix("http://") || lower.hasPrefix("https://") ? trimmed : "http://" + trimmed
        guard let components = URLComponents(string: withScheme), let hostText = components.host,
              components.user == nil, components.password == nil, components.query == nil, components.fragment == nil else {
            throw DiscoveryError.invalidONVIFDevice(trimmed)
        }
        guard let host = IPv4Address(hostText) else { throw DiscoveryError.invalidONVIFDevice(trimmed) }
        if let port = components.port, !(1...65535).contains(port) { throw DiscoveryError.invalidONVIFDevice(trimmed) }
        self.host = host
        self.port = components.port
        self.secure = components.scheme?.lowercased() == "https"
        self.path = components.path.isEmpty || components.path == "/" ? "/onvif/device_service" : components.path
    }

    /// The device service URL to query.
    public var url: String {
        "\(secure ? "https" : "http")://\(host)\(port.map { ":\($0)" } ?? "")\(path)"
    }

    public var description: String { url }

    /// Parses a list, dropping repeats; the first bad entry throws.
    public static func parseList(_ texts: [String]) throws -> [ONVIFDeviceAddress] {
        var result: [ONVIFDeviceAddress] = []
        for text in texts where !text.trimmingCharacters(in: .whitespaces).isEmpty {
            let address = try ONVIFDeviceAddress(parsing: text)
            if !result.contains(address) { result.append(address) }
        }
        return result
    }
}
