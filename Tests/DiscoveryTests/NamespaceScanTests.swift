import Foundation
import Testing
import TestSupport

/// `watchbox discover` inside a namespace test network: GStreamer cameras on some hosts and ports, TCP
/// listeners that are not RTSP (HTTP, garbage, silent) on others. Only the RTSP ones are reported, with
/// the stream URLs DESCRIBE found on the vendor paths.
@Suite("watchbox discover on a namespace network", .serialized,
       .enabled(if: NetworkLab.isAvailable && PeerRTSPServer.isAvailable, "needs root, iproute2 and the GStreamer peer"))
struct NamespaceScanTests {
    static let user = "admin", password = "s3cret"

    /// 10.78.0.10: a "Hikvision" (Digest auth, its documented paths) on 554.
    /// 10.78.0.11: a camera on 8554 at /stream1 (TP-Link's path), an HTTP server on 554.
    /// 10.78.0.12: garbage on 554, a listener that accepts and never answers on 8554.
    func makeLab() throws -> NetworkLab {
        let lab = try NetworkLab()
        for host in [10, 11, 12] { try lab.addHost(host) }
        try lab.startCamera(host: 10, port: 554, paths: ["/Streaming/Channels/101", "/Streaming/Channels/102"],
                            auth: (Self.user, Self.password))
        try lab.startCamera(host: 11, port: 8554, paths: ["/stream1"])
        try lab.startPeer(host: 11, mode: "http", port: 554)
        try lab.startPeer(host: 12, mode: "garbage", port: 554)
        try lab.startPeer(host: 12, mode: "silent", port: 8554)
        return lab
    }

    func devices(_ result: CommandResult) throws -> [[String: Any]] {
        let data = Data(result.stdout.utf8)
        guard let array = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw PeerError(message: "not a JSON array: \(result.stdout) \(result.stderr)")
        }
        return array
    }

    @Test func reportsOnlyRTSPDevicesWithWorkingURLs() throws {
        let lab = try makeLab()
        defer { lab.tearDown() }
        let started = Date()
        let result = try lab.runInScanner(watchboxExecutable, [
            "discover", "--subnet", NetworkLab.subnet, "--no-onvif", "--json", "--timeout", "2",
            "--username", Self.user, "--password", Self.password])
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result.stderr)")
        let found = try devices(result)
        #expect(found.map { $0["ip"] as? String } == ["10.78.0.10", "10.78.0.11"])
        guard found.count == 2 else { return }

        let hik = found[0]
        #expect(hik["rtspURLs"] as? [String] == ["rtsp://10.78.0.10:554/Streaming/Channels/101",
                                                  "rtsp://10.78.0.10:554/Streaming/Channels/102"])
        #expect(hik["ports"] as? [Int] == [554])
        #expect(hik["onvif"] as? Bool == false)
        #expect((hik["server"] as? String)?.contains("GStreamer") == true)
        #expect(hik["vendor"] as? String == "GStreamer", "the Server header names GStreamer, which beats the path")
        #expect(hik["manufacturer"] == nil || hik["manufacturer"] is NSNull)
        #expect(hik["authenticationFailed"] as? Bool == false)

        let other = found[1]
        #expect(other["rtspURLs"] as? [String] == ["rtsp://10.78.0.11:8554/stream1"])
        #expect(other["ports"] as? [Int] == [8554], "554 there is an HTTP server, not RTSP")
        // The credentials never reach the output.
        #expect(!result.stdout.contains(Self.password) && !result.stderr.contains(Self.password))
        // The silent listener costs at most the answer timeout: nothing hangs (a generous bound, not a speed test).
        #expect(elapsed < 60)
    }

    @Test func wrongPasswordIsReportedAndNoURLIsInvented() throws {
        let lab = try makeLab()
        defer { lab.tearDown() }
        let result = try lab.runInScanner(watchboxExecutable, [
            "discover", "--subnet", "10.78.0.10", "--subnet", "10.78.0.11/32", "--no-onvif", "--json", "--timeout", "2",
            "--username", Self.user, "--password", "wrong"])
        #expect(result.status == 0, "\(result.stderr)")
        let found = try devices(result)
        #expect(found.map { $0["ip"] as? String } == ["10.78.0.10", "10.78.0.11"])
        guard found.count == 2 else { return }
        #expect(found[0]["rtspURLs"] as? [String] == [])
        #expect(found[0]["authenticationFailed"] as? Bool == true)
        let endpoints = found[0]["endpoints"] as? [[String: Any]] ?? []
        #expect((endpoints.first?["note"] as? String)?.hasPrefix("authentication failed for rtsp://10.78.0.10:554/: check the username and password") == true)
        // The camera without authentication is found whatever the credentials.
        #expect(found[1]["rtspURLs"] as? [String] == ["rtsp://10.78.0.11:8554/stream1"])
    }

    @Test func withoutCredentialsTheCameraIsFoundButNeedsThem() throws {
        let lab = try makeLab()
        defer { lab.tearDown() }
        let result = try lab.runInScanner(watchboxExecutable, ["discover", "--subnet", "10.78.0.8/29", "--no-onvif", "--timeout", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("10.78.0.10"))
        #expect(result.stdout.contains("needs credentials"))
        #expect(result.stdout.contains("rtsp://10.78.0.11:8554/stream1"))
        #expect(!result.stdout.contains("10.78.0.12"))
        #expect(result.stdout.hasSuffix("2 devices found in 10.78.0.8/29\n"))
    }

    /// A camera whose first SYN goes unanswered (dropped here by nftables; on a real network a slow or busy
    /// camera, or a lost packet) is still found: the short first attempt times out and the one retry connects.
    /// The control run, where the first attempt already has the full timeout and so is not retried, misses it:
    /// the retry is what finds it.
    @Test(.enabled(if: NetworkLab.hasNFTables, "needs nftables (nft)"))
    func aCameraThatMissesItsFirstSYNIsFoundByTheRetry() throws {
        let lab = try NetworkLab()
        defer { lab.tearDown() }
        try lab.addHost(10)
        try lab.startCamera(host: 10, port: 554, paths: ["/stream1"])
        try lab.dropFirstSYN(host: 10, port: 554)
        let arguments = ["discover", "--subnet", "10.78.0.10/32", "--ports", "554", "--no-onvif", "--json", "--timeout", "2"]

        // Control: a first attempt with the full 250 ms is not retried, and the dropped SYN hides the camera.
        let missed = try lab.runInScanner(watchboxExecutable, arguments + ["--connect-timeout", "250"])
        #expect(missed.status == 0, "\(missed.stderr)")
        #expect(try devices(missed).isEmpty, "\(missed.stdout)")

        // The defaults: 250 ms, then one retry with 500 ms. The set of senders is emptied first, so the first
        // SYN is dropped again.
        try lab.forgetSYNs(host: 10)
        let found = try lab.runInScanner(watchboxExecutable, arguments)
        #expect(found.status == 0, "\(found.stderr)")
        let devices = try devices(found)
        #expect(devices.map { $0["ip"] as? String } == ["10.78.0.10"], "\(found.stdout)")
        #expect(devices.first?["rtspURLs"] as? [String] == ["rtsp://10.78.0.10:554/stream1"])
    }
}
