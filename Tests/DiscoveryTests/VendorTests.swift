import Discovery
import Testing

@Suite("Vendor paths and guesses")
struct VendorTests {
    @Test func wellKnownPathsIncludeTheDocumentedOnes() {
        let paths = VendorPath.wellKnown.map(\.path)
        for path in ["/Streaming/Channels/101", "/Streaming/Channels/102", "/cam/realmonitor?channel=1&subtype=0",
                     "/cam/realmonitor?channel=1&subtype=1", "/axis-media/media.amp", "/h264Preview_01_main",
                     "/media/video1", "/stream1", "/stream2", "/videoMain", "/live", "/stream", "/h264", "/ch0"] {
            #expect(paths.contains(path), "\(path)")
        }
        #expect(Set(paths).count == paths.count, "no path listed twice")
        #expect(VendorPath.wellKnown.allSatisfy { $0.path.hasPrefix("/") && ($0.role == "main" || $0.role == "sub") })
    }

    @Test func guessedVendorsPathsComeFirst() {
        let ordered = VendorPath.ordered(for: "Dahua")
        #expect(ordered.prefix(2).map(\.path) == ["/cam/realmonitor?channel=1&subtype=0", "/cam/realmonitor?channel=1&subtype=1"])
        #expect(ordered.count == VendorPath.wellKnown.count)
        #expect(VendorPath.ordered(for: nil).first?.vendor == nil)
    }

    @Test func vendorFromServerHeaderOrManufacturer() {
        #expect(VendorGuess.vendor(in: "Hikvision-Webs") == "Hikvision")
        #expect(VendorGuess.vendor(in: "Rtsp Server/3.0") == nil)
        #expect(VendorGuess.vendor(in: "GStreamer RTSP server") == "GStreamer")
        #expect(VendorGuess.vendor(in: "AXIS P1448-LE") == "Axis")
        #expect(VendorGuess.vendor(in: "UNV-IPC") == "Uniview")
        #expect(VendorGuess.vendor(in: "Universal Media Server") == nil, "'unv' must not match inside a word")
        #expect(VendorGuess.vendor(in: "TP-LINK") == "TP-Link")
        #expect(VendorGuess.vendor(in: nil) == nil)
    }

    @Test func guessPrefersONVIFThenServerThenPath() {
        #expect(VendorGuess.guess(manufacturer: "HIKVISION", serverHeaders: ["GStreamer RTSP server"], workingPaths: []) == "Hikvision")
        #expect(VendorGuess.guess(manufacturer: "Acme Cams", serverHeaders: ["Hikvision-Webs"], workingPaths: []) == "Acme Cams")
        #expect(VendorGuess.guess(manufacturer: nil, serverHeaders: ["Dahua Rtsp Server"], workingPaths: ["/stream1"]) == "Dahua")
        #expect(VendorGuess.guess(manufacturer: nil, serverHeaders: [], workingPaths: ["/live", "/h264Preview_01_main"]) == "Reolink")
        #expect(VendorGuess.guess(manufacturer: nil, serverHeaders: [], workingPaths: ["/live"]) == nil)
    }
}
