import DequeModule
import Foundation
import H26x
import NIOConcurrencyHelpers
import NIOCore

/// What a live viewer receives, in order.
public enum ViewerMessage: Sendable {
    /// The initialization segment (first, and again after a format change) and its MIME type with codecs.
    case initialization(segment: ByteBuffer, mimeType: String, format: VideoFormat)
    /// One `moof`+`mdat` fragment.
    case fragment(ByteBuffer, isKeyframe: Bool)
    case status(CameraStatus)
}

/// One live viewer's bounded queue. The camera's stream pushes into it without ever waiting; the
/// viewer's connection pulls with ``next()``. A viewer that falls behind (more than `maxFragments`
/// or `maxBytes` queued) loses what is queued and skips ahead to the next keyframe: it never slows
/// the camera or other viewers, and what it does receive always decodes.
public final class Viewer: Sendable {
    public let id = UUID()
    public let cameraID: UUID
    public let variant: StreamVariant
    /// The event loop of the viewer's connection, which its camera's upstream shares when it can: run the
    /// code that calls ``next()`` there (``EventLoopTaskExecutor``). nil: no preference.
    public let eventLoop: (any EventLoop)?

    /// A queued message, with when the last packet of its frame arrived (live fragments only; for
    /// ``HubInstrumentation``).
    struct Entry {
        var message: ViewerMessage
        var arrival: NIODeadline?
    }

    private struct State {
        var queue = Deque<Entry>()
        var queuedBytes = 0
        var queuedFragments = 0
        var waitingForKeyframe = false
        var paused = false
        var closed = false
        var waiter: CheckedContinuation<Entry?, Never>?
        var skips = 0
        var droppedFragments = 0
        var deliveredFragments = 0
    }

    private let state = NIOLockedValueBox(State())
    private let maxFragments: Int
    private let maxBytes: Int
    /// Set by the stream: asked to prime the viewer again (cached GOP) after a resume, and told when it closes.
    let onResume: NIOLockedValueBox<(@Sendable (Viewer) -> Void)?> = NIOLockedValueBox(nil)
    let onClose: NIOLockedValueBox<(@Sendable (Viewer) -> Void)?> = NIOLockedValueBox(nil)

    init(cameraID: UUID, variant: StreamVariant, maxFragments: Int = 75, maxBytes: Int = 8 << 20,
         eventLoop: (any EventLoop)? = nil) {
        self.eventLoop = eventLoop
        self.cameraID = cameraID
        self.variant = variant
        self.maxFragments = maxFragments
        self.maxBytes = maxBytes
    }

    /// The next message, waiting for one; nil once the viewer is closed.
    public func next() async -> ViewerMessage? {
        await nextEntry()?.message
    }

    /// The next message and, for a live fragment, when the last RTP packet of its frame arrived.
    public func nextTimed() async -> (message: ViewerMessage, arrival: NIODeadline?)? {
        guard let entry = await nextEntry() else { return nil }
        return (entry.message, entry.arrival)
    }

    private func nextEntry() async -> Entry? {
        await withCheckedContinuation { continuation in
            let ready: Entry?? = state.withLockedValue { state in
                if let entry = state.queue.popFirst() {
                    Self.accountRemoval(of: entry.message, in: &state)
                    return .some(entry)
                }
                if state.closed { return .some(nil) }
                precondition(state.waiter == nil, "Viewer.next() called concurrently")
                state.waiter = continuation
                return .none
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Stop receiving video (the cell is off-screen or the tab hidden). Status messages still come.
    public func pause() {
        state.withLockedValue { state in
            state.paused = true
            state.queue.removeAll { if case .fragment = $0.message { return true } else { return false } }
            state.queuedFragments = 0
            state.queuedBytes = 0
        }
    }

    /// Receive video again, from the cached GOP (a picture at once).
    public func resume() {
        let wasPaused = state.withLockedValue { state -> Bool in
            defer { state.paused = false }
            return state.paused
        }
        if wasPaused, let onResume = onResume.withLockedValue({ $0 }) { onResume(self) }
    }

    public func close() {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Entry?, Never>? in
            guard !state.closed else { return nil }
            state.closed = true
            state.queue.removeAll()
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
        if let onClose = onClose.withLockedValue({ $0 }) { onClose(self) }
    }

    public var isClosed: Bool { state.withLockedValue { $0.closed } }
    public var isPaused: Bool { state.withLockedValue { $0.paused } }

    /// How often the viewer fell behind and skipped to a keyframe, and how many fragments it lost.
    public var skipStatistics: (skips: Int, droppedFragments: Int, deliveredFragments: Int) {
        state.withLockedValue { ($0.skips, $0.droppedFragments, $0.deliveredFragments) }
    }

    // MARK: - Producer side (never blocks)

    /// Queue a message. `force` (the priming of a new or resumed viewer with the cached GOP) ignores the
    /// pause and the queue limits: a GOP is only useful whole. `arrival`: when the last packet of a live
    /// fragment's frame came in.
    func push(_ message: ViewerMessage, force: Bool = false, arrival: NIODeadline? = nil) {
        let waiter = state.withLockedValue { state -> (CheckedContinuation<Entry?, Never>, Entry)? in
            guard !state.closed else { return nil }
            switch message {
            case .fragment(let bytes, let isKeyframe):
                if state.paused && !force { return nil }
                if state.waitingForKeyframe {
                    guard isKeyframe else {
                        state.droppedFragments += 1
                        return nil
                    }
                    state.waitingForKeyframe = false
                }
                if !force && (state.queuedFragments + 1 > maxFragments || state.queuedBytes + bytes.readableBytes > maxBytes) {
                    // Fallen behind: drop the queued video and start again at a keyframe.
                    state.skips += 1
                    state.droppedFragments += state.queuedFragments
                    state.queue.removeAll { if case .fragment = $0.message { return true } else { return false } }
                    state.queuedFragments = 0
                    state.queuedBytes = 0
                    guard isKeyframe else {
                        state.waitingForKeyframe = true
                        state.droppedFragments += 1
                        return nil
                    }
                }
            case .initialization:
                // A new format: whatever video is queued belongs to the old one.
                state.queue.removeAll { if case .fragment = $0.message { return true } else { return false } }
                state.queuedFragments = 0
                state.queuedBytes = 0
                state.waitingForKeyframe = true
            case .status:
                // Only the latest status matters.
                state.queue.removeAll { if case .status = $0.message { return true } else { return false } }
            }
            if let waiter = state.waiter {
                state.waiter = nil
                if case .fragment = message { state.deliveredFragments += 1 }
                return (waiter, Entry(message: message, arrival: arrival))
            }
            state.queue.append(Entry(message: message, arrival: arrival))
            if case .fragment(let bytes, _) = message {
                state.queuedFragments += 1
                state.queuedBytes += bytes.readableBytes
            }
            return nil
        }
        if let (continuation, entry) = waiter { continuation.resume(returning: entry) }
    }

    private static func accountRemoval(of message: ViewerMessage, in state: inout State) {
        if case .fragment(let bytes, _) = message {
            state.queuedFragments -= 1
            state.queuedBytes -= bytes.readableBytes
            state.deliveredFragments += 1
        }
    }
}
