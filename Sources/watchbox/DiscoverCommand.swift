import ArgumentParser
import Discovery
import Foundation
import Logging
import RTSPCore

struct DiscoverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discover",
        abstract: "Find cameras: ONVIF WS-Discovery and an RTSP port scan, merged into one entry per device.",
        discussion: """
        Scans the given subnets (default: the /24 of this host's primary IPv4 interface) on the given ports,
        confirms RTSP with OPTIONS, and tries DESCRIBE on well-known vendor stream paths (with --username and
        --password when given) to find working stream URLs. Only addresses inside the subnets are contacted.
        Exit status: 0 (even when nothing is found), 2 for bad arguments.
        """
    )

    @Option(name: .customLong("subnet"), help: "A subnet to scan, A.B.C.D/N (a bare address is a /32); repeat for several.")
    var subnets: [String] = []

    @Option(help: "TCP ports to try on each host, comma-separated (ranges like 8000-8010 allowed).")
    var ports: String = PortList.defaults.map(String.init).joined(separator: ",")

    @Option(name: .customLong("onvif-device"),
            help: "An ONVIF device to query directly (A.B.C.D[:PORT] or its device service URL), for cameras WS-Discovery's multicast does not reach; repeat for several. It must lie inside the subnets.")
    var onvifDevices: [String] = []

    @Flag(name: .customLong("no-onvif"), help: "Skip ONVIF WS-Discovery and device queries.")
    var noONVIF = false

    @Option(help: "User name to try on the devices (RTSP DESCRIBE and ONVIF).")
    var username: String?

    @Option(help: "Password to try on the devices.")
    var password: String?

    @Option(help: "Seconds to wait for each device's answers (and for WS-Discovery replies).")
    var timeout: Double = 3

    @Option(help: "Milliseconds a TCP connection attempt may take (a host's first one gets at most 250, then one retry with this).")
    var connectTimeout: Int = 500

    @Option(help: "At most this many connection attempts at once (at most 4,000 start per second).")
    var concurrency: Int = 256

    @Flag(help: "Allow subnets larger than a /22 (up to a /16).")
    var allowLarge = false

    @Flag(help: "Print a JSON array instead of a table.")
    var json = false

    @Flag(help: "Print progress (hosts scanned, devices found) on stderr.")
    var progress = false

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        logging.bootstrap()
        let request: DiscoveryRequest
        do {
            request = try makeRequest()
        } catch let error as DiscoveryError {
            Self.fail(error.description, code: 2)
        }
        let showProgress = progress
        let run = DiscoveryRun(request: request, onvif: ONVIFFinder(logger: Logger(label: "watchbox.onvif")),
                               logger: Logger(label: "watchbox.discover"))
        let devices = await run.run { progress in
            if showProgress {
                FileHandle.standardError.write(Data("scanned \(progress.hostsScanned)/\(progress.hostsTotal) hosts, \(progress.devicesFound) devices found\n".utf8))
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
            print(String(decoding: try encoder.encode(devices), as: UTF8.self))
        } else {
            print(Self.table(devices, subnets: request.subnets))
        }
    }

    func makeRequest() throws -> DiscoveryRequest {
        let subnets = self.subnets.isEmpty ? [try HostNetwork.defaultSubnet()]
            : try IPv4Subnet.parseList(self.subnets, allowLarge: allowLarge)
        guard timeout > 0, timeout <= 60 else { throw DiscoveryError.invalidCredentials("--timeout must be between 0 and 60 seconds") }
        guard (10...10_000).contains(connectTimeout) else {
            throw DiscoveryError.invalidCredentials("--connect-timeout must be between 10 and 10000 milliseconds")
        }
        guard (1...1024).contains(concurrency) else { throw DiscoveryError.invalidCredentials("--concurrency must be between 1 and 1024") }
        if password != nil && username == nil {
            throw DiscoveryError.invalidCredentials("--password needs --username too")
        }
        let credentials = username.map { RTSPCredentials(username: $0, password: password ?? "") }
        let devices = try ONVIFDeviceAddress.parseList(onvifDevices)
        let scope = ScanScope(subnets)
        if let outside = devices.first(where: { !scope.contains($0.host) }) {
            throw DiscoveryError.onvifDeviceOutsideSubnets(outside.url)
        }
        return DiscoveryRequest(subnets: subnets, ports: try PortList.parse(ports), onvif: !noONVIF, credentials: credentials,
                                timeout: .milliseconds(Int64(timeout * 1000)), connectTimeout: .milliseconds(Int64(connectTimeout)),
                                maxInFlight: concurrency, onvifDevices: devices)
    }

    static func table(_ devices: [DiscoveredDevice], subnets: [IPv4Subnet]) -> String {
        let scanned = subnets.map(\.description).joined(separator: ", ")
        guard !devices.isEmpty else { return "no cameras found in \(scanned)" }
        var rows = [["IP", "VENDOR / MODEL", "ONVIF", "PORTS", "STREAMS", "NOTE"]]
        for device in devices {
            let identity = [device.vendor ?? device.manufacturer, device.model].compactMap { $0 }.joined(separator: " ")
            var notes: [String] = []
            if device.alreadyRegistered { notes.append("already added") }
            if device.authenticationFailed { notes.append("credentials refused") }
            else if device.requiresAuthentication && device.rtspURLs.isEmpty { notes.append("needs credentials") }
            let urls = device.rtspURLs.isEmpty ? ["-"] : device.rtspURLs
            for (index, url) in urls.enumerated() {
                rows.append(index == 0
                    ? [device.ip, identity.isEmpty ? "-" : identity, device.onvif ? "yes" : "no",
                       device.ports.map(String.init).joined(separator: ","), url, notes.joined(separator: "; ")]
                    : ["", "", "", "", url, ""])
            }
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        let lines = rows.map { row in
            row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        return lines.joined(separator: "\n") + "\n\(devices.count) device\(devices.count == 1 ? "" : "s") found in \(scanned)"
    }
}
