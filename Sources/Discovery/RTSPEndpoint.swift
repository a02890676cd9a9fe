/// An open port that answered RTSP, and what DESCRIBE found on it.
public struct RTSPEndpoint: Sendable, Equatable, Codable {
    public var port: Int
    /// The `Server` header (RFC 2326 §12.36) of its answers, if it sent one.
    public var server: String?
    /// The methods its `Public` header lists.
    public var methods: [String]
    /// URLs (without credentials) that answered DESCRIBE with 200, in the order tried.
    public var workingURLs: [String]
    /// The documented role ("main"/"sub") of each working URL whose path is a known vendor path.
    public var roles: [String: String]
    /// It answered 401: credentials are needed to find or play its streams.
    public var requiresAuthentication: Bool
    /// It refused the credentials we tried.
    public var authenticationFailed: Bool
    /// A sentence for people when something stopped the search ("authentication failed for ...").
    public var note: String?

    public init(port: Int, server: String? = nil, methods: [String] = [], workingURLs: [String] = [],
                roles: [String: String] = [:], requiresAuthentication: Bool = false,
                authenticationFailed: Bool = false, note: String? = nil) {
        self.port = port
        self.server = server
        self.methods = methods
        self.workingURLs = workingURLs
        self.roles = roles
        self.requiresAuthentication = requiresAuthentication
        self.authenticationFailed = authenticationFailed
        self.note = note
    }
}

/// One address where at least one port answered RTSP.
public struct RTSPHost: Sendable, Equatable, Codable {
    public var address: IPv4Address
    public var endpoints: [RTSPEndpoint]

    public init(address: IPv4Address, endpoints: [RTSPEndpoint]) {
        self.address = address
        self.endpoints = endpoints
    }
}

/// How far a scan has come.
public struct ScanProgress: Sendable, Equatable, Codable {
    public var hostsScanned: Int
    public var hostsTotal: Int
    /// Addresses with at least one RTSP port (or, in a discovery, an ONVIF answer).
    public var devicesFound: Int

    public init(hostsScanned: Int, hostsTotal: Int, devicesFound: Int) {
        self.hostsScanned = hostsScanned
        self.hostsTotal = hostsTotal
        self.devicesFound = devicesFound
    }
}
