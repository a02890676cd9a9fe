import Foundation
import H26x
@testable import Hub
import NIOCore
import Testing

/// Keyframe fixtures (made with ffmpeg from testsrc2, SEI removed):
/// - snapshot_keyframe_1280x720.h264: `-frames:v 1 -c:v libx264 -profile:v high -crf 26`
/// - snapshot_keyframe_640x360.h265: `-frames:v 1 -c:v libx265 -crf 30`
private enum SnapshotFixture {
    static func bytes(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"),
                               "fixture \(name) is missing from Tests/HubTests/Fixtures")
        return Array(try Data(contentsOf: url))
    }

    static func buffer(_ bytes: [UInt8]) -> ByteBuffer {
        ByteBuffer(bytes: bytes)
    }

    /// The H.264 keyframe without its parameter sets (they come from the format), and the format.
    static func h264() throws -> (AccessUnit, VideoFormat) {
        let nals = AnnexB.split(try bytes("snapshot_keyframe_1280x720.h264"))
        let sps = try #require(nals.first { $0.first.map { $0 & 0x1F } == 7 })
        let pps = nals.filter { $0.first.map { $0 & 0x1F } == 8 }
        let slices = nals.filter { $0.first.map { $0 & 0x1F } == 5 }
        #expect(!slices.isEmpty)
        let format = try VideoFormat(h264SPS: sps, pps: pps)
        return (AccessUnit(codec: .h264, nalUnits: slices.map(buffer), isKeyframe: true, rtpTimestamp: 0), format)
    }

    /// The H.265 keyframe without its parameter sets, and the format.
    static func h265() throws -> (AccessUnit, VideoFormat) {
        let nals = AnnexB.split(try bytes("snapshot_keyframe_640x360.h265"))
        func type(_ nal: [UInt8]) -> UInt8 { nal.count >= 2 ? (nal[0] >> 1) & 0x3F : 0xFF }
        let vps = try #require(nals.first { type($0) == 32 })
        let sps = try #require(nals.first { type($0) == 33 })
        let pps = nals.filter { type($0) == 34 }
        let slices = nals.filter { (16...23).contains(type($0)) }
        #expect(!slices.isEmpty)
        let format = try VideoFormat(h265VPS: vps, sps: sps, pps: pps)
        return (AccessUnit(codec: .h265, nalUnits: slices.map(buffer), isKeyframe: true, rtpTimestamp: 0), format)
    }
}

/// What ffprobe says a JPEG is: "mjpeg,1280,720" (run on a thread of its own, off the test's executor).
private func probeJPEG(_ jpeg: Data) async throws -> String {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try probeJPEGBlocking(jpeg) }) }.start()
    }
}

private func probeJPEGBlocking(_ jpeg: Data) throws -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("watchbox-snapshot-\(UUID().uuidString).jpg")
    try jpeg.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ffprobePath!)
    process.arguments = ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height",
                         "-of", "csv=p=0", file.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

private let ffprobePath: String? = ["/usr/bin/ffprobe", "/usr/local/bin/ffprobe"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}
private let ffmpegInstalled = Snapshotter().isAvailable && ffprobePath != nil

private func isJPEG(_ data: Data) -> Bool {
    data.count > 100 && data.prefix(2).elementsEqual([0xFF, 0xD8]) && data.suffix(2).elementsEqual([0xFF, 0xD9])
}

extension HubMediaTests {
    @Suite("Snapshotter")
    struct SnapshotterTests {
        @Test("an H.264 keyframe becomes a JPEG of its size",
              .enabled(if: ffmpegInstalled, "ffmpeg/ffprobe are not installed: skipping (apt-get install ffmpeg)"))
        func h264Keyframe() async throws {
            let (unit, format) = try SnapshotFixture.h264()
            #expect(format.width == 1280 && format.height == 720)
            let jpeg = try await Snapshotter().jpeg(keyframe: unit, format: format)
            #expect(isJPEG(jpeg))
            #expect(try await probeJPEG(jpeg) == "mjpeg,1280,720")
        }

        @Test("maxWidth scales down keeping the aspect ratio, and never enlarges",
              .enabled(if: ffmpegInstalled, "ffmpeg/ffprobe are not installed: skipping (apt-get install ffmpeg)"))
        func maxWidth() async throws {
            let (unit, format) = try SnapshotFixture.h264()
            let small = try await Snapshotter().jpeg(keyframe: unit, format: format, maxWidth: 640)
            #expect(try await probeJPEG(small) == "mjpeg,640,360")
            let same = try await Snapshotter().jpeg(keyframe: unit, format: format, maxWidth: 4000)
            #expect(try await probeJPEG(same) == "mjpeg,1280,720")
        }

        @Test("an H.265 keyframe becomes a JPEG of its size",
              .enabled(if: ffmpegInstalled, "ffmpeg/ffprobe are not installed: skipping (apt-get install ffmpeg)"))
        func h265Keyframe() async throws {
            let (unit, format) = try SnapshotFixture.h265()
            #expect(format.codec == .h265 && format.width == 640 && format.height == 360)
            let jpeg = try await Snapshotter().jpeg(keyframe: unit, format: format)
            #expect(isJPEG(jpeg))
            #expect(try await probeJPEG(jpeg) == "mjpeg,640,360")
        }

        @Test("a keyframe far larger than a pipe buffer is written while the output is read",
              .enabled(if: ffmpegInstalled, "ffmpeg/ffprobe are not installed: skipping (apt-get install ffmpeg)"))
        func largeKeyframe() async throws {
            var (unit, format) = try SnapshotFixture.h264()
            // ITU-T H.264 §7.3.2.7 filler data (nal_unit_type 12): 0xFF bytes and the RBSP stop bit; decoders skip it.
            let filler = [UInt8(0x0C)] + [UInt8](repeating: 0xFF, count: 400_000) + [0x80]
            unit.nalUnits.insert(ByteBuffer(bytes: filler), at: 0)
            #expect(unit.byteCount > 6 * 65_536)
            let jpeg = try await Snapshotter().jpeg(keyframe: unit, format: format)
            #expect(try await probeJPEG(jpeg) == "mjpeg,1280,720")
        }

        @Test("snapshots run side by side",
              .enabled(if: ffmpegInstalled, "ffmpeg/ffprobe are not installed: skipping (apt-get install ffmpeg)"))
        func concurrent() async throws {
            let (unit, format) = try SnapshotFixture.h264()
            let sizes = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        let jpeg = try await Snapshotter(timeout: .seconds(30)).jpeg(keyframe: unit, format: format, maxWidth: 320)
                        return isJPEG(jpeg) ? jpeg.count : -1
                    }
                }
                var sizes: [Int] = []
                for try await size in group { sizes.append(size) }
                return sizes
            }
            #expect(sizes.count == 4)
            #expect(sizes.allSatisfy { $0 > 0 })
            #expect(Set(sizes).count == 1, "the same keyframe gives the same JPEG: \(sizes)")
        }

        @Test("the demo clip's first keyframe makes a snapshot",
              .enabled(if: ffmpegInstalled, "ffmpeg/ffprobe are not installed: skipping (apt-get install ffmpeg)"))
        func demoClipKeyframe() async throws {
            let clip = try DemoUpstream.loadClip(DemoUpstream.bundledClip)
            let jpeg = try await Snapshotter().jpeg(keyframe: clip.units[0], format: clip.format, maxWidth: 480)
            #expect(try await probeJPEG(jpeg) == "mjpeg,480,270")
        }

        @Test("a missing ffmpeg is reported with what to do")
        func missingFFmpeg() async throws {
            let (unit, format) = try SnapshotFixture.h264()
            let missing = Snapshotter(ffmpegPath: "/nonexistent/watchbox-test/ffmpeg")
            #expect(!missing.isAvailable)
            #expect(missing.executable == nil)
            let error = await #expect(throws: SnapshotError.self) {
                _ = try await missing.jpeg(keyframe: unit, format: format)
            }
            #expect(error?.kind == .ffmpegMissing)
            #expect(error?.description.contains("apt-get install ffmpeg") == true)
            #expect(error?.description.contains("--ffmpeg PATH") == true)
            #expect(error?.description.contains("/nonexistent/watchbox-test/ffmpeg") == true)

            let notOnPath = Snapshotter(ffmpegPath: "watchbox-no-such-ffmpeg")
            #expect(!notOnPath.isAvailable)
            let other = await #expect(throws: SnapshotError.self) {
                _ = try await notOnPath.jpeg(keyframe: unit, format: format)
            }
            #expect(other?.kind == .ffmpegMissing)
            #expect(other?.description.contains("watchbox-no-such-ffmpeg") == true)
        }

        @Test("a directory is not an ffmpeg")
        func directoryIsNotExecutable() {
            #expect(!Snapshotter(ffmpegPath: "/tmp").isAvailable)
            #expect(!Snapshotter(ffmpegPath: "/").isAvailable)
        }

        @Test("garbage input is a decode failure, and the server survives ffmpeg closing its input",
              .enabled(if: ffmpegInstalled, "ffmpeg/ffprobe are not installed: skipping (apt-get install ffmpeg)"))
        func garbage() async throws {
            // A format without parameter sets: the noise cannot be decoded (no SPS/PPS to refer to).
            let format = VideoFormat(codec: .h264, width: 1280, height: 720, frameRate: nil, profileName: "High", level: "3.1",
                                     codecString: "avc1.64001f", decoderConfigurationRecord: [], parameterSets: [])
            var state: UInt32 = 0x2545_F491
            var noise = [UInt8(0x65)]  // an IDR slice header byte, then noise (xorshift32: the same every run)
            for _ in 0..<300_000 {
                state ^= state << 13
                state ^= state >> 17
                state ^= state << 5
                noise.append(UInt8(truncatingIfNeeded: state))
            }
            let unit = AccessUnit(codec: .h264, nalUnits: [ByteBuffer(bytes: noise)], isKeyframe: true, rtpTimestamp: 0)
            let error = await #expect(throws: SnapshotError.self) {
                _ = try await Snapshotter().jpeg(keyframe: unit, format: format)
            }
            #expect(error?.kind == .decodeFailed)
            #expect(error?.description.contains("1280x720 H.264 keyframe") == true)
            #expect(error?.description.contains("ffmpeg said") == true, "ffmpeg's complaint is quoted: \(error?.description ?? "")")
        }

        @Test("ffmpeg that hangs is killed at the timeout",
              .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/sh"), "no /bin/sh for the stand-in ffmpeg"))
        func timeout() async throws {
            let (unit, format) = try SnapshotFixture.h264()
            // A stand-in for ffmpeg that reads nothing and never answers.
            let script = FileManager.default.temporaryDirectory.appendingPathComponent("watchbox-hanging-ffmpeg-\(UUID().uuidString)")
            try "#!/bin/sh\nexec sleep 30\n".write(to: script, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
            defer { try? FileManager.default.removeItem(at: script) }
            var big = unit
            big.nalUnits.append(ByteBuffer(bytes: [0x0C] + [UInt8](repeating: 0xFF, count: 200_000) + [0x80]))

            let snapshotter = Snapshotter(ffmpegPath: script.path, timeout: .milliseconds(400))
            #expect(snapshotter.isAvailable)
            let started = ContinuousClock.now
            let error = await #expect(throws: SnapshotError.self) {
                _ = try await snapshotter.jpeg(keyframe: big, format: format)
            }
            let elapsed = ContinuousClock.now - started
            #expect(error?.kind == .timedOut)
            #expect(error?.description.contains("0.4 s") == true)
            #expect(elapsed >= .milliseconds(400))
            #expect(elapsed < .seconds(5), "the hanging process was killed, not waited for: \(elapsed)")
        }

        @Test("the command line decodes one frame from stdin to an MJPEG on stdout")
        func arguments() {
            let h264 = Snapshotter.arguments(codec: .h264, maxWidth: 1280)
            #expect(h264.contains("h264"))
            #expect(h264.contains("scale=w='min(iw,1280)':h=-2"))
            #expect(h264.suffix(2) == ["image2pipe", "pipe:1"])
            let h265 = Snapshotter.arguments(codec: .h265, maxWidth: 1)
            #expect(h265.contains("hevc"))
            #expect(h265.contains("scale=w='min(iw,16)':h=-2"))
        }

        @Test("ffmpeg's standard error is summarised to its last lines")
        func summary() {
            let text = "line one\n\n  line two  \nline three\nline four\n"
            #expect(Snapshotter.summarize(Data(text.utf8)) == "line two / line three / line four")
            let long = String(repeating: "x", count: 1000)
            #expect(Snapshotter.summarize(Data(long.utf8)).count == 300)
            #expect(Snapshotter.summarize(Data()) == "")
            let ffmpeg = "[h264 @ 0x561e3497ef40] non-existing PPS 5 referenced\n[h264 @ 0x561e3497ef40] no frame!\n"
                + "Error while decoding stream #0:0: Invalid data found when processing input\n"
            #expect(Snapshotter.summarize(Data(ffmpeg.utf8))
                == "non-existing PPS 5 referenced / no frame! / Error while decoding stream #0:0: Invalid data found when processing input")
            #expect(Snapshotter.summarize(Data("[keep me] as is".utf8)) == "[keep me] as is")
        }
    }
}
