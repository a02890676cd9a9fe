import Foundation
import TestSupport

/// A test network of Linux network namespaces (the network rule: the scan only ever reaches these):
/// a scanner namespace holding a bridge with 10.78.0.1/24, and host namespaces 10.78.0.<n> joined to
/// the bridge by veth pairs. Everything is deleted by `tearDown()` (call it in a `defer`), even after a failure.
final class NetworkLab: @unchecked Sendable {
    static let subnet = "10.78.0.0/24"
    let prefix: String
    let scanner: String
    private(set) var hosts: [Int: String] = [:]
    private var processes: [Process] = []
    /// Kept open while the publishers run (they stop at the end of their input).
    private var publisherInputs: [Pipe] = []
    private var namespaces: [String] = []

    /// Root, `ip`, and namespaces that can be created. Under CI=true the tests run (and fail) regardless.
    static var isAvailable: Bool {
        if ProcessInfo.processInfo.environment["CI"] == "true" { return true }
        return geteuid() == 0 && (FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") || FileManager.default.isExecutableFile(atPath: "/sbin/ip"))
    }

    /// `wsdiscovery` (PyPI) importable by the peers' Python. Under CI=true the tests run (and fail) regardless.
    static var hasWSDiscovery: Bool {
        if ProcessInfo.processInfo.environment["CI"] == "true" { return true }
        return (try? runCommand(PeerRTSPServer.python, ["-c", "import wsdiscovery"]).status) == 0
    }

    static var ip: String { FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") ? "/usr/sbin/ip" : "/sbin/ip" }

    init() throws {
        prefix = "wbs\(getpid() % 100_000)x\(Int.random(in: 0..<1000))"
        scanner = "\(prefix)-s"
        try run(["netns", "add", scanner])
        namespaces.append(scanner)
        try run(["-n", scanner, "link", "set", "lo", "up"])
        try run(["-n", scanner, "link", "add", "br0", "type", "bridge"])
        try run(["-n", scanner, "addr", "add", "10.78.0.1/24", "dev", "br0"])
        try run(["-n", scanner, "link", "set", "br0", "up"])
    }

    /// Adds host namespace 10.78.0.<number>.
    @discardableResult
    func addHost(_ number: Int) throws -> String {
        let name = "\(prefix)-h\(number)"
        try run(["netns", "add", name])
        namespaces.append(name)
        try run(["-n", name, "link", "set", "lo", "up"])
        // Created in the host namespace, the peer end moved to the scanner's and put on its bridge.
        try run(["-n", name, "link", "add", "eth0", "type", "veth", "peer", "name", "v\(number)", "netns", scanner])
        try run(["-n", name, "addr", "add", "10.78.0.\(number)/24", "dev", "eth0"])
        try run(["-n", name, "link", "set", "eth0", "up"])
        try run(["-n", scanner, "link", "set", "v\(number)", "master", "br0"])
        try run(["-n", scanner, "link", "set", "v\(number)", "up"])
        hosts[number] = name
        return name
    }

    /// Adds more addresses to one host namespace (a crowded /24 without a namespace per address).
    func addAddresses(_ numbers: some Sequence<Int>, toHost host: Int) throws {
        for number in numbers { try run(["-n", hosts[host]!, "addr", "add", "10.78.0.\(number)/24", "dev", "eth0"]) }
    }

    /// Lets multicast (WS-Discovery, 239.255.255.250) flow between the scanner and the hosts added so far:
    /// a 224.0.0.0/4 route on each side, so it never takes another way (there is none: no default route).
    func enableMulticast() throws {
        try run(["-n", scanner, "link", "set", "br0", "multicast", "on"])
        try run(["-n", scanner, "route", "add", "224.0.0.0/4", "dev", "br0"])
        for name in hosts.values.sorted() {
            try run(["-n", name, "link", "set", "eth0", "multicast", "on"])
            try run(["-n", name, "route", "add", "224.0.0.0/4", "dev", "eth0"])
        }
    }

    /// Tests/Peers/onvif_device.py serving one vendor's fixtures on 10.78.0.<host>:<port>; the stream URIs it
    /// answers point at that address (the host of the request) and RTSP port 554.
    func startONVIFDevice(host: Int, port: Int, fixtures: String, mode: String, user: String, password: String,
                          extra: [String] = []) throws {
        let script = PeerRTSPServer.repositoryRoot.appendingPathComponent("Tests/Peers/onvif_device.py").path
        try start(in: hosts[host]!, [PeerRTSPServer.python, script, "--fixtures", fixtures, "--mode", mode,
                                     "--bind", "10.78.0.\(host)", "--port", String(port), "--rtsp-port", "554",
                                     "--username", user, "--password", password] + extra)
    }

    /// Publishes an ONVIF NetworkVideoTransmitter with `wsdiscovery` (Tests/Peers/wsd_publisher.py) from the
    /// host's namespace: it sends Hello and answers Probes until the lab is torn down.
    func publishWSDiscovery(host: Int, endpoint: String, name: String, xAddr: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.ip)
        let script = PeerRTSPServer.repositoryRoot.appendingPathComponent("Tests/Peers/wsd_publisher.py").path
        process.arguments = ["netns", "exec", hosts[host]!, PeerRTSPServer.python, script]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        processes.append(process)
        publisherInputs.append(input)
        try input.fileHandleForWriting.write(contentsOf: Data("publish \(endpoint) \(name) \(xAddr)\n".utf8))
        var answer = Data()
        while !answer.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { throw PeerError(message: "wsd_publisher.py in \(hosts[host]!) stopped before publishing") }
            answer.append(chunk)
        }
    }

    /// `nft` (nftables) is there to make a host drop packets in tests.
    static var hasNFTables: Bool {
        if ProcessInfo.processInfo.environment["CI"] == "true" { return true }
        return FileManager.default.isExecutableFile(atPath: "/usr/sbin/nft")
    }

    /// Makes the host drop the first TCP SYN from each address to `port` and accept the ones after (a camera
    /// that is slow to answer, or a SYN lost on the way): the client's own SYN retransmission comes only after
    /// a second (RFC 6298 §2.1), so the connection attempt that sent it times out.
    func dropFirstSYN(host: Int, port: Int) throws {
        let rules = """
            table inet wbtest {
              set seen { type ipv4_addr; flags dynamic, timeout; timeout 5m; }
              chain input {
                type filter hook input priority 0; policy accept;
                tcp dport \(port) tcp flags & (syn | ack) == syn ip saddr @seen accept
                tcp dport \(port) tcp flags & (syn | ack) == syn add @seen { ip saddr } drop
              }
            }
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-h\(host).nft")
        try rules.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        try run(["netns", "exec", hosts[host]!, "nft", "-f", file.path])
    }

    /// Forgets who sent a SYN to the host since `dropFirstSYN`: the next first SYN is dropped again.
    func forgetSYNs(host: Int) throws {
        try run(["netns", "exec", hosts[host]!, "nft", "flush", "set", "inet", "wbtest", "seen"])
    }

    /// Starts a program in a namespace and waits for its "READY <port>" (or "PORT <port>") line; returns the port.
    @discardableResult
    func start(in namespace: String, _ arguments: [String]) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.ip)
        process.arguments = ["netns", "exec", namespace] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        processes.append(process)
        let handle = output.fileHandleForReading
        var line = Data()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty || byte == Data([0x0A]) { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        let number = text.hasPrefix("READY ") ? text.dropFirst(6) : text.hasPrefix("PORT ") ? text.dropFirst(5) : ""
        guard let port = Int(number.trimmingCharacters(in: .whitespaces)) else {
            throw PeerError(message: "\(arguments.joined(separator: " ")) in \(namespace) did not start (said \"\(text)\")")
        }
        return port
    }

    /// GStreamer's RTSP server on the host's loopback, reachable on 10.78.0.<host>:<port> through a relay.
    func startCamera(host: Int, port: Int, paths: [String], auth: (user: String, password: String)? = nil) throws {
        let namespace = hosts[host]!
        var arguments = [PeerRTSPServer.python, PeerRTSPServer.scriptPath, "--port", "0", "--width", "320", "--height", "240",
                         "--bitrate", "300"] + paths.flatMap { ["--path", $0] }
        if let auth { arguments += ["--auth", "digest", "--user", auth.user, "--password", auth.password] }
        let internalPort = try start(in: namespace, arguments)
        try startPeer(host: host, mode: "relay", port: port, extra: ["--to", String(internalPort)])
    }

    func startPeer(host: Int, mode: String, port: Int, extra: [String] = []) throws {
        try start(in: hosts[host]!, [PeerRTSPServer.python, Self.peerScript, mode, "--listen", String(port)] + extra)
    }

    static var peerScript: String {
        PeerRTSPServer.repositoryRoot.appendingPathComponent("Tests/Peers/tcp_peer.py").path
    }

    /// Runs a command inside the scanner namespace.
    func runInScanner(_ executable: String, _ arguments: [String], timeout: Double = 120) throws -> CommandResult {
        try runCommand(Self.ip, ["netns", "exec", scanner, executable] + arguments, timeout: timeout)
    }

    func tearDown() {
        for process in processes where process.isRunning {
            process.terminate()
        }
        for process in processes {
            let deadline = Date().addingTimeInterval(3)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        processes.removeAll()
        for input in publisherInputs { try? input.fileHandleForWriting.close() }
        publisherInputs.removeAll()
        // Deleting a namespace deletes its veth ends and the bridge with it.
        for namespace in namespaces.reversed() { _ = try? runCommand(Self.ip, ["netns", "delete", namespace], timeout: 10) }
        namespaces.removeAll()
    }

    deinit { tearDown() }

    private func run(_ arguments: [String]) throws {
        let result = try runCommand(Self.ip, arguments, timeout: 20)
        guard result.status == 0 else {
            throw PeerError(message: "ip \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        }
    }
}
