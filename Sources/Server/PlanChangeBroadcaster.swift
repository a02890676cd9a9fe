import Foundation
import NIOConcurrencyHelpers

/// What changed on the floor plans, for the `plans` server-sent event: viewers of the plan (or of the site
/// list) load it again.
struct PlanChange: Codable, Sendable, Equatable {
    /// "site", "plan", "image" or "placement".
    var kind: String
    var siteID: UUID?
    var planID: UUID?
}

/// Tells every subscriber about each `PlanChange` (a slow subscriber keeps the newest 64).
final class PlanChangeBroadcaster: Sendable {
    private let subscribers = NIOLockedValueBox<[UUID: AsyncStream<PlanChange>.Continuation]>([:])

    func subscribe() -> AsyncStream<PlanChange> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: PlanChange.self, bufferingPolicy: .bufferingNewest(64))
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLockedValue { $0.removeValue(forKey: id) }
        }
        subscribers.withLockedValue { $0[id] = continuation }
        return stream
    }

    func notify(_ change: PlanChange) {
        for subscriber in subscribers.withLockedValue({ Array($0.values) }) { subscriber.yield(change) }
    }

    func finish() {
        let all = subscribers.withLockedValue { subscribers in
            defer { subscribers.removeAll() }
            return Array(subscribers.values)
        }
        for subscriber in all { subscriber.finish() }
    }
}
