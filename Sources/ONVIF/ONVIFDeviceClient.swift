import Foundation
import Logging

/// Asks one ONVIF device (ONVIF Core Specification §8 device management, Media Service §5, Media2 §5)
/// who it is and where its streams are.
public struct ONVIFDeviceClient: Sendable {
    public let deviceServiceURL: String
    public let username: String?
    public let password: String?
    public let timeout: Duration
    public let logger: Logger

    public init(deviceServiceURL: String, username: String?, password: String?, timeout: Duration = .seconds(5),
                logger: Logger = Logger(label: "watchbox.onvif.device")) {
        self.deviceServiceURL = deviceServiceURL
        self.username = username
        self.password = password
        self.timeout = timeout
        self.logger = logger
    }

    /// GetSystemDateAndTime (unauthenticated) → offset; then WS-Security on each call; on rejection retry with HTTP Digest
    /// (and remember which worked); both failing → .authenticationFailed. Then GetDeviceInformation, GetCapabilities
    /// or GetServices, GetProfiles (Media2 where offered, else Media1), GetStreamUri + GetSnapshotUri per profile.
    public func query() async throws -> ONVIFDeviceReport {
        throw ONVIFError.invalidURL("not implemented yet")
    }
}
