import Foundation
import NIOConcurrencyHelpers

/// Tells every subscriber that the camera list changed (added, removed, reordered, renamed).
final class ChangeBroadcaster: Sendable {
    private let subscribers = NIOLockedValueBox<[UUID: AsyncStream<Void>.Continuation]>([:])

    func subscribe() -> AsyncStream<Void> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLockedValue { $0.removeValue(forKey: id) }
        }
        subscribers.withLockedValue { $0[id] = continuation }
        return stream
    }

    func notify() {
        for subscriber in subscribers.withLockedValue({ Array($0.values) }) { subscriber.yield() }
    }

    func finish() {
        let all = subscribers.withLockedValue { subscribers in
            defer { subscribers.removeAll() }
            return Array(subscribers.values)
        }
        for subscriber in all { subscriber.finish() }
    }
}
