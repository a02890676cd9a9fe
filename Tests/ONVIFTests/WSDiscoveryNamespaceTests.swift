import Foundation
import TestSupport
import XCTest
@testable import ONVIF

/// WS-Discovery for real, inside network namespaces this test creates (THE NETWORK RULE: multicast
/// only from inside a namespace). `wsdiscovery` (PyPI) publishes ONVIF NetworkVideoTransmitters in
/// namespace A (10.77.<n>.1); our client runs in namespace B (10.77.<n>.2) through the test-only
/// `onvif-probe-tool` executable started with `ip netns exec` — a separate process is the robust way
/// to put a Swift client in a namespace (setns() on a thread of the XCTest process would move only that
/// thread, and SwiftNIO's event-loop threads would stay outside).
///
/// Checks: a device published before the probe answers with a ProbeMatch; a device published while
/// the probe runs is heard as a Hello; a device withdrawn while the probe runs is heard as a Bye.
final class WSDiscoveryNamespaceTests: XCTestCase {
    func testProbeMatchHelloAndByeAcrossNamespaces() throws {
        let ci = ProcessInfo.processInfo.environment["CI"] == "true"
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") || FileManager.default.isExecutableFile(atPath: "/sbin/ip") else {
            if ci { XCTFail("the WS-Discovery test needs root and iproute2") }
            throw XCTSkip("the WS-Discovery test needs root and iproute2 (ip netns)")
        }
        let tool = Self.probeToolPath
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            if ci { XCTFail("onvif-probe-tool not built at \(tool)") }
            throw XCTSkip("onvif-probe-tool not built at \(tool): run swift build --build-tests")
        }
        let check = try runCommand(PeerRTSPServer.python, ["-c", "import wsdiscovery"])
        guard check.status == 0 else {
            if ci { XCTFail("wsdiscovery (PyPI) missing") }
            throw XCTSkip("wsdiscovery from PyPI is missing: pip install WSDiscovery")
        }

        let tag = String(UInt32.random(in: 0..<0xFFFF), radix: 16)
        let subnet = Int.random(in: 1...250)
        let nsA = "wbA\(tag)", nsB = "wbB\(tag)", vethA = "wbva\(tag)", vethB = "wbvb\(tag)"
        let addressA = "10.77.\(subnet).1", addressB = "10.77.\(subnet).2"
        defer {
            _ = try? runCommand("/usr/sbin/ip", ["netns", "del", nsA])
            _ = try? runCommand("/usr/sbin/ip", ["netns", "del", nsB])
        }
        for command in [
            ["netns", "add", nsA], ["netns", "add", nsB],
            ["link", "add", vethA, "type", "veth", "peer", "name", vethB],
            ["link", "set", vethA, "netns", nsA], ["link", "set", vethB, "netns", nsB],
            ["-n", nsA, "addr", "add", "\(addressA)/24", "dev", vethA], ["-n", nsB, "addr", "add", "\(addressB)/24", "dev", vethB],
            ["-n", nsA, "link", "set", vethA, "up", "multicast", "on"], ["-n", nsB, "link", "set", vethB, "up", "multicast", "on"],
            ["-n", nsA, "link", "set", "lo", "up"], ["-n", nsB, "link", "set", "lo", "up"],
            ["-n", nsA, "route", "add", "224.0.0.0/4", "dev", vethA], ["-n", nsB, "route", "add", "224.0.0.0/4", "dev", vethB],
        ] {
            let result = try runCommand("/usr/sbin/ip", command)
            XCTAssertEqual(result.status, 0, "ip \(command.joined(separator: " ")): \(result.stderr)")
            if result.status != 0 { return }
        }

        // The publisher, in namespace A, driven through stdin.
        let publisher = Process()
        publisher.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        publisher.arguments = ["netns", "exec", nsA, PeerRTSPServer.python,
                               PeerRTSPServer.repositoryRoot.appendingPathComponent("Tests/Peers/wsd_publisher.py").path]
        let toPublisher = Pipe(), fromPublisher = Pipe()
        publisher.standardInput = toPublisher
        publisher.standardOutput = fromPublisher
        publisher.standardError = FileHandle.nullDevice
        try publisher.run()
        defer {
            try? toPublisher.fileHandleForWriting.close()
            if publisher.isRunning { kill(publisher.processIdentifier, SIGKILL) }
            publisher.waitUntilExit()
        }
        func send(_ command: String) throws {
            try toPublisher.fileHandleForWriting.write(contentsOf: Data((command + "\n").utf8))
            var answer = Data()
            while !answer.contains(UInt8(ascii: "\n")) {
                let chunk = fromPublisher.fileHandleForReading.availableData
                if chunk.isEmpty { throw PeerError(message: "wsd_publisher.py stopped before answering '\(command)'") }
                answer.append(chunk)
            }
        }
        let early = "urn:uuid:11111111-2222-3333-4444-\(String(repeating: "0", count: 8))\(tag.padding(toLength: 4, withPad: "0", startingAt: 0))"
        let late = "urn:uuid:55555555-6666-7777-8888-\(String(repeating: "0", count: 8))\(tag.padding(toLength: 4, withPad: "0", startingAt: 0))"
        try send("publish \(early) Early_Camera http://\(addressA):8080/onvif/device_service")
        Thread.sleep(forTimeInterval: 1.0)  // let its own Hello go by before we listen

        // Our client, in namespace B, for 6 s.
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        probe.arguments = ["netns", "exec", nsB, tool, "--interface", addressB, "--timeout", "6"]
        let probeOut = Pipe()
        probe.standardOutput = probeOut
        probe.standardError = FileHandle.nullDevice
        try probe.run()
        Thread.sleep(forTimeInterval: 2.0)
        try send("publish \(late) Late_Camera http://\(addressA):8081/onvif/device_service")  // → Hello
        Thread.sleep(forTimeInterval: 1.0)
        try send("bye \(early)")  // → Bye
        // A few lines of JSON: far below a pipe's buffer, so reading after the exit cannot deadlock.
        probe.waitUntilExit()
        XCTAssertEqual(probe.terminationStatus, 0)
        let output = probeOut.fileHandleForReading.readDataToEndOfFile()

        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        let decoder = JSONDecoder()
        struct Line: Decodable {
            var event: String
            var match: WSDiscoveryMatch?
            var endpointReference: String?
            var matches: [WSDiscoveryMatch]?
            var hellos: [WSDiscoveryMatch]?
            var byes: [String]?
        }
        let parsed = lines.compactMap { try? decoder.decode(Line.self, from: Data($0.utf8)) }
        let result = try XCTUnwrap(parsed.last { $0.event == "result" }, "no result line in: \(lines)")
        let match = try XCTUnwrap(result.matches?.first { $0.endpointReference == early }, "no ProbeMatch from the early device: \(lines)")
        XCTAssertEqual(match.xAddrs, ["http://\(addressA):8080/onvif/device_service"])
        XCTAssertEqual(match.name, "Early Camera")
        XCTAssertEqual(match.hardware, "WSD-TEST-1")
        XCTAssertEqual(match.location, "country/test lab")
        XCTAssertEqual(match.sourceAddress, addressA)
        XCTAssertTrue(WSDiscoveryMessage.isNetworkVideoTransmitter(match.types), "\(match.types)")
        XCTAssertEqual(result.matches?.filter { $0.endpointReference == early }.count, 1, "de-duplicated")
        XCTAssertTrue(result.hellos?.contains { $0.endpointReference == late && $0.name == "Late Camera" } ?? false, "no Hello: \(lines)")
        XCTAssertTrue(result.byes?.contains(early) ?? false, "no Bye: \(lines)")
        XCTAssertTrue(parsed.contains { $0.event == "match" }, "events are reported as they arrive")
    }

    static var probeToolPath: String {
        let directory = Bundle.main.bundleURL.deletingLastPathComponent()
        for candidate in [directory.appendingPathComponent("onvif-probe-tool"),
                          directory.deletingLastPathComponent().appendingPathComponent("onvif-probe-tool")]
        where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate.path
        }
        return PeerRTSPServer.repositoryRoot.appendingPathComponent(".build/debug/onvif-probe-tool").path
    }
}
