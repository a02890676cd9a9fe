import RTSPCore
import Testing

@Suite("RTSPURL (RFC 2326 §3.2, RFC 3986)")
struct RTSPURLTests {
    @Test func parsesAllParts() throws {
        let url = try RTSPURL(string: "rtsp://admin:pa%40ss%3Aword@10.0.0.5:8554/Streaming/Channels/101?transportmode=unicast&profile=Profile_1")
        #expect(url.scheme == .rtsp)
        #expect(url.host == "10.0.0.5")
        #expect(url.port == 8554)
        #expect(url.explicitPort)
        #expect(url.path == "/Streaming/Channels/101?transportmode=unicast&profile=Profile_1")
        #expect(url.username == "admin")
        #expect(url.password == "pa@ss:word")
        #expect(url.credentials == RTSPCredentials(username: "admin", password: "pa@ss:word"))
        #expect(url.requestURI == "rtsp://10.0.0.5:8554/Streaming/Channels/101?transportmode=unicast&profile=Profile_1")
    }

    @Test func defaultPortsAndPaths() throws {
        let rtsp = try RTSPURL(string: "rtsp://cam.local")
        #expect(rtsp.port == 554)
        #expect(!rtsp.explicitPort)
        #expect(rtsp.path == "/")
        #expect(rtsp.requestURI == "rtsp://cam.local/")
        #expect(rtsp.credentials == nil)
        let rtsps = try RTSPURL(string: "RTSPS://cam.local?x=1")
        #expect(rtsps.scheme == .rtsps)
        #expect(rtsps.port == 322)
        #expect(rtsps.path == "/?x=1")
        let explicitDefault = try RTSPURL(string: "rtsp://cam:554/a")
        #expect(explicitDefault.requestURI == "rtsp://cam:554/a")
        let emptyPort = try RTSPURL(string: "rtsp://cam:/a")
        #expect(emptyPort.port == 554)
        #expect(!emptyPort.explicitPort)
    }

    @Test func ipv6Hosts() throws {
        let url = try RTSPURL(string: "rtsp://u:p@[fe80::1%25eth0]:8554/live")
        #expect(url.host == "fe80::1%25eth0")
        #expect(url.port == 8554)
        #expect(url.requestURI == "rtsp://[fe80::1%25eth0]:8554/live")
        let loopback = try RTSPURL(string: "rtsp://[::1]/x")
        #expect(loopback.host == "::1")
        #expect(loopback.port == 554)
        #expect(loopback.redacted == "rtsp://[::1]/x")
    }

    @Test func unencodedAtSignInPassword() throws {
        let url = try RTSPURL(string: "rtsp://admin:P@ss@w0rd@192.168.1.64:554/Streaming/Channels/101")
        #expect(url.username == "admin")
        #expect(url.password == "P@ss@w0rd")
        #expect(url.host == "192.168.1.64")
    }

    @Test func userWithoutPasswordAndBrokenPercentEscape() throws {
        let user = try RTSPURL(string: "rtsp://viewer@cam/stream")
        #expect(user.credentials == RTSPCredentials(username: "viewer", password: ""))
        let broken = try RTSPURL(string: "rtsp://admin:100%@cam/stream")
        #expect(broken.password == "100%")
    }

    @Test func descriptionAndRedactedNeverContainTheUserinfo() throws {
        let url = try RTSPURL(string: "rtsp://admin:hunter2@10.0.0.5/stream1")
        #expect(url.description == "rtsp://10.0.0.5/stream1")
        #expect(url.redacted == "rtsp://10.0.0.5/stream1")
        #expect(!"\(url)".contains("hunter2"))
        #expect(!"\(url)".contains("admin"))
    }

    @Test func errorsSayWhatIsWrongWithoutThePassword() {
        func message(_ text: String) -> String {
            do {
                _ = try RTSPURL(string: text)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(message("rtsp//cam") == "malformed RTSP URL \"rtsp//cam\": expected rtsp://host[:port]/path")
        #expect(message("http://admin:hunter2@cam/x").contains("supported schemes are rtsp:// and rtsps://"))
        #expect(message("rtsp:///stream").contains("has no host"))
        #expect(message("rtsp://cam:99999/x").contains("bad port \"99999\""))
        #expect(message("rtsp://cam:abc/x").contains("bad port"))
        #expect(message("rtsp://cam/my stream").contains("whitespace"))
        #expect(message("").contains("empty"))
        #expect(message("rtsp://[::1/x").contains("']'"))
        for bad in ["http://admin:hunter2@cam/x", "rtsp://admin:hunter2@cam:abc/x", "rtsp://admin:hun/ter2@cam/x", "rtsp//admin:hunter2@cam", "rtsp://admin:hunter2@cam/a b"] {
            let text = message(bad)
            #expect(text != "no error", "\(bad)")
            #expect(!text.contains("hunter2") && !text.contains("hun/ter2"), "\(text)")
        }
        #expect(throws: RTSPURLError.self) { try RTSPURL(string: "rtmp://cam/live") }
    }

    @Test func resolvingControlAttributes() throws {
        let base = try RTSPURL(string: "rtsp://admin:pw@10.0.0.5:554/Streaming/Channels/101")
        #expect(base.resolving("*") == base)
        #expect(base.resolving("") == base)
        #expect(base.resolving("trackID=1").requestURI == "rtsp://10.0.0.5:554/Streaming/Channels/101/trackID=1")
        #expect(base.resolving("/other/track").requestURI == "rtsp://10.0.0.5:554/other/track")
        #expect(base.resolving("trackID=1").credentials == base.credentials)

        let slash = try RTSPURL(string: "rtsp://cam/h264_stream/")
        #expect(slash.resolving("trackID=1").requestURI == "rtsp://cam/h264_stream/trackID=1")

        // Dahua: Content-Base carries the query and a trailing '/', the track is appended after it.
        let dahua = try RTSPURL(string: "rtsp://cam/cam/realmonitor?channel=1&subtype=0&unicast=true&proto=Onvif/")
        #expect(dahua.resolving("trackID=0").requestURI == "rtsp://cam/cam/realmonitor?channel=1&subtype=0&unicast=true&proto=Onvif/trackID=0")
    }

    @Test func resolvingAbsoluteReferencesKeepsCredentials() throws {
        let base = try RTSPURL(string: "rtsp://admin:pw@192.168.1.58/h264_stream")
        let absolute = base.resolving("rtsp://192.168.1.58:554/h264_stream/trackID=1")
        #expect(absolute.requestURI == "rtsp://192.168.1.58:554/h264_stream/trackID=1")
        #expect(absolute.credentials == RTSPCredentials(username: "admin", password: "pw"))
        let own = base.resolving("RTSP://viewer:other@192.168.1.58/x")
        #expect(own.credentials == RTSPCredentials(username: "viewer", password: "other"))
        #expect(base.resolving("rtsp://bad:port:x/") == base)
    }

    @Test func withCredentialsReplacesOrRemoves() throws {
        let url = try RTSPURL(string: "rtsp://cam/x")
        let with = url.withCredentials(RTSPCredentials(username: "u", password: "p"))
        #expect(with.username == "u" && with.password == "p")
        #expect(with.requestURI == url.requestURI)
        #expect(with.withCredentials(nil) == url)
        #expect(Set([url, with, url]).count == 2)
    }
}
