import Discovery
import Foundation
import Hummingbird

/// `POST /api/discoveries`. Every field is optional: absent ones come from the discovery settings, then from
/// the defaults (the host's own /24, ports 554, 8554, 88, 7447, 5000, ONVIF on).
public struct DiscoveryInput: Decodable, Sendable {
    public var subnets: [String]?
    public var ports: [Int]?
    public var onvif: Bool?
    public var username: String?
    public var password: String?
    /// Confirms a subnet larger than a /22.
    public var allowLarge: Bool?
    /// Seconds to wait for each device's answers (default 3).
    public var timeout: Double?
    /// ONVIF devices to query directly (A.B.C.D[:PORT] or a device service URL), inside the subnets.
    public var onvifDevices: [String]?
}

/// A discovery run as the API shows it (never with the credentials it tried).
public struct DiscoveryResponse: ResponseCodable, Sendable, Equatable {
    public var id: UUID
    /// "running", "finished" or "cancelled".
    public var state: String
    public var subnets: [String]
    public var ports: [Int]
    public var onvif: Bool
    public var progress: ScanProgress
    public var startedAt: Date
    public var finishedAt: Date?
    /// The merged results; filled when the run finishes.
    public var devices: [DiscoveredDevice]
}

/// `POST /api/discoveries/{id}/add`: the devices to add (by IP), with credentials once for all or per device.
public struct DiscoveryAddInput: Decodable, Sendable {
    public struct Device: Decodable, Sendable {
        public var ip: String
        /// One RTSP port of the device (a recorder serving cameras on several ports): add the streams found there.
        public var port: Int?
        public var name: String?
        /// Overrides the discovered main URL.
        public var rtspURL: String?
        public var username: String?
        public var password: String?
    }
    public var devices: [Device]
    public var username: String?
    public var password: String?
}

/// What happened to each device of an add.
public struct DiscoveryAddResult: ResponseCodable, Sendable, Equatable {
    public struct Entry: Codable, Sendable, Equatable {
        public var ip: String
        public var port: Int?
        /// "added", "duplicate" (already in the registry: not added again) or "failed".
        public var status: String
        public var cameraID: UUID?
        public var error: String?
    }
    public var results: [Entry]
}

/// `GET /api/settings/discovery`: the password is never returned, only whether there is one.
public struct DiscoverySettingsResponse: ResponseCodable, Sendable, Equatable {
    public var subnets: [String]
    public var ports: [Int]
    public var onvif: Bool
    public var username: String
    public var hasPassword: Bool
    /// The subnet used when `subnets` is empty (the host's own /24), if there is one.
    public var defaultSubnet: String?
}

/// `PUT /api/settings/discovery`: absent fields are unchanged; password "" removes it.
public struct DiscoverySettingsInput: Decodable, Sendable {
    public var subnets: [String]?
    public var ports: [Int]?
    public var onvif: Bool?
    public var username: String?
    public var password: String?
}
