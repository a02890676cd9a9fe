import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import RTSPCore

/// What to look for in one discovery run.
public struct DiscoveryRequest: Sendable {
    public var subnets: [IPv4Subnet]
    public var ports: [Int]
    /// Run ONVIF WS-Discovery and query the devices that answer.
    public var onvif: Bool
    /// Tried on the RTSP DESCRIBEs and the ONVIF queries.
    public var credentials: RTSPCredentials?
    /// How long to wait for each RTSP/ONVIF answer; WS-Discovery listens this long too.
    public var timeout: Duration
    /// The retry's connection timeout (and any attempt to a host known to be there).
    public var connectTimeout: Duration
    /// A host's first connection attempt; no answer in this time, it is retried once with `connectTimeout`.
    public var firstConnectTimeout: Duration
    public var maxInFlight: Int
    public var maxConnectsPerSecond: Int
    /// ONVIF devices to query directly (unicast), besides those WS-Discovery finds; each must lie inside `subnets`.
    public var onvifDevices: [ONVIFDeviceAddress]

    public init(subnets: [IPv4Subnet], ports: [Int] = PortList.defaults, onvif: Bool = true,
                credentials: RTSPCredentials? = nil, timeout: Duration = .seconds(3),
                connectTimeout: Duration = .milliseconds(500), firstConnectTimeout: Duration = .milliseconds(250),
                maxInFlight: Int = 256, maxConnectsPerSecond: Int = 4000, onvifDevices: [ONVIFDeviceAddress] = []) {
        self.firstConnectTimeout = min(firstConnectTimeout, connectTimeout)
        self.subnets = subnets
        self.onvifDevices = onvifDevices
        self.ports = ports
        self.onvif = onvif
        self.credentials = credentials
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.maxInFlight = maxInFlight
        self.maxConnectsPerSecond = maxConnectsPerSecond
    }
}

/// Where ONVIF findings come from: WS-Discovery plus device queries (`ONVIFFinder` in ONVIFDiscovery.swift),
/// or a stand-in in tests of the run itself.
public protocol ONVIFSource: Sendable {
    /// Finds ONVIF devices (only querying those inside `scope`), calling `onFinding` as each one is known;
    /// `devices` are queried directly as well (unicast, for devices multicast does not reach).
    func find(scope: ScanScope, credentials: RTSPCredentials?, timeout: Duration, devices: [ONVIFDeviceAddress],
              onFinding: @escaping @Sendable (ONVIFFinding) -> Void) async -> [ONVIFFinding]
}

/// One discovery: the RTSP scan and ONVIF side by side, progress as it goes, the merged result at the end.
/// Cancel the task running `run` to stop it early (it then returns what was found so far).
public struct DiscoveryRun: Sendable {
    public let request: DiscoveryRequest
    let onvif: (any ONVIFSource)?
    let group: any EventLoopGroup
    let logger: Logger

    public init(request: DiscoveryRequest, onvif: (any ONVIFSource)?,
                eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                logger: Logger = Logger(label: "watchbox.discovery")) {
        self.request = request
        self.onvif = request.onvif ? onvif : nil
        self.group = eventLoopGroup
        self.logger = logger
    }

    public func run(registered: [RegisteredCamera] = [],
                    onProgress: @escaping @Sendable (ScanProgress) -> Void = { _ in }) async -> [DiscoveredDevice] {
        let scope = ScanScope(request.subnets)
        let scanner = RTSPScanner(configuration: .init(
            scope: scope, ports: request.ports, connectTimeout: request.connectTimeout,
            firstConnectTimeout: request.firstConnectTimeout, answerTimeout: request.timeout,
            maxInFlight: request.maxInFlight, maxConnectsPerSecond: request.maxConnectsPerSecond,
            credentials: request.credentials), eventLoopGroup: group, logger: logger)
        let state = NIOLockedValueBox(ProgressState(scan: ScanProgress(hostsScanned: 0, hostsTotal: scope.hosts.count, devicesFound: 0)))
        let report: @Sendable ((inout ProgressState) -> Void) -> Void = { change in
            let progress = state.withLockedValue { state -> ScanProgress in
                change(&state)
                var progress = state.scan
                progress.devicesFound = state.devices.count
                return progress
            }
            onProgress(progress)
        }
        async let onvifFindings: [ONVIFFinding] = {
            guard let onvif else { return [] }
            return await onvif.find(scope: scope, credentials: request.credentials, timeout: request.timeout,
                                   devices: request.onvifDevices) { finding in
                report { $0.devices.insert(finding.ip) }
            }
        }()
        let hosts = await scanner.scan(onProgress: { progress in
            report { $0.scan.hostsScanned = progress.hostsScanned; $0.scan.hostsTotal = progress.hostsTotal }
        }, onHost: { host in
            report { $0.devices.insert(host.address.description) }
        })
        let findings = await onvifFindings
        return DiscoveryMerge.merge(onvif: findings, rtsp: hosts, registered: registered)
    }

    struct ProgressState: Sendable {
        var scan: ScanProgress
        var devices: Set<String> = []
    }
}
