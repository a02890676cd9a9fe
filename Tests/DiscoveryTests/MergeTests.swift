import Discovery
import Testing

@Suite("Merging ONVIF findings with the RTSP scan")
struct MergeTests {
    let onvifCamera = ONVIFFinding(
        ip: "10.78.0.10", deviceServiceURL: "http://10.78.0.10/onvif/device_service", name: "Front door",
        hardware: "DS-2CD2032-I", manufacturer: "HIKVISION", model: "DS-2CD2032-I", firmwareVersion: "V5.4.5",
        authentication: "ws-security",
        profiles: [DiscoveredProfile(token: "Profile_1", name: "mainStream", encoding: "H264", width: 1920, height: 1080, fps: 25,
                                     streamURI: "rtsp://10.78.0.10:554/Streaming/Channels/101?transportmode=unicast"),
                   DiscoveredProfile(token: "Profile_2", name: "subStream", encoding: "H264", width: 640, height: 360, fps: 25,
                                     streamURI: "rtsp://admin:pw@10.78.0.10/Streaming/Channels/102?transportmode=unicast")])

    let scanned = [
        RTSPHost(address: IPv4Address("10.78.0.10")!, endpoints: [
            RTSPEndpoint(port: 554, server: "Hikvision-Webs", workingURLs: ["rtsp://10.78.0.10:554/Streaming/Channels/101?transportmode=unicast",
                                                                              "rtsp://10.78.0.10:554/Streaming/Channels/101"],
                         roles: ["rtsp://10.78.0.10:554/Streaming/Channels/101": "main"]),
        ]),
        RTSPHost(address: IPv4Address("10.78.0.9")!, endpoints: [
            RTSPEndpoint(port: 8554, server: "GStreamer RTSP server", workingURLs: ["rtsp://10.78.0.9:8554/stream1", "rtsp://10.78.0.9:8554/stream2"],
                         roles: ["rtsp://10.78.0.9:8554/stream1": "main", "rtsp://10.78.0.9:8554/stream2": "sub"]),
            RTSPEndpoint(port: 554, requiresAuthentication: true, note: "needs a user name and password"),
        ]),
    ]

    @Test func oneEntryPerIPCombiningBoth() {
        let devices = DiscoveryMerge.merge(onvif: [onvifCamera], rtsp: scanned, registered: [])
        #expect(devices.map(\.ip) == ["10.78.0.9", "10.78.0.10"], "sorted by address, not as text")
        let hik = devices[1]
        #expect(hik.onvif)
        #expect(hik.manufacturer == "HIKVISION")
        #expect(hik.model == "DS-2CD2032-I")
        #expect(hik.vendor == "Hikvision")
        #expect(hik.ports == [554])
        #expect(hik.server == "Hikvision-Webs")
        #expect(hik.profiles.count == 2)
        // ONVIF's URIs first, credentials stripped, the scan's duplicates (same host, port, path) dropped.
        #expect(hik.rtspURLs == ["rtsp://10.78.0.10:554/Streaming/Channels/101?transportmode=unicast",
                                 "rtsp://10.78.0.10/Streaming/Channels/102?transportmode=unicast",
                                 "rtsp://10.78.0.10:554/Streaming/Channels/101"])
        #expect(hik.mainURL == "rtsp://10.78.0.10:554/Streaming/Channels/101?transportmode=unicast")
        #expect(hik.subURL == "rtsp://10.78.0.10/Streaming/Channels/102?transportmode=unicast")

        let gst = devices[0]
        #expect(!gst.onvif)
        #expect(gst.ports == [554, 8554])
        #expect(gst.vendor == "GStreamer")
        #expect(gst.mainURL == "rtsp://10.78.0.9:8554/stream1")
        #expect(gst.subURL == "rtsp://10.78.0.9:8554/stream2")
        #expect(!gst.requiresAuthentication, "one port needs credentials but another gave working URLs")
    }

    @Test func alreadyRegisteredByHostAndPortOrURL() {
        let byHostPort = RegisteredCamera(id: "A", host: "10.78.0.9", port: 8554, urls: ["rtsp://10.78.0.9:8554/other"])
        let byURL = RegisteredCamera(id: "B", host: "cam.local", port: 554,
                                     urls: ["rtsp://10.78.0.10/Streaming/Channels/101?transportmode=unicast"])
        let elsewhere = RegisteredCamera(id: "C", host: "10.78.0.9", port: 9999, urls: ["rtsp://10.78.0.9:9999/x"])
        let devices = DiscoveryMerge.merge(onvif: [onvifCamera], rtsp: scanned, registered: [elsewhere, byHostPort, byURL])
        #expect(devices[0].alreadyRegistered && devices[0].registeredCameraID == "A")
        #expect(devices[1].alreadyRegistered && devices[1].registeredCameraID == "B", "554 is the default port of rtsp://host/")
        let none = DiscoveryMerge.merge(onvif: [onvifCamera], rtsp: scanned, registered: [elsewhere])
        #expect(none.allSatisfy { !$0.alreadyRegistered })
    }

    @Test func onvifAuthenticationFailureAndHardwareScope() {
        let refused = ONVIFFinding(ip: "10.78.0.20", deviceServiceURL: "http://10.78.0.20/onvif/device_service",
                                   hardware: "IPC-HDW2431T", error: "authentication failed for http://10.78.0.20/onvif/device_service: check the username and password",
                                   authenticationFailed: true)
        let devices = DiscoveryMerge.merge(onvif: [refused], rtsp: [], registered: [])
        #expect(devices.count == 1)
        #expect(devices[0].onvif && devices[0].authenticationFailed && devices[0].requiresAuthentication)
        #expect(devices[0].model == "IPC-HDW2431T")
        #expect(devices[0].rtspURLs.isEmpty && devices[0].mainURL == nil)
        #expect(devices[0].onvifError?.contains("check the username and password") == true)
    }
}
