import Foundation
import Testing
import TestSupport

@Suite("watchbox record: fragmented MP4 files judged by ffprobe", .serialized,
       .enabled(if: PeerRTSPServer.isAvailable && FFProbeResult.isAvailable, "needs GStreamer's RTSP server and ffmpeg"))
struct RecordCommandTests {
    func record(_ server: PeerRTSPServer, seconds: Double, file: String, extra: [String] = []) throws -> CommandResult {
        try runCommand(watchboxExecutable, ["record", server.url(), "--duration", String(seconds), "--output", file] + extra,
                       timeout: seconds + 60)
    }

    @Test(arguments: ["h264", "h265"])
    func tenSecondsOfVideo(codec: String) throws {
        let server = try PeerRTSPServer(["--codec", codec, "--width", "640", "--height", "360", "--key-int", "25"])
        defer { server.stop() }
        let file = try temporaryDirectory().appendingPathComponent("\(codec).mp4").path
        let result = try record(server, seconds: 10, file: file)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("frames"))
        let probe = try FFProbeResult(file: file)
        let video = try #require(probe.video)
        #expect(video.codec == (codec == "h264" ? "h264" : "hevc"))
        #expect(video.width == 640 && video.height == 360)
        let frames = try #require(video.frames)
        #expect(abs(frames - 250) <= 2, "\(frames) frames in 10 s at 25 fps")
        #expect(try FFProbeResult.decodeErrors(file) == "")
    }

    @Test func videoWithAACAudioInSync() throws {
        let server = try PeerRTSPServer(["--width", "640", "--height", "360", "--key-int", "25", "--audio", "aac"])
        defer { server.stop() }
        let file = try temporaryDirectory().appendingPathComponent("av.mp4").path
        let result = try record(server, seconds: 10, file: file)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("AAC"))
        let probe = try FFProbeResult(file: file)
        let video = try #require(probe.video)
        let audio = try #require(probe.audio, "the AAC track is in the file")
        #expect(audio.codec == "aac")
        #expect(abs((video.frames ?? 0) - 250) <= 2)
        // Both tracks cover the same span, starting together (within 100 ms).
        let videoEnd = (video.startTime ?? 0) + (video.duration ?? 0)
        let audioEnd = (audio.startTime ?? 0) + (audio.duration ?? 0)
        #expect(abs((audio.startTime ?? 0) - (video.startTime ?? 0)) < 0.1, "start: audio \(audio.startTime ?? -1), video \(video.startTime ?? -1)")
        #expect(abs(audioEnd - videoEnd) < 0.25, "end: audio \(audioEnd), video \(videoEnd)")
        #expect(try FFProbeResult.decodeErrors(file) == "")
    }

    @Test func g711AudioIsNamedAndLeftOutWithoutBreakingVideo() throws {
        let server = try PeerRTSPServer(["--width", "320", "--height", "240", "--key-int", "25", "--audio", "pcmu"])
        defer { server.stop() }
        let file = try temporaryDirectory().appendingPathComponent("g711.mp4").path
        let result = try record(server, seconds: 4, file: file)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("G.711"), "\(result.stdout)")
        #expect(result.stdout.contains("not recorded yet"))
        let probe = try FFProbeResult(file: file)
        #expect(probe.audio == nil)
        #expect(abs((probe.video?.frames ?? 0) - 100) <= 2)
        let probed = try runCommand(watchboxExecutable, ["probe", server.url(), "--duration", "2"])
        #expect(probed.status == 0)
        #expect(probed.stdout.contains("G.711"), "\(probed.stdout)")
    }

    @Test(.enabled(if: chromiumAvailable, "needs chromium, chromium-driver and python3-selenium"))
    func theFilePlaysInChromiumThroughMediaSourceExtensions() throws {
        let server = try PeerRTSPServer(["--width", "640", "--height", "360", "--key-int", "25", "--audio", "aac"])
        defer { server.stop() }
        let file = try temporaryDirectory().appendingPathComponent("mse.mp4").path
        let result = try record(server, seconds: 6, file: file, extra: ["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let mimeType = try #require(summary?["mimeType"] as? String)
        #expect(mimeType.contains("avc1.") && mimeType.contains("mp4a.40.2"), "\(mimeType)")
        let script = PeerRTSPServer.repositoryRoot.appendingPathComponent("Tests/Browser/record_mse_test.py").path
        let played = try runCommand(PeerRTSPServer.python, [script, file, "640", "360", mimeType], timeout: 90)
        #expect(played.status == 0, "\(played.stdout)\n\(played.stderr)")
    }

    @Test func ctrlCFinishesTheLastFragmentAndKeepsEverything() throws {
        let server = try PeerRTSPServer(["--width", "640", "--height", "360", "--key-int", "25"])
        defer { server.stop() }
        let file = try temporaryDirectory().appendingPathComponent("interrupted.mp4").path
        let (process, out, err) = try startWatchbox(["record", server.url(), "--duration", "60", "--output", file])
        Thread.sleep(forTimeInterval: 5)
        #expect(process.isRunning)
        kill(process.processIdentifier, SIGINT)
        let deadline = Date().addingTimeInterval(15)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(stdout.contains("wrote:"))
        let probe = try FFProbeResult(file: file)
        let frames = try #require(probe.video?.frames)
        // About 5 s of a 25 fps stream, every frame up to the interruption.
        #expect(frames >= 90 && frames <= 135, "\(frames) frames")
        #expect(try FFProbeResult.decodeErrors(file) == "")
    }

    @Test func aFullDiskStopsTheRecordingAndLeavesAValidFile() throws {
        let mountPoint = try temporaryDirectory()
        let mount = try runCommand("/bin/mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", mountPoint.path])
        try #require(mount.status == 0 || ProcessInfo.processInfo.environment["CI"] != "true",
                     "CI runs as root and can mount a small tmpfs: \(mount.stderr)")
        guard mount.status == 0 else { return }  // not root: nothing to fill
        defer { _ = try? runCommand("/bin/umount", [mountPoint.path]) }
        let server = try PeerRTSPServer(["--width", "640", "--height", "360", "--key-int", "25", "--bitrate", "2000"])
        defer { server.stop() }
        let file = mountPoint.appendingPathComponent("full.mp4").path
        let result = try record(server, seconds: 12, file: file, extra: ["--fragment-seconds", "1"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("is full"), "\(result.stderr)")
        #expect(result.stderr.contains("kept"))
        let probe = try FFProbeResult(file: file)
        #expect((probe.video?.frames ?? 0) >= 25, "at least one whole fragment was kept")
        #expect(try FFProbeResult.decodeErrors(file) == "")
    }

    @Test func wrongPasswordAndUnwritablePathAreClearErrors() throws {
        let server = try PeerRTSPServer(["--width", "320", "--height", "240", "--auth", "digest", "--user", "admin", "--password", "right"])
        defer { server.stop() }
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("never.mp4").path
        let denied = try runCommand(watchboxExecutable, ["record", server.url(user: "admin", password: "wrong"),
                                                         "--duration", "3", "--output", file])
        #expect(denied.status == 1)
        #expect(denied.stderr.contains("authentication failed"))
        #expect(!denied.stderr.contains("wrong"), "the password is never printed")
        #expect(!FileManager.default.fileExists(atPath: file), "no empty file is left behind")

        let nowhere = try runCommand(watchboxExecutable, ["record", server.url(), "--duration", "3",
                                                          "--output", "/nonexistent-dir/x.mp4"])
        #expect(nowhere.status == 1)
        #expect(nowhere.stderr.contains("create the folder first"), "\(nowhere.stderr)")
    }
}

/// Debian's chromium with its driver, and selenium for the python that runs the browser tests.
var chromiumAvailable: Bool {
    if ProcessInfo.processInfo.environment["CI"] == "true" { return true }
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"),
          FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"),
          let check = try? runCommand(PeerRTSPServer.python, ["-c", "import selenium"]) else { return false }
    return check.status == 0
}
