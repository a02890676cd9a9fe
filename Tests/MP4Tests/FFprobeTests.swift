import AAC
import Foundation
import H26x
import MP4
import NIOCore
import Testing

/// ffprobe and ffmpeg (Debian's `ffmpeg` package), run on files the muxer wrote: the real judge of
/// whether other software reads them. Skipped with a message when ffprobe is not installed.
enum FFmpegTools {
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") + ["/usr/bin", "/usr/local/bin"] {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static let ffprobe = find("ffprobe")
    static let ffmpeg = find("ffmpeg")
    static let available = ffprobe != nil && ffmpeg != nil

    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> Result {
        let directory = FileManager.default.temporaryDirectory
        let outURL = directory.appendingPathComponent("mp4tests-\(UUID().uuidString).out")
        let errURL = directory.appendingPathComponent("mp4tests-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        return Result(status: process.terminationStatus,
                      output: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                      errors: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// ffprobe's JSON output for `arguments` + the file.
    static func probe(_ file: URL, _ arguments: [String]) throws -> [String: Any] {
        let result = try run(try #require(ffprobe), ["-v", "error", "-of", "json"] + arguments + [file.path])
        try #require(result.status == 0, "ffprobe failed: \(result.errors)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    }

    /// Decodes the whole file with ffmpeg; returns what it complained about (empty when clean).
    static func decodeErrors(_ file: URL) throws -> String {
        let result = try run(try #require(ffmpeg), ["-v", "error", "-nostdin", "-i", file.path, "-f", "null", "-"])
        return result.status == 0 ? result.errors : "exit \(result.status): \(result.errors)"
    }

    static func write(_ bytes: [UInt8], name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mp4tests-\(UUID().uuidString)-\(name)")
        try Data(bytes).write(to: url)
        return url
    }
}

/// Muxes a fixture stream (with its presentation times) and optionally audio, as a recorder would.
private func mux(
    _ stream: VideoStream, pts: [Int64], audio: AudioStream? = nil, policy: FragmentedMP4Muxer.FragmentPolicy
) throws -> (collected: Collected, muxer: FragmentedMP4Muxer) {
    // Extended RTP timestamps that cross 2^32 during the clip.
    let videoBase = Int64(UInt32.max) - 90000
    let audioBase = Int64(UInt32.max) - 30000
    var muxer = try FragmentedMP4Muxer(video: stream.format, audio: audio?.format, policy: policy)
    var collected = Collected()
    var audioIndex = 0
    for (unit, time) in zip(stream.units, pts) {
        collected.add(muxer.appendVideo(unit, timestamp: videoBase + time))
        if audio != nil && audioIndex == 0 { muxer.setAudioOrigin(audioBase) }
        guard let audio else { continue }
        while audioIndex < audio.frames.count, Int64(audioIndex) * 1024 * 90000 <= (time + 3600) * Int64(audio.format.sampleRate) {
            collected.add(muxer.appendAudio(audio.frames[audioIndex], timestamp: audioBase + Int64(audioIndex) * 1024))
            audioIndex += 1
        }
    }
    collected.add(muxer.finish())
    return (collected, muxer)
}

private func streams(_ json: [String: Any]) throws -> [[String: Any]] {
    try #require(json["streams"] as? [[String: Any]])
}

private func integer(_ value: Any?) -> Int? {
    if let number = value as? Int { return number }
    if let text = value as? String { return Int(text) }
    return nil
}

/// Checks what ffprobe says about the video track's packets (decode order) and frames (presentation
/// order): every pts ≥ dts, dts increasing, and frames come out 3600 ticks apart in the encoder's order.
private func expectFrameOrder(_ file: URL, frames: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let packets = try #require(try FFmpegTools.probe(file, ["-select_streams", "v:0", "-show_entries", "packet=pts,dts"])["packets"] as? [[String: Any]])
    #expect(packets.count == frames, sourceLocation: sourceLocation)
    var previousDTS: Int?
    for packet in packets {
        let pts = try #require(integer(packet["pts"]))
        let dts = try #require(integer(packet["dts"]))
        #expect(pts >= dts, "packet pts \(pts) < dts \(dts)", sourceLocation: sourceLocation)
        if let previousDTS { #expect(dts > previousDTS, sourceLocation: sourceLocation) }
        previousDTS = dts
    }
    let decoded = try #require(try FFmpegTools.probe(file, ["-select_streams", "v:0", "-show_entries", "frame=pts"])["frames"] as? [[String: Any]])
    #expect(decoded.count == frames, sourceLocation: sourceLocation)
    let times = decoded.compactMap { integer($0["pts"]) }
    #expect(times.count == frames, sourceLocation: sourceLocation)
    #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 3600 }, "frame times \(times.prefix(12))…",
            sourceLocation: sourceLocation)
}

@Suite("ffprobe reads what the muxer writes", .enabled(if: FFmpegTools.available, "ffprobe/ffmpeg not installed: apt-get install -y ffmpeg"))
struct FFprobeTests {
    @Test("H.264 + AAC recording: every frame and audio frame counted, decodes without errors")
    func h264WithAudio() throws {
        let stream = try VideoStream.fixture("h264_main_no_bframes.h264", codec: .h264)
        let audio = try AudioStream(adts: Fixture.bytes("aac_48k_stereo.aac"))
        #expect(stream.units.count == 100)
        let (collected, muxer) = try mux(stream, pts: (0..<100).map { Int64($0) * 3600 }, audio: audio, policy: .duration(seconds: 1))
        #expect(collected.initSegments.count == 1)
        #expect(collected.fragments.count == 2)   // keyframes at 0 and 2 s
        let file = try FFmpegTools.write(collected.file, name: "h264-aac.mp4")
        defer { try? FileManager.default.removeItem(at: file) }
        let json = try FFmpegTools.probe(file, ["-count_frames", "-show_entries",
                                                "stream=codec_type,codec_name,codec_tag_string,width,height,nb_read_frames,sample_rate,channels,start_time"])
        let found = try streams(json)
        let video = try #require(found.first { $0["codec_type"] as? String == "video" })
        let sound = try #require(found.first { $0["codec_type"] as? String == "audio" })
        #expect(video["codec_name"] as? String == "h264")
        #expect(video["codec_tag_string"] as? String == "avc1")
        #expect(integer(video["width"]) == 320 && integer(video["height"]) == 240)
        #expect(integer(video["nb_read_frames"]) == 100)
        #expect(sound["codec_name"] as? String == "aac")
        #expect(integer(sound["sample_rate"]) == 48000 && integer(sound["channels"]) == 2)
        #expect(integer(sound["nb_read_frames"]) == muxer.statistics.audioFrames)
        #expect(muxer.statistics.audioFrames > 180)
        #expect(try FFmpegTools.decodeErrors(file) == "")
    }

    @Test("B-frames I P B B, live and file policies: pts ≥ dts, frames in the right order", arguments: [
        FragmentedMP4Muxer.FragmentPolicy.everyFrame, .everyKeyframe,
    ])
    func bFrames(policy: FragmentedMP4Muxer.FragmentPolicy) throws {
        let stream = try VideoStream.fixture("h264_bframes.h264", codec: .h264)
        let pts = try Fixture.integers("h264_bframes.pts")
        #expect(stream.units.count == pts.count)
        let (collected, _) = try mux(stream, pts: pts, policy: policy)
        let file = try FFmpegTools.write(collected.file, name: "bframes.mp4")
        defer { try? FileManager.default.removeItem(at: file) }
        try expectFrameOrder(file, frames: 100)
        #expect(try FFmpegTools.decodeErrors(file) == "")
    }

    @Test("B-pyramid I P B b b: pts ≥ dts, frames in the right order")
    func pyramid() throws {
        let stream = try VideoStream.fixture("h264_bpyramid.h264", codec: .h264)
        let (collected, muxer) = try mux(stream, pts: try Fixture.integers("h264_bpyramid.pts"), policy: .duration(seconds: 0.5))
        #expect(muxer.statistics.reorderDepth == 2)
        let file = try FFmpegTools.write(collected.file, name: "pyramid.mp4")
        defer { try? FileManager.default.removeItem(at: file) }
        try expectFrameOrder(file, frames: 50)
        #expect(try FFmpegTools.decodeErrors(file) == "")
    }

    @Test("H.265 as hvc1: every frame counted, decodes without errors")
    func hevc() throws {
        let stream = try VideoStream.fixture("h265_main.h265", codec: .h265)
        #expect(stream.units.count == 50)
        let (collected, _) = try mux(stream, pts: (0..<50).map { Int64($0) * 3600 }, policy: .everyKeyframe)
        let file = try FFmpegTools.write(collected.file, name: "hevc.mp4")
        defer { try? FileManager.default.removeItem(at: file) }
        let video = try #require(try streams(FFmpegTools.probe(file, ["-count_frames", "-show_entries",
                                                                      "stream=codec_name,codec_tag_string,width,height,nb_read_frames"])).first)
        #expect(video["codec_name"] as? String == "hevc")
        #expect(video["codec_tag_string"] as? String == "hvc1")
        #expect(integer(video["width"]) == 320 && integer(video["height"]) == 240)
        #expect(integer(video["nb_read_frames"]) == 50)
        try expectFrameOrder(file, frames: 50)
        #expect(try FFmpegTools.decodeErrors(file) == "")
    }

    @Test("after a format change, the new init segment and its fragments form a readable file that starts later")
    func formatChange() throws {
        let first = try VideoStream.fixture("h264_main_no_bframes.h264", codec: .h264)
        let second = try VideoStream.fixture("h264_bframes.h264", codec: .h264)
        let secondPTS = try Fixture.integers("h264_bframes.pts")
        var muxer = try FragmentedMP4Muxer(video: first.format, policy: .everyKeyframe)
        var collected = Collected()
        for (index, unit) in first.units.enumerated() { collected.add(muxer.appendVideo(unit, timestamp: Int64(index) * 3600)) }
        collected.add(try muxer.changeVideoFormat(second.format))
        let fragmentsBefore = collected.fragments.count
        for (unit, time) in zip(second.units, secondPTS) { collected.add(muxer.appendVideo(unit, timestamp: 360_000 + 3600 + time)) }
        collected.add(muxer.finish())
        #expect(collected.kinds.filter { $0 == "init" }.count == 2)

        var part = collected.initSegments[1].bytes
        for fragment in collected.fragments[fragmentsBefore...] { part += fragment.bytes }
        let file = try FFmpegTools.write(part, name: "after-change.mp4")
        defer { try? FileManager.default.removeItem(at: file) }
        let video = try #require(try streams(FFmpegTools.probe(file, ["-count_frames", "-show_entries", "stream=profile,nb_read_frames"])).first)
        #expect(video["profile"] as? String == "High")
        #expect(integer(video["nb_read_frames"]) == 100)
        let packets = try #require(try FFmpegTools.probe(file, ["-select_streams", "v:0", "-show_entries", "packet=dts"])["packets"] as? [[String: Any]])
        #expect(integer(packets.first?["dts"]) ?? 0 >= 360_000, "decode times continue after the first part's 4 s")
        #expect(try FFmpegTools.decodeErrors(file) == "")
    }
}
