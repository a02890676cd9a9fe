import ONVIF
import RTSPCore

/// One device (one IP address) as discovery reports it: what ONVIF said about it, the RTSP ports that
/// answered, a vendor guess, and whether the registry already holds it.
public struct DiscoveredDevice: Sendable, Equatable, Codable {
    public var ip: String
    /// Every working stream URL, without credentials: ONVIF's stream URIs first (main, then sub), then the
    /// ones DESCRIBE found on the scanned ports.
    public var rtspURLs: [String]
    public var manufacturer: String?
    public var model: String?
    public var firmwareVersion: String?
    public var serialNumber: String?
    /// The ONVIF name scope (onvif://www.onvif.org/name/...), or nil.
    public var name: String?
    public var location: String?
    /// It answered WS-Discovery or an ONVIF device query.
    public var onvif: Bool
    public var deviceServiceURL: String?
    /// "ws-security", "http-digest", "none" (how the ONVIF queries authenticated).
    public var onvifAuthentication: String?
    /// Why the ONVIF query failed ("authentication failed for ...: check the username and password").
    public var onvifError: String?
    /// ONVIF media profiles, highest resolution first.
    public var profiles: [DiscoveredProfile]
    /// The open RTSP ports.
    public var ports: [Int]
    /// The first `Server` header seen.
    public var server: String?
    public var endpoints: [RTSPEndpoint]
    public var vendor: String?
    /// The registry already holds a camera at this host and port (or with one of these URLs).
    public var alreadyRegistered: Bool
    /// The id of that camera.
    public var registeredCameraID: String?
    /// The RTSP ports whose streams the registry already holds (a recorder with cameras on several ports
    /// may have some added and others not).
    public var registeredPorts: [Int]
    /// Credentials are needed (a 401, or ONVIF refused us without them).
    public var requiresAuthentication: Bool
    /// The credentials tried were refused.
    public var authenticationFailed: Bool

    public init(ip: String) {
        self.ip = ip
        rtspURLs = []
        onvif = false
        profiles = []
        ports = []
        endpoints = []
        alreadyRegistered = false
        registeredPorts = []
        requiresAuthentication = false
        authenticationFailed = false
    }

    /// The URL to add the camera with (the main stream) and the smaller one, if any.
    public var mainURL: String? {
        (profiles.first?.streamURI ?? endpoints.lazy.flatMap { endpoint in
            endpoint.workingURLs.filter { endpoint.roles[$0] != "sub" }
        }.first ?? rtspURLs.first).map(Self.withoutCredentials)
    }

    public var subURL: String? {
        if profiles.count > 1, let uri = profiles.last?.streamURI.map(Self.withoutCredentials), uri != mainURL { return uri }
        return endpoints.lazy.flatMap { endpoint in endpoint.workingURLs.filter { endpoint.roles[$0] == "sub" } }.first
    }

    /// The main and sub stream URLs DESCRIBE found on one port.
    public func urls(port: Int) -> (main: String?, sub: String?) {
        guard let endpoint = endpoints.first(where: { $0.port == port }) else { return (nil, nil) }
        return (endpoint.workingURLs.first { endpoint.roles[$0] != "sub" } ?? endpoint.workingURLs.first,
                endpoint.workingURLs.first { endpoint.roles[$0] == "sub" && $0 != endpoint.workingURLs.first })
    }

    static func withoutCredentials(_ url: String) -> String {
        (try? RTSPURL(string: url))?.withCredentials(nil).requestURI ?? url
    }
}

/// A media profile of an ONVIF device, as the ONVIF module reads it (GetProfiles with the encoder's
/// resolution and frame rate, and the GetStreamUri/GetSnapshotUri answers).
public typealias DiscoveredProfile = ONVIFMediaProfile

/// What ONVIF found at one address: the WS-Discovery answer and, when the device query worked, its report
/// (both in Discovery's own terms; `ONVIFFinding+ONVIF.swift` converts from the ONVIF module's types).
public struct ONVIFFinding: Sendable, Equatable {
    public var ip: String
    public var deviceServiceURL: String?
    public var name: String?
    public var hardware: String?
    public var location: String?
    public var manufacturer: String?
    public var model: String?
    public var firmwareVersion: String?
    public var serialNumber: String?
    public var authentication: String?
    public var profiles: [DiscoveredProfile]
    public var error: String?
    public var authenticationFailed: Bool

    public init(ip: String, deviceServiceURL: String? = nil, name: String? = nil, hardware: String? = nil,
                location: String? = nil, manufacturer: String? = nil, model: String? = nil,
                firmwareVersion: String? = nil, serialNumber: String? = nil, authentication: String? = nil,
                profiles: [DiscoveredProfile] = [], error: String? = nil, authenticationFailed: Bool = false) {
        self.ip = ip
        self.deviceServiceURL = deviceServiceURL
        self.name = name
        self.hardware = hardware
        self.location = location
        self.manufacturer = manufacturer
        self.model = model
        self.firmwareVersion = firmwareVersion
        self.serialNumber = serialNumber
        self.authentication = authentication
        self.profiles = profiles
        self.error = error
        self.authenticationFailed = authenticationFailed
    }
}

/// A camera the registry already holds, as the merge compares it.
public struct RegisteredCamera: Sendable, Equatable {
    public var id: String
    public var host: String?
    public var port: Int
    /// Its stream URLs (main and profiles), without credentials.
    public var urls: [String]

    public init(id: String, host: String?, port: Int, urls: [String]) {
        self.id = id
        self.host = host
        self.port = port
        self.urls = urls
    }
}
