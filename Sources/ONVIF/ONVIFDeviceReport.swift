/// Everything `ONVIFDeviceClient.query()` learned about one device.
public struct ONVIFDeviceReport: Sendable, Equatable, Codable {
    /// The device service URL queried (no userinfo).
    public var deviceServiceURL: String
    public var manufacturer: String?
    public var model: String?
    public var firmwareVersion: String?
    public var serialNumber: String?
    public var hardwareID: String?
    /// Camera clock − our clock, in seconds (from GetSystemDateAndTime's UTC time).
    public var clockOffsetSeconds: Double
    /// How the device accepted our requests: "ws-security", "http-digest" or "none".
    public var authentication: String
    /// The video profiles, sorted by resolution, highest first.
    public var profiles: [ONVIFMediaProfile]

    public init(deviceServiceURL: String, manufacturer: String? = nil, model: String? = nil,
                firmwareVersion: String? = nil, serialNumber: String? = nil, hardwareID: String? = nil,
                clockOffsetSeconds: Double = 0, authentication: String = "none", profiles: [ONVIFMediaProfile] = []) {
        self.deviceServiceURL = deviceServiceURL
        self.manufacturer = manufacturer
        self.model = model
        self.firmwareVersion = firmwareVersion
        self.serialNumber = serialNumber
        self.hardwareID = hardwareID
        self.clockOffsetSeconds = clockOffsetSeconds
        self.authentication = authentication
        self.profiles = Self.sorted(profiles)
    }

    /// The highest-resolution profile: the camera's "Main" stream.
    public var mainProfile: ONVIFMediaProfile? { profiles.first }

    /// The lowest-resolution profile, when it is not the main one: the camera's "Sub" stream.
    public var subProfile: ONVIFMediaProfile? {
        guard profiles.count > 1, let last = profiles.last, last != profiles.first else { return nil }
        return last
    }

    /// Highest resolution first; ties keep the camera's order (a stable sort).
    public static func sorted(_ profiles: [ONVIFMediaProfile]) -> [ONVIFMediaProfile] {
        profiles.enumerated()
            .sorted { $0.element.pixelCount != $1.element.pixelCount ? $0.element.pixelCount > $1.element.pixelCount : $0.offset < $1.offset }
            .map(\.element)
    }
}
