import Foundation
import H26x
@testable import Hub
import NIOCore
import Testing

@Suite("Viewer: a bounded queue that skips to the next keyframe")
struct ViewerTests {
    static let format = VideoFormat(codec: .h264, width: 640, height: 360, frameRate: 25, profileName: "High", level: "3.0",
                                    codecString: "avc1.64001e", decoderConfigurationRecord: [1], parameterSets: [])

    func fragment(_ size: Int = 100, key: Bool = false) -> ViewerMessage {
        .fragment(ByteBuffer(repeating: key ? 1 : 0, count: size), isKeyframe: key)
    }


    @Test func deliversInOrder() async {
        let viewer = Viewer(cameraID: UUID(), variant: .main, maxFragments: 10)
        viewer.push(.initialization(segment: ByteBuffer(), mimeType: "video/mp4", format: Self.format))
        viewer.push(fragment(key: true))
        viewer.push(fragment())
        guard case .initialization = await viewer.next() else { Issue.record("init first"); return }
        guard case .fragment(_, true) = await viewer.next() else { Issue.record("then the keyframe"); return }
        guard case .fragment(_, false) = await viewer.next() else { Issue.record("then the delta"); return }
    }

    @Test func fallingBehindDropsTheQueueAndWaitsForAKeyframe() async {
        let viewer = Viewer(cameraID: UUID(), variant: .main, maxFragments: 5)
        viewer.push(fragment(key: true))
        for _ in 0..<10 { viewer.push(fragment()) }  // overflows at the 6th
        #expect(viewer.skipStatistics.skips == 1)
        viewer.push(fragment(key: true))
        viewer.push(fragment())
        guard case .fragment(_, true) = await viewer.next() else { Issue.record("resumes at the keyframe"); return }
        guard case .fragment(_, false) = await viewer.next() else { Issue.record("then goes on"); return }
        // Everything before the new keyframe: the queued keyframe, and all ten deltas.
        #expect(viewer.skipStatistics.droppedFragments == 11)
    }

    @Test func byteLimitCountsToo() {
        let viewer = Viewer(cameraID: UUID(), variant: .main, maxFragments: 1000, maxBytes: 1000)
        viewer.push(fragment(600, key: true))
        viewer.push(fragment(600))
        #expect(viewer.skipStatistics.skips == 1)
    }

    @Test func primingIgnoresTheLimitsAWholeGOPIsOnlyUsefulWhole() async {
        let viewer = Viewer(cameraID: UUID(), variant: .main, maxFragments: 3)
        viewer.push(fragment(key: true), force: true)
        for _ in 0..<9 { viewer.push(fragment(), force: true) }
        #expect(viewer.skipStatistics.skips == 0)
        var count = 0
        for _ in 0..<10 {
            if case .fragment = await viewer.next() { count += 1 }
        }
        #expect(count == 10)
    }

    @Test func statusesCoalesceAndPauseDropsVideoOnly() async {
        let viewer = Viewer(cameraID: UUID(), variant: .sub, maxFragments: 10)
        viewer.push(.status(CameraStatus(state: .connecting)))
        viewer.push(.status(CameraStatus(state: .live)))
        viewer.pause()
        viewer.push(fragment(key: true))
        guard case .status(let status) = await viewer.next() else { Issue.record("a status"); return }
        #expect(status.state == .live, "only the latest status is kept")
        #expect(viewer.isPaused)
        viewer.close()
        #expect(await viewer.next() == nil)
    }

    @Test func closeWakesAWaitingReader() async {
        let viewer = Viewer(cameraID: UUID(), variant: .main)
        let reader = Task { await viewer.next() }
        try? await Task.sleep(for: .milliseconds(50))
        viewer.close()
        #expect(await reader.value == nil)
    }
}

extension ViewerMessage: Equatable {
    public static func == (lhs: ViewerMessage, rhs: ViewerMessage) -> Bool {
        switch (lhs, rhs) {
        case (.fragment(let a, let ka), .fragment(let b, let kb)): a == b && ka == kb
        case (.status(let a), .status(let b)): a == b
        case (.initialization(let a, let ma, _), .initialization(let b, let mb, _)): a == b && ma == mb
        default: false
        }
    }
}
