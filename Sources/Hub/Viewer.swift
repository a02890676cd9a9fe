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

/// Takes a viewer's messages on its own event loop, as soon as they are queued, without a task in between
/// (the live WebSocket writes them straight into its channel). See ``Viewer/attach(_:)``.
public protocol ViewerConsumer: AnyObject, Sendable {
    /// The loop ``drain()`` runs on: the viewer's connection's.
    var eventLoop: any EventLoop { get }
    /// Called on ``eventLoop`` when messages are waiting or the viewer closed: take them with
    /// ``Viewer/poll()`` until it answers `.empty` (then the next message calls again), or stop early
    /// (backpressure) and call ``drain()`` again later yourself.
    func drain()
}

/// One live viewer's bounded queue. The camera's stream pushes into it without ever waiting; the
/// viewer's connection pulls with ``next()``, or an attached ``ViewerConsumer`` takes each message on its
/// event loop as it comes (``poll()``). A viewer that falls behind (more than `maxFragments`
/// or `maxBytes` queued) loses what is queued and skips ahead to the next keyframe: it never slows
/// the camera or other viewers, and what it does receive always decodes.
public final class Viewer: Sendable {
    public let id = UUID()
    public let cameraID: UUID
    public let variant: StreamVariant
    /// The event loop of the viewer's connection, which its camera's upstream shares when it can (a consumer
    /// on it is then written to without a thread hop, see ``attach(_:)``). nil: no preference.
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
        var consumer: (any ViewerConsumer)?
        /// A drain of the consumer is pending (asked for and not yet answered `.empty` by ``poll()``).
        var drainPending = false
        var skips = 0
        var droppedFragments = 0
        var deliveredFragments = 0

        /// The consumer to wake, when one is attached and no drain is pending yet (then one is).
        mutating func takeDrainRequest() -> (any ViewerConsumer)? {
            guard let consumer, !drainPending else { return nil }
            drainPending = true
            return consumer
        }
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

    private func nextEntry() async -> Entry? {
        await withCheckedContinuation { continuation in
            let ready: Entry?? = state.withLockedValue { state in
                if let entry = state.queue.popFirst() {
                    Self.accountRemoval(of: entry.message, in: &state)
                    return .some(entry)
                }
                if state.closed { return .some(nil) }
                precondition(state.waiter == nil, "Viewer.next() called concurrently")
                precondition(state.consumer == nil, "Viewer.next() on a viewer with a consumer attached")
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
        let (waiter, consumer) = state.withLockedValue { state -> (CheckedContinuation<Entry?, Never>?, (any ViewerConsumer)?) in
            guard !state.closed else { return (nil, nil) }
            state.closed = true
            state.queue.removeAll()
            defer { state.waiter = nil }
            // Told even with a drain pending: one held back by a full socket must still learn of the close.
            state.drainPending = state.consumer != nil
            return (state.waiter, state.consumer)
        }
        waiter?.resume(returning: nil)
        if let consumer { Self.scheduleDrains([consumer]) }
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
    /// An attached consumer is woken at once (``enqueue(_:force:arrival:)`` leaves that to the caller).
    func push(_ message: ViewerMessage, force: Bool = false, arrival: NIODeadline? = nil) {
        if let consumer = enqueue(message, force: force, arrival: arrival) { Self.scheduleDrains([consumer]) }
    }

    /// As ``push(_:force:arrival:)``, but returns the attached consumer when it must be woken (pass it to
    /// ``scheduleDrains(_:)``, which batches the wake-ups of many viewers); nil when there is none to wake.
    func enqueue(_ message: ViewerMessage, force: Bool = false, arrival: NIODeadline? = nil) -> (any ViewerConsumer)? {
        let (waiter, consumer) = state.withLockedValue { state -> ((CheckedContinuation<Entry?, Never>, Entry)?, (any ViewerConsumer)?) in
            guard !state.closed else { return (nil, nil) }
            switch message {
            case .fragment(let bytes, let isKeyframe):
                if state.paused && !force { return (nil, nil) }
                if state.waitingForKeyframe {
                    guard isKeyframe else {
                        state.droppedFragments += 1
                        return (nil, nil)
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
                        return (nil, nil)
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
                return ((waiter, Entry(message: message, arrival: arrival)), nil)
            }
            state.queue.append(Entry(message: message, arrival: arrival))
            if case .fragment(let bytes, _) = message {
                state.queuedFragments += 1
                state.queuedBytes += bytes.readableBytes
            }
            return (nil, state.takeDrainRequest())
        }
        if let (continuation, entry) = waiter { continuation.resume(returning: entry) }
        return consumer
    }

    // MARK: - Consumer side (push mode)

    /// What ``poll()`` found.
    public enum Polled {
        /// The next message, and for a live fragment when the last RTP packet of its frame arrived.
        case message(ViewerMessage, arrival: NIODeadline?)
        /// Nothing waiting: the consumer's ``ViewerConsumer/drain()`` is called again with the next message.
        case empty
        /// The viewer was closed on the hub's side (camera removed, server stopping) or by ``close()``; the
        /// viewer no longer holds the consumer.
        case closed
    }

    /// Hands this viewer's messages to `consumer` from now on, on its event loop (instead of ``next()``).
    public func attach(_ consumer: any ViewerConsumer) {
        let wake = state.withLockedValue { state -> (any ViewerConsumer)? in
            precondition(state.consumer == nil && state.waiter == nil, "a viewer has one consumer")
            state.consumer = consumer
            return state.queue.isEmpty && !state.closed ? nil : state.takeDrainRequest()
        }
        if let wake { Self.scheduleDrains([wake]) }
    }

    /// The next queued message, without waiting (for an attached consumer, on its loop).
    public func poll() -> Polled {
        state.withLockedValue { state in
            if let entry = state.queue.popFirst() {
                Self.accountRemoval(of: entry.message, in: &state)
                return .message(entry.message, arrival: entry.arrival)
            }
            state.drainPending = false
            guard state.closed else { return .empty }
            // Told: let go of the consumer (it holds this viewer; the pair would otherwise keep each other).
            state.consumer = nil
            return .closed
        }
    }

    /// Runs each consumer's ``ViewerConsumer/drain()``: at once for those on the calling thread's event loop,
    /// and with one hop per other loop for the rest (a camera fanning out to many viewers wakes each loop once).
    static func scheduleDrains(_ consumers: [any ViewerConsumer]) {
        var elsewhere: [(loop: any EventLoop, consumers: [any ViewerConsumer])] = []
        for consumer in consumers {
            let loop = consumer.eventLoop
            if loop.inEventLoop {
                consumer.drain()
            } else if let index = elsewhere.firstIndex(where: { $0.loop === loop }) {
                elsewhere[index].consumers.append(consumer)
            } else {
                elsewhere.append((loop, [consumer]))
            }
        }
        for (loop, group) in elsewhere {
            loop.execute { for consumer in group { consumer.drain() } }
        }
    }

    private static func accountRemoval(of message: ViewerMessage, in state: inout State) {
        if case .fragment(let bytes, _) = message {
            state.queuedFragments -= 1
            state.queuedBytes -= bytes.readableBytes
            state.deliveredFragments += 1
        }
    }
}
