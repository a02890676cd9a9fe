import Foundation
import NIOCore
import NIOPosix
import Testing
import TestSupport

@Suite(.serialized) struct ProbeErrorTests {
    @Test func malformedURLExitsTwoWithOneLine() throws {
        let result = try runCommand(watchboxExecutable, ["probe", "rtsp//camera/stream"])
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("rtsp://"))
    }

    @Test func wrongSchemeNamesTheSupportedOnes() throws {
        let result = try runCommand(watchboxExecutable, ["probe", "http://127.0.0.1/stream"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("rtsp"))
    }

    @Test func connectionRefused() throws {
        let port = freeLoopbackPort()
        let result = try runCommand(watchboxExecutable, ["probe", "rtsp://user:hunter2@127.0.0.1:\(port)/stream"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("watchbox: connection refused by 127.0.0.1:\(port)"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!result.stderr.contains("hunter2"))
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        // A TCP listener that accepts and then says nothing.
        let group = MultiThreadedEventLoopGroup.singleton
        let listener = try await ServerBootstrap(group: group)
            .childChannelInitializer { $0.eventLoop.makeSucceededVoidFuture() }
            .bind(host: "127.0.0.1", port: 0).get()
        defer { listener.close(promise: nil) }
        let port = listener.localAddress!.port!
        let started = Date()
        let result = try runCommand(watchboxExecutable, ["probe", "--timeout", "1", "rtsp://127.0.0.1:\(port)/stream"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("did not answer OPTIONS within 1 s"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test func unresolvableNameInAnIsolatedNetworkNamespace() throws {
        // `unshare --net` gives the probe a namespace with no network at all, so the lookup
        // fails without sending anything anywhere (the network rule).
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"), getuid() == 0 else { return }
        let result = try runCommand("/usr/bin/unshare", ["--net", watchboxExecutable, "probe", "--timeout", "2", "rtsp://camera.invalid/stream"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot resolve the camera's host name \"camera.invalid\""), "\(result.stderr)")
    }
}

@Suite(.serialized, .enabled(if: PeerRTSPServer.isAvailable, "GStreamer's RTSP server is not installed; scripts/test installs it"))
struct ProbeTests {
    @Test func jsonReportAgreesWithFFprobe() throws {
        let server = try PeerRTSPServer(["--codec", "h264"])
        defer { server.stop() }
        let result = try runCommand(watchboxExecutable, ["probe", "--json", "--duration", "4", server.url(user: "viewer", password: "pw-not-needed")])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let video = try #require(json["video"] as? [String: Any])
        #expect(video["codec"] as? String == "h264")
        #expect(video["width"] as? Int == 1280)
        #expect(video["height"] as? Int == 720)
        let fps = try #require(video["fps"] as? Double)
        #expect(abs(fps - 25) < 0.5)
        #expect(json["packetsLost"] as? Int == 0)
        #expect(json["keyframeIntervalFrames"] as? Int == 50)
        #expect((json["bitrateKbps"] as? Double ?? 0) > 10)
        #expect((json["server"] as? String)?.contains("GStreamer") == true)
        #expect(!result.stdout.contains("pw-not-needed"))
        let frames = try #require(json["frames"] as? Int)

        // ffprobe on the same stream, same duration.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe") else {
            #expect(ProcessInfo.processInfo.environment["CI"] != "true", "ffprobe is missing")
            return
        }
        let probe = try runCommand("/usr/bin/ffprobe", ["-v", "error", "-rtsp_transport", "tcp", "-select_streams", "v:0",
                                                        "-read_intervals", "%+4", "-count_frames",
                                                        "-show_entries", "stream=codec_name,width,height,r_frame_rate,nb_read_frames",
                                                        "-of", "json", server.url()])
        #expect(probe.status == 0, "\(probe.stderr)")
        let theirs = try #require(try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any])
        let stream = try #require((theirs["streams"] as? [[String: Any]])?.first)
        #expect(stream["codec_name"] as? String == "h264")
        #expect(stream["width"] as? Int == 1280)
        #expect(stream["height"] as? Int == 720)
        #expect(stream["r_frame_rate"] as? String == "25/1")
        let theirFrames = Int(stream["nb_read_frames"] as? String ?? "") ?? 0
        // Both played about 4 s; each may start up to one GOP (2 s) apart at the first keyframe.
        #expect(abs(theirFrames - frames) <= 50, "ffprobe counted \(theirFrames) frames, we counted \(frames)")
    }

    @Test func textReportOverUDP() throws {
        let server = try PeerRTSPServer(["--codec", "h265", "--protocols", "udp"])
        defer { server.stop() }
        let result = try runCommand(watchboxExecutable, ["probe", "--transport", "udp", "--duration", "3", server.url()])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("H265"))
        #expect(result.stdout.contains("1280x720"))
    }

    @Test func wrongPasswordIsOneClearLine() throws {
        let server = try PeerRTSPServer(["--auth", "digest", "--user", "admin", "--password", "right"])
        defer { server.stop() }
        let result = try runCommand(watchboxExecutable, ["probe", server.url(user: "admin", password: "wrong-secret")])
        #expect(result.status == 1)
        #expect(result.stderr == "watchbox: authentication failed for rtsp://127.0.0.1:\(server.port)/stream: check the username and password\n")
    }

    @Test func notFound() throws {
        let server = try PeerRTSPServer(["--codec", "h264"])
        defer { server.stop() }
        let result = try runCommand(watchboxExecutable, ["probe", server.url("/missing")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("stream not found"))
    }
}
