import Foundation
import Testing
import TestSupport

/// ONVIF and the RTSP scan together, on a namespace test network (issue #5: "merged results, one entry per
/// device"). Real peers only: `wsdiscovery` (PyPI) answers the WS-Discovery Probe from inside the host
/// namespaces (multicast never leaves the test network), `onvif_device.py` answers the device queries with
/// Hikvision's and Dahua's fixtures (checking WS-Security, and HTTP Digest, for real), and GStreamer's RTSP
/// server serves the streams the ONVIF profiles point at and the paths the scan looks for.
///
/// 10.78.0.10  "Hikvision": ONVIF (WS-Security) on :8080, RTSP on 554 with both Hikvision's documented paths
///             and the ONVIF profiles' /Profile_1, /Profile_2 (Digest auth).
/// 10.78.0.11  a plain RTSP camera on 8554 (/stream1), no ONVIF.
/// 10.78.0.12  "Dahua": ONVIF that accepts only HTTP Digest on :80, RTSP on 554 serving only its ONVIF
///             profiles' paths (/Profile000, /Profile001), none of the scan's vendor paths.
@Suite("ONVIF and the RTSP scan merged, on a namespace network", .serialized,
       .enabled(if: NetworkLab.isAvailable && PeerRTSPServer.isAvailable && NetworkLab.hasWSDiscovery,
                "needs root, iproute2, the GStreamer peer and wsdiscovery (PyPI)"))
struct NamespaceONVIFAndScanTests {
    static let user = "admin", password = "s3cret"

    static func fixtures(_ vendor: String) -> String {
        PeerRTSPServer.repositoryRoot.appendingPathComponent("Tests/ONVIFTests/Fixtures/\(vendor)").path
    }

    func makeLab() throws -> NetworkLab {
        let lab = try NetworkLab()
        for host in [10, 11, 12] { try lab.addHost(host) }
        try lab.enableMulticast()
        let auth = (user: Self.user, password: Self.password)
        try lab.startCamera(host: 10, port: 554, paths: ["/Streaming/Channels/101", "/Streaming/Channels/102",
                                                         "/Profile_1", "/Profile_2"], auth: auth)
        try lab.startCamera(host: 11, port: 8554, paths: ["/stream1"])
        try lab.startCamera(host: 12, port: 554, paths: ["/Profile000", "/Profile001"], auth: auth)
        try lab.startONVIFDevice(host: 10, port: 8080, fixtures: Self.fixtures("hikvision"), mode: "wssecurity",
                                 user: Self.user, password: Self.password)
        try lab.startONVIFDevice(host: 12, port: 80, fixtures: Self.fixtures("dahua"), mode: "digest",
                                 user: Self.user, password: Self.password, extra: ["--no-get-services"])
        try lab.publishWSDiscovery(host: 10, endpoint: "urn:uuid:7e1f0a10-0000-4000-8000-00000000000a",
                                   name: "Gate", xAddr: "http://10.78.0.10:8080/onvif/device_service")
        try lab.publishWSDiscovery(host: 12, endpoint: "urn:uuid:7e1f0a12-0000-4000-8000-00000000000c",
                                   name: "Yard", xAddr: "http://10.78.0.12/onvif/device_service")
        return lab
    }

    func devices(_ result: CommandResult) throws -> [[String: Any]] {
        guard let array = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] else {
            throw PeerError(message: "not a JSON array: \(result.stdout) \(result.stderr)")
        }
        return array
    }

    @Test func oneEntryPerDeviceWithONVIFIdentityProfilesAndScanEndpoints() throws {
        let lab = try makeLab()
        defer { lab.tearDown() }
        let result = try lab.runInScanner(watchboxExecutable, [
            "discover", "--subnet", NetworkLab.subnet, "--json", "--timeout", "3",
            "--username", Self.user, "--password", Self.password])
        #expect(result.status == 0, "\(result.stderr)")
        let found = try devices(result)
        #expect(found.map { $0["ip"] as? String } == ["10.78.0.10", "10.78.0.11", "10.78.0.12"], "\(result.stdout)")
        guard found.count == 3 else { return }

        // The Hikvision: ONVIF's identity and profiles, the scan's port, Server header and working paths.
        let hik = found[0]
        #expect(hik["onvif"] as? Bool == true)
        #expect(hik["onvifError"] == nil || hik["onvifError"] is NSNull, "\(hik["onvifError"] ?? "")")
        #expect(hik["manufacturer"] as? String == "HIKVISION")
        #expect(hik["model"] as? String == "DS-2CD3T45P1-I")
        #expect(hik["name"] as? String == "Gate", "the WS-Discovery name scope")
        #expect(hik["deviceServiceURL"] as? String == "http://10.78.0.10:8080/onvif/device_service")
        #expect(hik["vendor"] as? String == "Hikvision", "ONVIF's manufacturer beats the GStreamer Server header")
        #expect(hik["ports"] as? [Int] == [554])
        #expect((hik["server"] as? String)?.contains("GStreamer") == true)
        let hikProfiles = hik["profiles"] as? [[String: Any]] ?? []
        #expect(hikProfiles.map { $0["token"] as? String } == ["Profile_1", "Profile_2"])
        #expect(hikProfiles.map { $0["streamURI"] as? String } == ["rtsp://10.78.0.10:554/Profile_1",
                                                                  "rtsp://10.78.0.10:554/Profile_2"])
        #expect(hikProfiles.first?["width"] as? Int == 1920 && hikProfiles.last?["width"] as? Int == 640)
        // ONVIF's URIs first (main, sub), then what the scan's DESCRIBEs found, each once.
        #expect(hik["rtspURLs"] as? [String] == ["rtsp://10.78.0.10:554/Profile_1", "rtsp://10.78.0.10:554/Profile_2",
                                                  "rtsp://10.78.0.10:554/Streaming/Channels/101",
                                                  "rtsp://10.78.0.10:554/Streaming/Channels/102"])

        // The camera without ONVIF: the scan alone.
        let plain = found[1]
        #expect(plain["onvif"] as? Bool == false)
        #expect(plain["rtspURLs"] as? [String] == ["rtsp://10.78.0.11:8554/stream1"])
        #expect(plain["ports"] as? [Int] == [8554])

        // The Dahua: only HTTP Digest for ONVIF; its streams known only from ONVIF (no vendor path works there),
        // its port from the scan.
        let dahua = found[2]
        #expect(dahua["onvif"] as? Bool == true)
        #expect(dahua["onvifAuthentication"] as? String == "http-digest", "\(dahua)")
        #expect(dahua["model"] as? String == "IPC-HDW1025C")
        #expect(dahua["vendor"] as? String == "Dahua")
        #expect(dahua["ports"] as? [Int] == [554])
        #expect(dahua["rtspURLs"] as? [String] == ["rtsp://10.78.0.12:554/Profile000", "rtsp://10.78.0.12:554/Profile001"])
        let endpoints = dahua["endpoints"] as? [[String: Any]] ?? []
        #expect((endpoints.first?["workingURLs"] as? [String]) == [], "the scan found no vendor path there")

        #expect(!result.stdout.contains(Self.password) && !result.stderr.contains(Self.password))

        // The ONVIF stream URIs work where the device is: our own client plays the Hikvision's main and the
        // Dahua's sub profile from the scanner's namespace.
        for url in ["rtsp://10.78.0.10:554/Profile_1", "rtsp://10.78.0.12:554/Profile001"] {
            let probe = try lab.runInScanner(watchboxExecutable, ["probe", url, "--duration", "1", "--json",
                                                                  "--username", Self.user, "--password", Self.password])
            #expect(probe.status == 0, "\(url): \(probe.stdout) \(probe.stderr)")
            #expect(probe.stdout.contains("\"width\" : 320") || probe.stdout.contains("\"width\":320"), "\(url): \(probe.stdout)")
        }
    }

    /// A /29 that leaves out the scanner's own address: no interface of it is on the subnet, so no multicast
    /// Probe goes out, and the ONVIF devices are reached only because they are named (`--onvif-device`: the
    /// unicast device query for cameras multicast does not reach). The wrong password is then reported by both
    /// halves on the same entry, and no URL is invented.
    @Test func namedDevicesWithAWrongPasswordAreReportedOnTheSameEntry() throws {
        let lab = try makeLab()
        defer { lab.tearDown() }
        let result = try lab.runInScanner(watchboxExecutable, [
            "discover", "--subnet", "10.78.0.8/29", "--onvif-device", "10.78.0.10:8080",
            "--onvif-device", "http://10.78.0.12/onvif/device_service", "--json", "--timeout", "3",
            "--username", Self.user, "--password", "wrong"])
        #expect(result.status == 0, "\(result.stderr)")
        let found = try devices(result)
        #expect(found.map { $0["ip"] as? String } == ["10.78.0.10", "10.78.0.11", "10.78.0.12"], "\(result.stdout)")
        guard found.count == 3 else { return }
        let hik = found[0]
        #expect(hik["onvif"] as? Bool == true)
        #expect(hik["authenticationFailed"] as? Bool == true)
        #expect((hik["onvifError"] as? String)?.contains("authentication failed for http://10.78.0.10:8080/onvif/device_service") == true,
                "\(hik["onvifError"] ?? "")")
        #expect(hik["rtspURLs"] as? [String] == [], "no URL is invented")
        #expect(hik["ports"] as? [Int] == [554])
        #expect(found[1]["rtspURLs"] as? [String] == ["rtsp://10.78.0.11:8554/stream1"])
        #expect(found[1]["onvif"] as? Bool == false)
        #expect(found[2]["onvif"] as? Bool == true)
        #expect(found[2]["authenticationFailed"] as? Bool == true)
        #expect(found[2]["name"] == nil || found[2]["name"] is NSNull, "no WS-Discovery here: no name scope")
    }

    @Test func aNamedDeviceOutsideTheSubnetsIsRefusedBeforeAnythingIsSent() throws {
        let result = try runCommand(watchboxExecutable, ["discover", "--subnet", "10.78.0.8/29", "--onvif-device", "10.78.0.20"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("ONVIF device http://10.78.0.20/onvif/device_service is outside the subnets to search"), "\(result.stderr)")
    }
}
