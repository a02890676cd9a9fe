import Foundation
import MP4
import NIOCore
import Recording
import Store
import TestSupport
import Testing

@Suite("The segment being written", .enabled(if: PeerRTSPServer.isAvailable))
struct OpenSegmentTests {
    @Test("it is listed with what is on disk (whole fragments) and becomes an indexed segment when it closes")
    func openThenIndexed() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let peer = try PeerRTSPServer(["--width", "640", "--height", "360", "--key-int", "25"])
        defer { peer.stop() }
        let rig = try await RecordingRig.make(root: directory.path, segmentSeconds: 6)
        let camera = try await rig.addCamera(name: "Open", url: peer.url())
        try await rig.record(camera)
        let started = await RecordingRig.wait(20) { (rig.manager.openSegments(cameraID: camera).first?.writtenSeconds ?? 0) >= 2 }
        try #require(started)
        let open = try #require(rig.manager.openSegments(cameraID: camera).first)
        #expect(open.id < 0)
        #expect(rig.manager.openSegment(id: open.id) == open)
        // The bytes it claims are whole fragments of a valid file.
        let path = (directory.path as NSString).appendingPathComponent(open.relativePath)
        let data = try #require(FileManager.default.contents(atPath: path))
        #expect(Int64(data.count) >= open.committedBytes)
        let layout = try FragmentedMP4Layout(ByteBuffer(bytes: data.prefix(Int(open.committedBytes))))
        #expect(layout.completeBytes == Int(open.committedBytes))
        #expect(layout.stoppedBecause == nil)
        #expect(open.keyframes.entries.first?.offset == Int64(layout.fragments.first?.offset ?? -1))
        // When it closes, its row appears with the same path, and a new open segment has another id.
        let closed = try await RecordingRig.wait(20) { try await rig.segments(camera).contains { $0.path == open.relativePath } }
        #expect(closed)
        let next = await RecordingRig.wait(10) { rig.manager.openSegments(cameraID: camera).first.map { $0.relativePath != open.relativePath } ?? false }
        #expect(next)
        #expect(rig.manager.openSegments(cameraID: camera).first?.id != open.id)
        await rig.shutdown()
        #expect(rig.manager.openSegments(cameraID: camera).isEmpty)
    }
}
