/// What went wrong in discovery, as a sentence saying what to do.
public enum DiscoveryError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidSubnet(String)
    case subnetNeedsConfirmation(IPv4Subnet)
    case subnetTooLarge(IPv4Subnet)
    case noSubnets
    case invalidPorts(String)
    /// The scanner was asked to contact an address outside the ranges it was given; nothing was sent.
    case outsideRange(String)
    case noInterface
    case invalidCredentials(String)
    case invalidONVIFDevice(String)
    case onvifDeviceOutsideSubnets(String)

    public var description: String {
        switch self {
        case .invalidSubnet(let text):
            return "invalid subnet '\(text)': write it as A.B.C.D/N, e.g. 192.168.1.0/24"
        case .subnetNeedsConfirmation(let subnet):
            return "subnet \(subnet) has \(subnet.hostCount) hosts (larger than a /\(IPv4Subnet.confirmationPrefixLength)): "
                + "confirm the long scan (--allow-large), or give a smaller subnet"
        case .subnetTooLarge(let subnet):
            return "subnet \(subnet) is too large to scan (\(subnet.addressCount) addresses): "
                + "give a /\(IPv4Subnet.maximumPrefixLength) or smaller, e.g. 192.168.1.0/24"
        case .noSubnets:
            return "no subnet to scan: give one, e.g. 192.168.1.0/24"
        case .invalidPorts(let detail):
            return "invalid port list: \(detail); write numbers 1-65535 separated by commas, e.g. 554,8554"
        case .outsideRange(let address):
            return "refused to contact \(address): it is outside the ranges given to the scan"
        case .noInterface:
            return "found no IPv4 network interface to take a default subnet from: give one with --subnet, e.g. 192.168.1.0/24"
        case .invalidCredentials(let detail):
            return detail
        case .onvifDeviceOutsideSubnets(let url):
            return "ONVIF device \(url) is outside the subnets to search: add its subnet (or its address as a /32)"
        case .invalidONVIFDevice(let text):
            return "invalid ONVIF device address '\(text)': write A.B.C.D, A.B.C.D:PORT or http://A.B.C.D[:PORT]/onvif/device_service"
        }
    }
}
