/// One device found by WS-Discovery (WS-Discovery 2005/04 §5.3 ProbeMatch, §4.1 Hello): its endpoint
/// reference, where its device service lives (XAddrs), and what its ONVIF scopes say about it
/// (ONVIF Core Specification §7.3.2.2 scope parameters: name, hardware, location).
public struct WSDiscoveryMatch: Sendable, Equatable, Codable {
    /// `wsa:EndpointReference/wsa:Address`, usually `urn:uuid:…`; stable across the device's reboots.
    public var endpointReference: String
    /// `d:XAddrs`: the device service URLs as given (space-separated in the message).
    public var xAddrs: [String]
    /// `d:Scopes`, as given (space-separated in the message).
    public var scopes: [String]
    /// `d:Types` as written (QNames such as `dn:NetworkVideoTransmitter`).
    public var types: [String]
    /// Percent-decoded value of the `onvif://www.onvif.org/name/…` scope.
    public var name: String?
    /// Percent-decoded value of the `onvif://www.onvif.org/hardware/…` scope.
    public var hardware: String?
    /// Percent-decoded value of the `onvif://www.onvif.org/location/…` scope.
    public var location: String?
    /// `d:MetadataVersion`.
    public var metadataVersion: Int?
    /// The IP address the datagram came from (nil when parsed from bytes alone).
    public var sourceAddress: String?

    public init(endpointReference: String, xAddrs: [String] = [], scopes: [String] = [], types: [String] = [],
                name: String? = nil, hardware: String? = nil, location: String? = nil,
                metadataVersion: Int? = nil, sourceAddress: String? = nil) {
        self.endpointReference = endpointReference
        self.xAddrs = xAddrs
        self.scopes = scopes
        self.types = types
        self.name = name
        self.hardware = hardware
        self.location = location
        self.metadataVersion = metadataVersion
        self.sourceAddress = sourceAddress
    }
}
