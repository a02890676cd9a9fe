import Foundation
import H26x
@testable import Hub
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
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

/// A consumer that records its drains and takes what it is told to.
final class RecordingConsumer: ViewerConsumer, @unchecked Sendable {
    let eventLoop: any EventLoop
    let lock = NIOLock()
    var drains = 0
    var taken: [Viewer.Polled] = []
    /// While false, a drain takes nothing (a full socket).
    var accepting = true
    weak var viewer: Viewer?

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func drain() {
        eventLoop.preconditionInEventLoop()
        lock.withLock { drains += 1 }
        guard lock.withLock({ accepting }), let viewer else { return }
        while true {
            let polled = viewer.poll()
            lock.withLock { taken.append(polled) }
            if case .message = polled { continue }
            return
        }
    }

    var messages: Int { lock.withLock { taken.filter { if case .message = $0 { true } else { false } }.count } }
    var sawClosed: Bool { lock.withLock { taken.contains { if case .closed = $0 { true } else { false } } } }
}

@Suite("Viewer in push mode: a consumer on its event loop takes the messages")
struct ViewerConsumerTests {
    func fragment(key: Bool = false) -> ViewerMessage {
        .fragment(ByteBuffer(repeating: 0, count: 100), isKeyframe: key)
    }

    /// One of NIO's shared loops: every consumer here runs on it.
    static let loop = MultiThreadedEventLoopGroup.singleton.next()

    func settle(_ loop: any EventLoop) throws {
        try loop.submit {}.wait()
    }

    /// A viewer and a recording consumer on ``loop``, attached after `queued` was pushed.
    func attached(maxFragments: Int = 75, accepting: Bool = true, queued: [ViewerMessage] = []) -> (Viewer, RecordingConsumer) {
        let viewer = Viewer(cameraID: UUID(), variant: .main, maxFragments: maxFragments)
        let consumer = RecordingConsumer(eventLoop: Self.loop)
        consumer.viewer = viewer
        consumer.accepting = accepting
        for message in queued { viewer.push(message) }
        viewer.attach(consumer)
        return (viewer, consumer)
    }

    @Test func messagesReachTheConsumerOnItsLoopInOrderOneDrainEach() throws {
        let loop = Self.loop
        // A status queued before attaching: delivered on attach.
        let (viewer, consumer) = attached(maxFragments: 10, queued: [.status(CameraStatus(state: .connecting))])
        try settle(loop)
        #expect(consumer.messages == 1)
        viewer.push(fragment(key: true))
        viewer.push(fragment())
        try settle(loop)
        #expect(consumer.messages == 3)
        // Each drain ended at `.empty`, which re-arms the next push's drain.
        #expect(consumer.drains >= 2)
    }

    @Test func aConsumerHeldBackIsNotWokenAgainUntilItDrainsAndTheQueueLimitsStillHold() throws {
        let loop = Self.loop
        let (viewer, consumer) = attached(maxFragments: 5, accepting: false)
        viewer.push(fragment(key: true))
        for _ in 0..<9 { viewer.push(fragment()) }
        try settle(loop)
        // One wake-up for the first message; the consumer took nothing, so no more were asked for.
        #expect(consumer.drains == 1)
        #expect(viewer.skipStatistics.skips == 1)
        // The socket drains: the consumer resumes by itself and gets the new keyframe and what follows.
        viewer.push(fragment(key: true))
        viewer.push(fragment())
        consumer.lock.withLock { consumer.accepting = true }
        try loop.submit { consumer.drain() }.wait()
        #expect(consumer.messages == 2)
    }

    @Test func closingReachesAConsumerEvenWhileItIsHeldBack() throws {
        let loop = Self.loop
        let (viewer, consumer) = attached(maxFragments: 5, accepting: false)
        viewer.push(fragment(key: true))
        try settle(loop)
        #expect(consumer.drains == 1)
        consumer.lock.withLock { consumer.accepting = true }
        viewer.close()
        try settle(loop)
        #expect(consumer.drains == 2)
        #expect(consumer.sawClosed)
        #expect(consumer.messages == 0, "a closed viewer's queue is dropped")
    }

    /// A consumer holds its viewer; once told of the close, the viewer lets go of it, so neither is kept alive.
    @Test func aClosedViewerLetsGoOfItsConsumer() throws {
        let loop = Self.loop
        weak var weakConsumer: RecordingConsumer?
        let viewer: Viewer
        do {
            let (attachedViewer, consumer) = attached()
            viewer = attachedViewer
            weakConsumer = consumer
        }
        #expect(weakConsumer != nil, "attached: the viewer holds it")
        viewer.close()
        // The loop runs the drain that lets go of it, but keeps the task that ran it (and so the consumer it names)
        // until the end of that batch of tasks, which may come after `settle`'s own task answered: settle until
        // a later batch has run too.
        for _ in 0..<20 where weakConsumer != nil { try settle(loop) }
        #expect(weakConsumer == nil)
    }

    @Test func drainsOfManyConsumersOnOneLoopHopOnce() throws {
        let loop = Self.loop
        let pairs = (0..<20).map { _ in attached() }
        let viewers = pairs.map(\.0)
        let consumers = pairs.map(\.1)
        // As the live stream does: enqueue to all, then wake them together.
        let wakes = viewers.compactMap { $0.enqueue(fragment(key: true)) }
        #expect(wakes.count == 20)
        Viewer.scheduleDrains(wakes)
        try settle(loop)
        #expect(consumers.allSatisfy { $0.messages == 1 })
    }
}
