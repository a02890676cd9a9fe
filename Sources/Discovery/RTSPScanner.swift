import Foundation
import Logging
import NIOCore
import NIOPosix
import RTSPCore

/// The RTSP port scan: TCP connects to every host × port of the scope (short timeout, a bounded number in
/// flight, a bounded rate), an OPTIONS on each open port to confirm RTSP and read `Server`, then, when asked,
/// DESCRIBE on the well-known vendor paths (with the credentials, Digest or Basic through `RTSPAuthenticator`)
/// to find working stream URLs.
///
/// Every connection goes through `ScanScope.authorize`: the scanner never sends to an address outside the
/// ranges it was given.
public struct RTSPScanner: Sendable {
    public struct Configuration: Sendable {
        public var scope: ScanScope
        public var ports: [Int]
        /// How long a host's first connection attempt may take before it is retried once (with `connectTimeout`).
        /// Short, because on a LAN a host that is there answers in milliseconds and most addresses are empty.
        public var firstConnectTimeout: Duration
        /// How long the retry, and each connection attempt to a host known to be there, may take.
        public var connectTimeout: Duration
        /// How long to wait for each RTSP answer once connected.
        public var answerTimeout: Duration
        /// At most this many connections at once.
        public var maxInFlight: Int
        /// At most this many connection attempts per second.
        public var maxConnectsPerSecond: Int
        /// Credentials for DESCRIBE; nil tries without.
        public var credentials: RTSPCredentials?
        /// DESCRIBE the vendor paths on each RTSP port to find working URLs.
        public var findStreams: Bool

        public init(scope: ScanScope, ports: [Int] = PortList.defaults, connectTimeout: Duration = .milliseconds(500),
                    firstConnectTimeout: Duration = .milliseconds(250),
                    answerTimeout: Duration = .seconds(2), maxInFlight: Int = 256, maxConnectsPerSecond: Int = 4000,
                    credentials: RTSPCredentials? = nil, findStreams: Bool = true) {
            self.scope = scope
            self.ports = ports
            self.connectTimeout = connectTimeout
            self.firstConnectTimeout = min(firstConnectTimeout, connectTimeout)
            self.answerTimeout = answerTimeout
            self.maxInFlight = max(1, maxInFlight)
            self.maxConnectsPerSecond = max(1, maxConnectsPerSecond)
            self.credentials = credentials
            self.findStreams = findStreams
        }
    }

    public let configuration: Configuration
    let group: any EventLoopGroup
    let logger: Logger

    public init(configuration: Configuration, eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                logger: Logger = Logger(label: "watchbox.discovery.scan")) {
        self.configuration = configuration
        self.group = eventLoopGroup
        self.logger = logger
    }

    /// Scans every host and port; returns the hosts where something answered RTSP, in address order.
    /// Cancelling the task stops the scan (connections in flight are closed) and returns what was found.
    ///
    /// Each host's first port is tried first, with the short `firstConnectTimeout`; no answer in that time, it is
    /// tried once more with the full `connectTimeout` (so a slow camera is not missed, while the empty addresses
    /// of a subnet, most of them, cost one short and one full timeout all in parallel rather than five). The
    /// host's other ports follow once the first port has an answer. When the retry timed out too and the
    /// kernel's neighbour table shows the address never answered ARP (it is not on the link), or the network
    /// said it is unreachable, the host's other ports are skipped.
    public func scan(onProgress: (@Sendable (ScanProgress) -> Void)? = nil,
                     onHost: (@Sendable (RTSPHost) -> Void)? = nil) async -> [RTSPHost] {
        let hosts = configuration.scope.hosts
        let ports = configuration.ports
        var remaining = [Int](repeating: ports.count, count: hosts.count)
        var found: [Int: [RTSPEndpoint]] = [:]
        var scanned = 0
        onProgress?(ScanProgress(hostsScanned: 0, hostsTotal: hosts.count, devicesFound: 0))
        guard !ports.isEmpty, !hosts.isEmpty else { return [] }

        let interval = Duration.seconds(1) / configuration.maxConnectsPerSecond
        let started = ContinuousClock.now
        var neighbours = NeighborCache()
        await withTaskGroup(of: (host: Int, port: Int, retry: Bool, outcome: ProbeOutcome).self) { group in
            var nextHost = 0
            var followUps: [(host: Int, port: Int, retry: Bool)] = []
            var launched = 0
            func launch() async -> Bool {
                guard !Task.isCancelled else { return false }
                let item: (host: Int, port: Int, retry: Bool)
                if !followUps.isEmpty {
                    item = followUps.removeLast()
                } else if nextHost < hosts.count {
                    item = (nextHost, 0, false)
                    nextHost += 1
                } else {
                    return false
                }
                // The bounded rate: attempt i starts no earlier than i × interval after the first.
                let due = started + interval * launched
                launched += 1
                if ContinuousClock.now < due { try? await Task.sleep(until: due, clock: .continuous) }
                let address = hosts[item.host], port = ports[item.port]
                let timeout = item.port == 0 && !item.retry ? configuration.firstConnectTimeout : configuration.connectTimeout
                group.addTask { (item.host, item.port, item.retry, await probe(address, port: port, connectTimeout: timeout)) }
                return true
            }
            var inFlight = 0
            while inFlight < configuration.maxInFlight, await launch() { inFlight += 1 }
            while let (hostIndex, portIndex, retried, outcome) = await group.next() {
                inFlight -= 1
                var done = 1
                if case .rtsp(let endpoint) = outcome {
                    found[hostIndex, default: []].append(endpoint)
                }
                if portIndex == 0 {
                    logger.trace("first port", metadata: ["address": "\(hosts[hostIndex])", "retry": "\(retried)", "outcome": "\(outcome)"])
                }
                if portIndex == 0 && outcome == .timedOut && !retried && configuration.firstConnectTimeout < configuration.connectTimeout {
                    // No answer in the short first timeout: once more with the full one, before anything else.
                    followUps.append((hostIndex, 0, true))
                    done = 0
                } else if portIndex == 0 && ports.count > 1 {
                    if outcome == .absent || (outcome == .timedOut && neighbours.isUnanswered(hosts[hostIndex])) {
                        done = ports.count
                    } else {
                        // Tried next, before new hosts: a host's ports finish together, so progress counts hosts.
                        followUps.append(contentsOf: (1..<ports.count).reversed().map { (hostIndex, $0, false) })
                    }
                }
                remaining[hostIndex] -= done
                if done > 0 && remaining[hostIndex] == 0 {
                    scanned += 1
                    if let endpoints = found[hostIndex] {
                        onHost?(RTSPHost(address: hosts[hostIndex], endpoints: endpoints.sorted { $0.port < $1.port }))
                    }
                    onProgress?(ScanProgress(hostsScanned: scanned, hostsTotal: hosts.count, devicesFound: found.count))
                }
                while inFlight < configuration.maxInFlight, await launch() { inFlight += 1 }
            }
        }
        return found.keys.sorted().map { RTSPHost(address: hosts[$0], endpoints: found[$0]!.sorted { $0.port < $1.port }) }
    }

    /// What one host:port attempt came to.
    enum ProbeOutcome: Sendable, Equatable {
        case rtsp(RTSPEndpoint)
        /// Refused, or open but not RTSP: the host is there.
        case nothing
        /// The connection attempt timed out.
        case timedOut
        /// The network said the host is unreachable.
        case absent
    }

    /// The kernel's neighbour table, read after a connection attempt timed out, and read again only when the
    /// copy is older than `maxAge`: the timeouts of a sparse subnet come in bursts, and one read serves the
    /// burst (each attempt of it asked ARP long before, so the copy tells its outcome as well as a fresh one).
    struct NeighborCache {
        var table: NeighborTable?
        var readAt: ContinuousClock.Instant?
        var maxAge: Duration = .milliseconds(50)

        /// The address never answered ARP (it is not on the link).
        mutating func isUnanswered(_ address: IPv4Address) -> Bool {
            let now = ContinuousClock.now
            if readAt.map({ now - $0 > maxAge }) ?? true {
                table = NeighborTable.current()
                readAt = now
            }
            return table?.isUnanswered(address) ?? false
        }
    }

    /// Connect, OPTIONS, and the stream search on one host:port.
    func probe(_ address: IPv4Address, port: Int, connectTimeout: Duration? = nil) async -> ProbeOutcome {
        let connection: RTSPProbeConnection
        do {
            connection = try await RTSPProbeConnection.connect(to: address, port: port, scope: configuration.scope,
                                                               timeout: connectTimeout ?? configuration.connectTimeout, group: group)
        } catch RTSPProbeConnection.Failure.connectTimedOut {
            return .timedOut
        } catch RTSPProbeConnection.Failure.unreachable {
            return .absent
        } catch {
            return .nothing
        }
        var session = ProbeSession(scanner: self, address: address, port: port, connection: connection)
        let options: RTSPResponse
        do {
            options = try await session.send { cseq in
                RTSPProbeRequests.options(uri: RTSPProbeRequests.url(host: address, port: port, path: "/"), cseq: cseq)
            }
        } catch {
            logger.debug("open port is not RTSP", metadata: ["address": "\(address):\(port)", "reason": "\(error)"])
            await session.connection.close()
            return .nothing
        }
        var endpoint = RTSPEndpoint(port: port, server: options.headers.first(name: "Server"),
                                    methods: RTSPProbeRequests.publicMethods(options))
        logger.debug("RTSP answered", metadata: ["address": "\(address):\(port)", "server": "\(endpoint.server ?? "-")"])
        if configuration.findStreams {
            await session.findStreams(&endpoint)
        }
        await session.connection.close()
        return .rtsp(endpoint)
    }
}

/// The requests on one endpoint: CSeq numbering, one reconnect when the device closes the connection
/// between requests (some cameras do after a 404), and the DESCRIBE walk over the vendor paths.
struct ProbeSession {
    let scanner: RTSPScanner
    let address: IPv4Address
    let port: Int
    var connection: RTSPProbeConnection
    var cseq = 0
    var reconnects = 0

    init(scanner: RTSPScanner, address: IPv4Address, port: Int, connection: RTSPProbeConnection) {
        self.scanner = scanner
        self.address = address
        self.port = port
        self.connection = connection
    }

    mutating func send(_ make: (Int) -> RTSPRequest) async throws -> RTSPResponse {
        cseq += 1
        do {
            return try await connection.send(make(cseq), timeout: scanner.configuration.answerTimeout)
        } catch RTSPProbeConnection.Failure.closed where cseq > 1 && reconnects < 3 {
            reconnects += 1
            await connection.close()
            connection = try await RTSPProbeConnection.connect(
                to: address, port: port, scope: scanner.configuration.scope,
                timeout: scanner.configuration.connectTimeout, group: scanner.group)
            cseq += 1
            return try await connection.send(make(cseq), timeout: scanner.configuration.answerTimeout)
        }
    }

    mutating func findStreams(_ endpoint: inout RTSPEndpoint) async {
        let credentials = scanner.configuration.credentials
        var authenticator: RTSPAuthenticator?
        let vendor = VendorGuess.vendor(in: endpoint.server)
        paths: for entry in VendorPath.ordered(for: vendor) {
            let uri = RTSPProbeRequests.url(host: address, port: port, path: entry.path)
            var retriedWithFreshChallenge = false
            while true {
                let authorization = authenticator?.authorization(method: "DESCRIBE", uri: uri)
                let response: RTSPResponse
                do {
                    response = try await send { cseq in
                        RTSPProbeRequests.describe(uri: uri, cseq: cseq, authorization: authorization)
                    }
                } catch {
                    endpoint.note = "stopped looking for stream paths: \(Self.reason(error)) after DESCRIBE \(uri)"
                    return
                }
                if endpoint.server == nil { endpoint.server = response.headers.first(name: "Server") }
                switch RTSPProbeRequests.outcome(of: response) {
                case .works:
                    endpoint.workingURLs.append(uri)
                    endpoint.roles[uri] = entry.role
                    continue paths
                case .absent:
                    continue paths
                case .unauthorized(let challenges):
                    endpoint.requiresAuthentication = true
                    guard let credentials else {
                        endpoint.note = "needs a user name and password: give them to find its stream paths"
                        return
                    }
                    if authorization != nil {
                        if retriedWithFreshChallenge {
                            guard endpoint.workingURLs.isEmpty else { continue paths }
                            // Refused even with a fresh challenge: the credentials are wrong. Stop rather than
                            // try every path with them (cameras lock an account after a few failures).
                            endpoint.authenticationFailed = true
                            endpoint.note = "authentication failed for \(RTSPProbeRequests.url(host: address, port: port, path: "/")): check the username and password"
                            return
                        }
                        // The nonce may have gone stale (RFC 7616 §3.3): answer the new challenge once.
                        retriedWithFreshChallenge = true
                    }
                    guard let fresh = RTSPAuthenticator(credentials: credentials, challenges: challenges) else {
                        endpoint.note = "asks for an authentication scheme WatchBox does not support (only Basic and Digest)"
                        return
                    }
                    authenticator = fresh
                }
            }
        }
    }

    static func reason(_ error: any Error) -> String {
        switch error as? RTSPProbeConnection.Failure {
        case .timedOut: return "no answer in time"
        case .closed: return "the device closed the connection"
        case .notRTSP: return "the device answered something that is not RTSP"
        case .connectFailed, .connectTimedOut, .unreachable: return "cannot reconnect"
        case nil: return "\(error)"
        }
    }
}
