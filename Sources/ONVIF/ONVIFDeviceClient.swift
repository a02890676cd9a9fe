import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import RTSPCore

/// Asks one ONVIF device (ONVIF Core Specification §8 device management, Media Service §5, Media2 §5)
/// who it is and where its streams are.
public struct ONVIFDeviceClient: Sendable {
    public let deviceServiceURL: String
    public let username: String?
    public let password: String?
    public let timeout: Duration
    public let logger: Logger
    let eventLoopGroup: any EventLoopGroup

    public init(deviceServiceURL: String, username: String?, password: String?, timeout: Duration = .seconds(5),
                logger: Logger = Logger(label: "watchbox.onvif.device")) {
        self.init(deviceServiceURL: deviceServiceURL, username: username, password: password, timeout: timeout,
                  logger: logger, eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
    }

    public init(deviceServiceURL: String, username: String?, password: String?, timeout: Duration = .seconds(5),
                logger: Logger = Logger(label: "watchbox.onvif.device"), eventLoopGroup: any EventLoopGroup) {
        self.deviceServiceURL = deviceServiceURL
        self.username = username
        self.password = password
        self.timeout = timeout
        self.logger = logger
        self.eventLoopGroup = eventLoopGroup
    }

    /// GetSystemDateAndTime (unauthenticated) → offset; then WS-Security on each call; on rejection retry with HTTP Digest
    /// (and remember which worked); both failing → .authenticationFailed. Then GetDeviceInformation, GetCapabilities
    /// or GetServices, GetProfiles (Media2 where offered, else Media1), GetStreamUri + GetSnapshotUri per profile.
    public func query() async throws(ONVIFError) -> ONVIFDeviceReport {
        guard let endpoint = HTTPEndpoint(deviceServiceURL) else {
            throw .invalidURL(HTTPEndpoint.redact(deviceServiceURL))
        }
        var credentials: (username: String, password: String)?
        if let username, !username.isEmpty { credentials = (username, password ?? "") } else { credentials = endpoint.userinfo }
        var session = ONVIFSession(transport: SOAPHTTPTransport(eventLoopGroup: eventLoopGroup), timeout: timeout,
                                   credentials: credentials, logger: logger)
        let deviceURL = endpoint.redacted
        var logger = logger
        logger[metadataKey: "onvif.device"] = "\(deviceURL)"

        // 1. Core §5.12.1: GetSystemDateAndTime needs no authentication; its UTC time gives the offset.
        switch try await session.send(.getSystemDateAndTime, to: endpoint, authenticate: false) {
        case .body(let response):
            if let time = ONVIFSystemDateAndTime(response: response) {
                session.clockOffset = time.offset(from: Date())
            } else {
                logger.warning("GetSystemDateAndTime has no UTCDateTime; assuming the camera clock is right")
            }
        case .fault(let fault):
            // Tolerance: some devices demand authentication even here. Go on with offset 0.
            logger.warning("GetSystemDateAndTime refused (\(fault.codeDescription)); assuming the camera clock is right")
        }

        // 2. GetDeviceInformation (authenticated: settles WS-Security vs HTTP Digest).
        let information = ONVIFDeviceInformation(response: try await session.call(.getDeviceInformation, endpoint))

        // 3. Where the media services are: GetServices, else GetCapabilities.
        var services = ONVIFServiceAddresses()
        do {
            services = ONVIFServiceAddresses(servicesResponse: try await session.call(.getServices, endpoint))
        } catch {
            if case .fault = error {
                logger.debug("GetServices not supported; trying GetCapabilities")
            } else if case .malformedResponse = error {
                logger.debug("GetServices answer unusable; trying GetCapabilities")
            } else {
                throw error
            }
        }
        if services.media == nil && services.media2 == nil {
            services = ONVIFServiceAddresses(capabilitiesResponse: try await session.call(.getCapabilities, endpoint))
        }

        // 4. Profiles and URIs: Media2 where offered, else Media1.
        var profiles: [ONVIFMediaProfile] = []
        var usedMedia2 = false
        if let address = services.media2, let media2 = Self.serviceEndpoint(address, device: endpoint) {
            do {
                profiles = ONVIFMediaProfile.parseMedia2(getProfilesResponse: try await session.call(.getProfilesMedia2, media2))
                for index in profiles.indices {
                    let token = profiles[index].token
                    profiles[index].streamURI = try await session.optionalURI(.getStreamURIMedia2(profileToken: token), media2)
                    profiles[index].snapshotURI = try await session.optionalURI(.getSnapshotURIMedia2(profileToken: token), media2)
                }
                usedMedia2 = !profiles.isEmpty
            } catch {
                guard services.media != nil, case .fault = error else { throw error }
                logger.info("Media2 GetProfiles failed (\(error)); using Media")
                profiles = []
            }
        }
        if !usedMedia2 {
            guard let address = services.media else {
                throw .malformedResponse(url: deviceURL, detail: "the device announces no media service")
            }
            guard let media = Self.serviceEndpoint(address, device: endpoint) else {
                throw .malformedResponse(url: deviceURL, detail: "the media service address '\(HTTPEndpoint.redact(address))' is not an http URL")
            }
            profiles = ONVIFMediaProfile.parseMedia1(getProfilesResponse: try await session.call(.getProfilesMedia1, media))
            for index in profiles.indices {
                let token = profiles[index].token
                profiles[index].streamURI = try await session.optionalURI(.getStreamURIMedia1(profileToken: token), media)
                profiles[index].snapshotURI = try await session.optionalURI(.getSnapshotURIMedia1(profileToken: token), media)
            }
        }

        return ONVIFDeviceReport(deviceServiceURL: deviceURL, manufacturer: information.manufacturer,
                                 model: information.model, firmwareVersion: information.firmwareVersion,
                                 serialNumber: information.serialNumber, hardwareID: information.hardwareID,
                                 clockOffsetSeconds: session.clockOffset, authentication: session.authentication.rawValue,
                                 profiles: profiles)
    }

    /// A service address from the device. Tolerance (named: "xaddr host unreachable behind NAT"):
    /// devices often announce their own LAN address or an internal one; when the announced host differs
    /// from the one we reached the device service on, we keep the path and use the device's host and port.
    static func serviceEndpoint(_ address: String, device: HTTPEndpoint) -> HTTPEndpoint? {
        guard var service = HTTPEndpoint(address) else { return nil }
        service.userinfo = device.userinfo
        if service.host != device.host || service.port != device.port {
            service.host = device.host
            service.port = device.port
        }
        return service
    }
}
