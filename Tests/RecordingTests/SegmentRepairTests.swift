import Foundation
import MP4
import NIOCore
import Recording
import Store
import TestSupport
import Testing

@Suite("Crash repair of segment files", .enabled(if: FFProbeResult.isAvailable))
struct SegmentRepairTests {
    let camera = UUID()

    /// A small fragmented MP4 made by ffmpeg (H.264 with a keyframe every 0.5 s, AAC), fragments at keyframes.
    func sample(in directory: URL) throws -> Data {
        let path = directory.appendingPathComponent("source.mp4").path
        let result = try runCommand("/usr/bin/ffmpeg", [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-f", "lavfi",
            "-i", "sine=frequency=440:sample_rate=48000", "-t", "3", "-c:v", "libx264", "-g", "5", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-movflags", "frag_keyframe+empty_moov+default_base_moof", "-y", path])
        #expect(result.status == 0, "\(result.stderr)")
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test("every cut point: the file is cut back to its last whole fragment and plays, or is moved aside")
    func everyCut() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = try sample(in: directory)
        let layout = try FragmentedMP4Layout(ByteBuffer(bytes: data))
        #expect(layout.fragments.count >= 5)
        #expect(layout.completeBytes == data.count)
        let boundaries = layout.fragments.map { $0.offset + $0.length }
        var cuts = Set(stride(from: 0, to: data.count, by: 37))
        for boundary in [layout.initializationLength] + boundaries { cuts.formUnion([boundary - 1, boundary, boundary + 1]) }
        let root = directory.appendingPathComponent("recordings").path
        let start = Date(timeIntervalSince1970: 1_795_403_525)
        let relative = SegmentNaming.relativePath(cameraID: camera, start: start, number: 1)
        let path = (root as NSString).appendingPathComponent(relative)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        var kept: [Int: Segment] = [:]
        for cut in cuts.sorted() where cut > 0 && cut <= data.count {
            try data.prefix(cut).write(to: URL(fileURLWithPath: path))
            let expected = boundaries.last { $0 <= cut }
            switch SegmentRepair.repair(root: root, relativePath: relative) {
            case .repaired(let segment, let cutBytes):
                let whole = try #require(expected, "cut \(cut) was repaired though no fragment is whole")
                #expect(Int(segment.bytes) == whole)
                #expect(Int(cutBytes) == cut - whole)
                #expect(FileSystem.fileSize(path) == Int64(whole))
                #expect(segment.cameraID == camera)
                #expect(segment.codec == "h264" && segment.width == 160 && segment.height == 120)
                #expect(segment.mimeType.hasPrefix("video/mp4; codecs=\"avc1."))
                #expect(segment.start == start)
                #expect(segment.keyframeIndex?.entries.first?.offset == Int64(layout.initializationLength))
                if kept[whole] == nil { kept[whole] = segment }
            case .movedAside(_, let movedTo):
                #expect(expected == nil, "cut \(cut) was moved aside though \(expected ?? 0) bytes are whole")
                #expect(movedTo == path + ".damaged")
                #expect(!FileManager.default.fileExists(atPath: path))
                try FileManager.default.removeItem(atPath: movedTo)
            }
        }
        #expect(kept.count == boundaries.count)
        // Each distinct repaired file plays without an error, with the duration the index gives.
        for (length, segment) in kept {
            try data.prefix(length).write(to: URL(fileURLWithPath: path))
            #expect(try FFProbeResult.decodeErrors(path) == "", "cut at \(length)")
            let probe = try FFProbeResult(file: path)
            #expect(abs((probe.video?.duration ?? 0) - segment.duration) < 0.15, "length \(length)")
        }
    }

    @Test("a file with no moov, or garbage, is moved aside; a second one too, under another name")
    func garbage() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = directory.path
        let relative = SegmentNaming.relativePath(cameraID: camera, start: Date(timeIntervalSince1970: 1_795_403_525), number: 1)
        let path = (root as NSString).appendingPathComponent(relative)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: path))
        guard case .movedAside(_, let first) = SegmentRepair.repair(root: root, relativePath: relative) else {
            Issue.record("an empty file was not moved aside")
            return
        }
        try Data(repeating: 0x41, count: 500).write(to: URL(fileURLWithPath: path))
        guard case .movedAside(let reason, let second) = SegmentRepair.repair(root: root, relativePath: relative) else {
            Issue.record("garbage was not moved aside")
            return
        }
        #expect(first != second)
        #expect(!reason.isEmpty)
        #expect(FileManager.default.fileExists(atPath: first) && FileManager.default.fileExists(atPath: second))
    }
}
