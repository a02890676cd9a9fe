import Foundation
import H26x
@testable import Hub
import Logging
import NIOConcurrencyHelpers
import NIOCore
import RTSPClient
import RTSPCore

/// Counts how often an upstream runs and how often it was cancelled, around a real one.
final class CountingUpstream: Upstream, Sendable {
    let inner: any Upstream
    private let counts = NIOLockedValueBox((runs: 0, active: 0, ended: 0))

    init(_ inner: any Upstream) { self.inner = inner }

    var runs: Int { counts.withLockedValue { $0.runs } }
    var active: Int { counts.withLockedValue { $0.active } }
    var ended: Int { counts.withLockedValue { $0.ended } }

    func run(onEvent: @escaping @Sendable (UpstreamEvent) -> Void) async {
        counts.withLockedValue { $0.runs += 1; $0.active += 1 }
        await inner.run(onEvent: onEvent)
        counts.withLockedValue { $0.active -= 1; $0.ended += 1 }
    }
}

/// The demo clip, fast: a real H.264 stream without a network.
func fastDemo(frameRate: Double = 100) -> DemoUpstream {
    DemoUpstream(frameRate: frameRate, logger: Logger(label: "test.demo"))
}

/// Sends `frames` frames of the demo clip, then goes silent (the camera froze) until cancelled.
struct StallingUpstream: Upstream {
    var frames: Int

    func run(onEvent: @escaping @Sendable (UpstreamEvent) -> Void) async {
        let count = NIOLockedValueBox(0)
        let limit = frames
        let task = Task {
            await fastDemo().run { event in
                if case .media(.video) = event {
                    let sent = count.withLockedValue { n -> Bool in
                        n += 1
                        return n <= limit
                    }
                    if sent { onEvent(event) }
                } else {
                    onEvent(event)
                }
            }
        }
        await withTaskCancellationHandler {
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(20)) }
        } onCancel: {
            task.cancel()
        }
        await task.value
    }
}

/// A camera that always refuses: reports `error` every `retry`.
struct FailingUpstream: Upstream {
    var error: RTSPClientError
    var retry: Duration = .milliseconds(200)

    func run(onEvent: @escaping @Sendable (UpstreamEvent) -> Void) async {
        var attempt = 0
        while !Task.isCancelled {
            attempt += 1
            onEvent(.connecting(attempt: attempt))
            onEvent(.disconnected(error, retryIn: retry))
            try? await Task.sleep(for: retry)
        }
    }
}

/// Polls `condition` every 10 ms until it holds or `timeout` passes.
func eventually(timeout: Duration = .seconds(10), _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return await condition()
}

/// Reads a viewer's messages into counts, in the background.
final class ViewerReader: Sendable {
    struct Seen: Sendable {
        var inits = 0
        var fragments = 0
        var keyframes = 0
        var firstFragmentIsKeyframe: Bool?
        var statuses: [CameraState] = []
        var order: [String] = []
        var bytes = 0
    }
    let seen = NIOLockedValueBox(Seen())
    private let task: Task<Void, Never>

    init(_ viewer: Viewer, delayPerMessage: Duration? = nil) {
        let seen = self.seen
        task = Task {
            while let message = await viewer.next() {
                seen.withLockedValue { s in
                    switch message {
                    case .initialization:
                        s.inits += 1
                        s.order.append("init")
                    case .fragment(let bytes, let isKeyframe):
                        if s.firstFragmentIsKeyframe == nil { s.firstFragmentIsKeyframe = isKeyframe }
                        s.fragments += 1
                        s.bytes += bytes.readableBytes
                        if isKeyframe { s.keyframes += 1 }
                        if s.order.last != "fragment" { s.order.append("fragment") }
                    case .status(let status):
                        s.statuses.append(status.state)
                    }
                }
                if let delayPerMessage { try? await Task.sleep(for: delayPerMessage) }
            }
        }
    }

    var value: Seen { seen.withLockedValue { $0 } }

    func stop() { task.cancel() }
}
