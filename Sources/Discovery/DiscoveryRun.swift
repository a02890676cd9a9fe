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
    public var connectTimeout: Duration
    public var maxInFlight: Int
    public var maxConnectsPerSecond: Int

    public init(subnets: [IPv4Subnet], ports: [Int] = PortList.defaults, onvif: Bool = true,
                credentials: RTSPCredentials? = nil, timeout: Duration = .seconds(3),
                connectTimeout: Duration = .milliseconds(500), maxInFlight: Int = 128, maxConnectsPerSecond: Int = 2000) {
        self.subnets = subnets
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
    /// Finds ONVIF devices (only querying those inside `scope`), calling `onFinding` as each one is known.
    func find(scope: ScanScope, credentials: RTSPCredentials?, timeout: Duration,
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
            scope: scope, ports: request.ports, connectTimeout: request.connectTimeout, answerTimeout: request.timeout,
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
            return await onvif.find(scope: scope, credentials: request.credentials, timeout: request.timeout) { finding in
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
