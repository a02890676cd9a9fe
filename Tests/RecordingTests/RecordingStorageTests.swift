import Foundation
import Recording
import Store
import TestSupport
import Testing

@Suite("Retention and a full disk", .serialized)
struct RecordingStorageTests {
    @Test("a small cap deletes the oldest first, files and rows, and never a protected segment")
    func capAndProtection() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rig = try await RecordingRig.make(root: directory.path, segmentSeconds: 10)
        let camera = UUID()
        let base = Date(timeIntervalSince1970: 1_795_400_000)
        var ids: [Int64] = []
        for number in 0..<6 {
            let start = base.addingTimeInterval(Double(number) * 10)
            let relative = SegmentNaming.relativePath(cameraID: camera, start: start, number: 1)
            let path = (directory.path as NSString).appendingPathComponent(relative)
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(repeating: UInt8(number), count: 100_000).write(to: URL(fileURLWithPath: path))
            let row = try await rig.database.insertSegment(Segment(
                cameraID: camera, start: start, end: start.addingTimeInterval(10), duration: 10, bytes: 100_000, path: relative,
                codec: "h264", mimeType: "video/mp4", width: 1, height: 1, keyframes: KeyframeIndex().encoded))
            ids.append(row.id!)
        }
        // The oldest is protected (a range touching only it).
        _ = try await rig.database.insertProtection(Protection(cameraID: camera, from: base.addingTimeInterval(2), to: base.addingTimeInterval(5)))
        try await rig.database.saveStorageSettings(StorageSettings(maxBytes: 350_000, minFreeBytes: 0))
        await rig.manager.runRetention()
        let left = try await rig.segments(camera)
        #expect(left.map(\.id!) == [ids[0], ids[4], ids[5]])
        for (number, id) in ids.enumerated() {
            let relative = SegmentNaming.relativePath(cameraID: camera, start: base.addingTimeInterval(Double(number) * 10), number: 1)
            let exists = FileManager.default.fileExists(atPath: (directory.path as NSString).appendingPathComponent(relative))
            #expect(exists == left.contains { $0.id == id }, "segment \(number)")
        }
        // A cap below the protected footage: everything unprotected goes, the protected one stays, the log says why.
        try await rig.database.saveStorageSettings(StorageSettings(maxBytes: 50_000, minFreeBytes: 0))
        await rig.manager.runRetention()
        #expect(try await rig.segments(camera).map(\.id!) == [ids[0]])
        #expect(rig.logs.text.contains("protected"))
        // Deleting a protected segment through the manager needs force.
        await #expect(throws: RecordingError.self) { try await rig.manager.deleteSegment(id: ids[0], force: false) }
        try await rig.manager.deleteSegment(id: ids[0], force: true)
        #expect(try await rig.segments(camera).isEmpty)
        await rig.shutdown()
    }

    @Test("a maximum age deletes what is older, per camera")
    func maxAge() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rig = try await RecordingRig.make(root: directory.path, segmentSeconds: 10)
        let old = try await rig.database.insert(Camera(name: "Old", rtspURL: "rtsp://127.0.0.1:9/none"))
        let keep = try await rig.database.insert(Camera(name: "Keep", rtspURL: "rtsp://127.0.0.1:9/none"))
        try await rig.manager.update(RecordingSettings(cameraID: old.id, mode: .off, retentionDays: 2))
        try await rig.manager.update(RecordingSettings(cameraID: keep.id, mode: .off, retentionDays: nil))
        try await rig.database.saveStorageSettings(StorageSettings(maxBytes: nil, minFreeBytes: 0))
        for camera in [old.id, keep.id] {
            for daysAgo in [5.0, 1.0] {
                let start = Date().addingTimeInterval(-daysAgo * 86_400)
                _ = try await rig.database.insertSegment(Segment(
                    cameraID: camera, start: start, end: start.addingTimeInterval(60), duration: 60, bytes: 10,
                    path: SegmentNaming.relativePath(cameraID: camera, start: start, number: 1), codec: "h264", mimeType: "video/mp4",
                    width: 1, height: 1, keyframes: KeyframeIndex().encoded))
            }
        }
        await rig.manager.runRetention()
        #expect(try await rig.segments(old.id).count == 1)
        #expect(try await rig.segments(keep.id).count == 2)
        await rig.shutdown()
    }

    static var canMount: Bool {
        getuid() == 0 && PeerRTSPServer.isAvailable
    }

    @Test("a full disk (a small tmpfs): diskFull, what was written plays and is indexed, retention frees space, recording resumes",
          .enabled(if: canMount || ProcessInfo.processInfo.environment["CI"] == "true"))
    func diskFull() async throws {
        #expect(getuid() == 0, "mounting a tmpfs needs root")
        let directory = try temporaryDirectory()
        let mount = directory.appendingPathComponent("small").path
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let mounted = try runCommand("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mount])
        try #require(mounted.status == 0, "mount: \(mounted.stderr)")
        defer {
            _ = try? runCommand("/bin/umount", ["-l", mount])
            try? FileManager.default.removeItem(at: directory)
        }
        let peer = try PeerRTSPServer(["--key-int", "25"])
        defer { peer.stop() }
        let rig = try await RecordingRig.make(root: mount, segmentSeconds: 3)
        try await rig.database.saveStorageSettings(StorageSettings(maxBytes: nil, minFreeBytes: 0))
        let camera = try await rig.addCamera(name: "Full", url: peer.url())
        try await rig.record(camera)
        let full = await RecordingRig.wait(60) { rig.manager.recordingState(cameraID: camera).state == .diskFull }
        try #require(full, "no diskFull state; state \(rig.manager.recordingState(cameraID: camera))")
        let fullAt = Date()
        let state = rig.manager.recordingState(cameraID: camera)
        #expect(state.message?.contains("disk full: recordings stopped; free space or lower the retention") == true)
        // Everything on disk is indexed and plays.
        let written = try await rig.segments(camera)
        #expect(written.count >= 2)
        for segment in written {
            #expect(try FFProbeResult.decodeErrors(rig.path(segment)) == "", "\(segment.path)")
            #expect(FileSystem.fileSize(rig.path(segment)) == segment.bytes)
        }
        // A cap lets retention free space; recording comes back by itself.
        try await rig.database.saveStorageSettings(StorageSettings(maxBytes: 400_000, minFreeBytes: 0))
        await rig.manager.runRetention()
        let resumed = await RecordingRig.wait(30) { rig.manager.recordingState(cameraID: camera).state == .recording }
        #expect(resumed, "recording did not resume; state \(rig.manager.recordingState(cameraID: camera))")
        #expect(rig.logs.text.contains("recording resumed"))
        await rig.shutdown()
        let after = try await rig.segments(camera)
        #expect(after.contains { $0.start > fullAt }, "no segment recorded after the disk was full")
        for segment in after { #expect(try FFProbeResult.decodeErrors(rig.path(segment)) == "", "\(segment.path)") }
    }
}
