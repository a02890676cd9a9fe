import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ONVIF
import RTSPCore

/// ONVIF's half of discovery: a WS-Discovery Probe (ONVIF Core §7.3) from each of this host's interfaces whose
/// address lies inside a scanned subnet, then a device query (`ONVIFDeviceClient`: identity, profiles, stream
/// URIs) of every device that answered, concurrently.
///
/// The scope rule holds here too: the Probe goes only out of interfaces on a scanned subnet (multicast stays on
/// that link), and only device service URLs whose host is an IPv4 address inside the scope are queried.
public struct ONVIFFinder: ONVIFSource {
    let group: any EventLoopGroup
    let logger: Logger
    /// The interfaces to probe from; by default the host's own (getifaddrs).
    let interfaces: @Sendable () -> [HostNetwork.Interface]

    public init(eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                logger: Logger = Logger(label: "watchbox.discovery.onvif"),
                interfaces: @escaping @Sendable () -> [HostNetwork.Interface] = HostNetwork.interfaces) {
        self.group = eventLoopGroup
        self.logger = logger
        self.interfaces = interfaces
    }


    public func find(scope: ScanScope, credentials: RTSPCredentials?, timeout: Duration, devices direct: [ONVIFDeviceAddress] = [],
                     onFinding: @escaping @Sendable (ONVIFFinding) -> Void) async -> [ONVIFFinding] {
        let sources = interfaces().filter { scope.contains($0.address) }
        if sources.isEmpty {
            logger.debug("no interface on a scanned subnet: skipping WS-Discovery")
        }
        // The devices named directly are queried at once, while WS-Discovery listens.
        var targets: [ONVIFDeviceAddress] = []
        for address in direct {
            guard scope.contains(address.host) else {
                logger.info("ONVIF device outside the scanned subnets: not queried", metadata: ["device": "\(address)"])
                continue
            }
            targets.append(address)
            onFinding(ONVIFFinding(ip: address.host.description))
        }
        async let directFindings = queryAll(targets.map { WSDiscoveryMatch(endpointReference: "direct:\($0.url)", xAddrs: [$0.url]) },
                                            scope: scope, credentials: credentials, timeout: timeout)
        let client = WSDiscoveryClient(eventLoopGroup: group, logger: logger)
        var matches: [String: WSDiscoveryMatch] = [:]
        var byes: Set<String> = []
        await withTaskGroup(of: WSDiscoveryResult?.self) { probes in
            for source in sources {
                probes.addTask {
                    do {
                        return try await client.probe(interfaceAddress: source.address.description, timeout: timeout) { event in
                            switch event {
                            case .match(let match), .hello(let match):
                                if let ip = Self.deviceAddress(match, scope: scope) { onFinding(ONVIFFinding(ip: ip)) }
                            case .bye:
                                break
                            }
                        }
                    } catch {
                        logger.warning("WS-Discovery failed", metadata: ["interface": "\(source.name)", "error": "\(error)"])
                        return nil
                    }
                }
            }
            for await result in probes {
                guard let result else { continue }
                for match in result.matches + result.hellos {
                    var merged = matches[match.endpointReference] ?? match
                    for address in match.xAddrs where !merged.xAddrs.contains(address) { merged.xAddrs.append(address) }
                    matches[match.endpointReference] = merged
                }
                byes.formUnion(result.byes)
            }
        }
        let announced = matches.values.filter { !byes.contains($0.endpointReference) }
            .sorted { $0.endpointReference < $1.endpointReference }
        // A device both named and announced is queried once (directly); its WS-Discovery scopes name it.
        let isTarget = { (match: WSDiscoveryMatch) -> ONVIFDeviceAddress? in
            targets.first { target in match.xAddrs.contains { Self.sameService($0, target.url) } }
        }
        let others = await queryAll(announced.filter { isTarget($0) == nil }, scope: scope, credentials: credentials, timeout: timeout)
        var named = await directFindings
        for match in announced {
            guard let target = isTarget(match), let index = named.firstIndex(where: { $0.ip == target.host.description }) else { continue }
            named[index].name = named[index].name ?? match.name
            named[index].hardware = named[index].hardware ?? match.hardware
            named[index].location = named[index].location ?? match.location
        }
        return named + others
    }

    func queryAll(_ devices: [WSDiscoveryMatch], scope: ScanScope, credentials: RTSPCredentials?, timeout: Duration) async -> [ONVIFFinding] {
        await withTaskGroup(of: ONVIFFinding?.self) { queries in
            for match in devices {
                queries.addTask { await query(match, scope: scope, credentials: credentials, timeout: timeout) }
            }
            var findings: [ONVIFFinding] = []
            for await finding in queries {
                if let finding { findings.append(finding) }
            }
            return findings
        }
    }

    /// Queries one device; nil when none of its addresses is inside the scope.
    func query(_ match: WSDiscoveryMatch, scope: ScanScope, credentials: RTSPCredentials?, timeout: Duration) async -> ONVIFFinding? {
        guard let ip = Self.deviceAddress(match, scope: scope) else {
            logger.info("ONVIF device outside the scanned subnets: not queried", metadata: ["xaddrs": "\(match.xAddrs)"])
            return nil
        }
        var finding = ONVIFFinding(ip: ip, name: match.name, hardware: match.hardware, location: match.location)
        guard let url = Self.serviceURL(match, scope: scope) else {
            finding.error = "its ONVIF device service address is outside the scanned subnets: not queried"
            return finding
        }
        finding.deviceServiceURL = url
        let client = ONVIFDeviceClient(deviceServiceURL: url, username: credentials?.username, password: credentials?.password,
                                       timeout: timeout, logger: logger)
        do {
            apply(try await client.query(), to: &finding)
        } catch {
            finding.error = error.description
            if case .authenticationFailed = error { finding.authenticationFailed = true }
        }
        return finding
    }

    func apply(_ report: ONVIFDeviceReport, to finding: inout ONVIFFinding) {
        finding.deviceServiceURL = report.deviceServiceURL
        finding.manufacturer = report.manufacturer
        finding.model = report.model
        finding.firmwareVersion = report.firmwareVersion
        finding.serialNumber = report.serialNumber
        finding.authentication = report.authentication
        finding.profiles = report.profiles
    }

    /// Same scheme, host, port (defaults filled in) and path.
    static func sameService(_ a: String, _ b: String) -> Bool {
        guard let x = URLComponents(string: a), let y = URLComponents(string: b) else { return a == b }
        func port(_ c: URLComponents) -> Int { c.port ?? (c.scheme?.lowercased() == "https" ? 443 : 80) }
        return x.scheme?.lowercased() == y.scheme?.lowercased() && x.host == y.host && port(x) == port(y) && x.path == y.path
    }

    /// The first XAddr whose host is an IPv4 address in the scope (http before https).
    static func serviceURL(_ match: WSDiscoveryMatch, scope: ScanScope) -> String? {
        let inScope = match.xAddrs.filter { address in
            guard let host = URLComponents(string: address)?.host, let ip = IPv4Address(host) else { return false }
            return scope.contains(ip)
        }
        return inScope.first { $0.lowercased().hasPrefix("http:") } ?? inScope.first
    }

    /// The device's IP: its in-scope XAddr's host, else the address the answer came from when in scope.
    static func deviceAddress(_ match: WSDiscoveryMatch, scope: ScanScope) -> String? {
        if let url = serviceURL(match, scope: scope), let host = URLComponents(string: url)?.host { return host }
        if let source = match.sourceAddress, let ip = IPv4Address(source), scope.contains(ip) { return ip.description }
        return nil
    }
}
