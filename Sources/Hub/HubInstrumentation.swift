import NIOConcurrencyHelpers
import NIOCore

/// Opt-in measurements of the live path (`watchbox serve --instrument`, `GET /api/debug/hub`), for the
/// benchmark suite (issue #6): the latency the hub adds to each live fragment, from the arrival of the last
/// RTP packet of its access unit (``RTSPClient/MediaFrame/receivedAt``) to the moment the fragment has been
/// written to the viewer's WebSocket; and how many frames came in. Off by default: then the hub holds no
/// instance and the live path does no more than test an optional.
public final class HubInstrumentation: Sendable {
    /// What `GET /api/debug/hub` answers (durations in microseconds).
    public struct Snapshot: Codable, Sendable, Equatable {
        /// Fragments timed (live fragments written to a viewer; the cached GOP sent to a newcomer is not).
        public var fragments: Int
        public var p50Micros: Double
        public var p99Micros: Double
        public var maxMicros: Double
        public var meanMicros: Double
        /// Video frames that reached the hub's streams (after the depacketizer).
        public var framesIn: Int
    }

    /// Resolution of the histogram; samples past its end land in the last bucket (the maximum stays exact).
    static let bucketMicros = 10
    static let bucketCount = 10_000  // 0 ..< 100 ms

    private struct State {
        var buckets = [Int](repeating: 0, count: HubInstrumentation.bucketCount)
        var count = 0
        var sumNanos: Int64 = 0
        var maxNanos: Int64 = 0
        var framesIn = 0
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    /// One live fragment written to a viewer: `arrival` is when the last packet of its frame came in.
    public func fragmentWritten(arrival: NIODeadline, now: NIODeadline = .now()) {
        let nanos = max(0, (now - arrival).nanoseconds)
        let bucket = min(Int(nanos / 1000) / Self.bucketMicros, Self.bucketCount - 1)
        state.withLockedValue { state in
            state.buckets[bucket] += 1
            state.count += 1
            state.sumNanos += nanos
            state.maxNanos = max(state.maxNanos, nanos)
        }
    }

    func frameArrived() {
        state.withLockedValue { $0.framesIn += 1 }
    }

    /// Forget everything measured so far (the start of a measurement window).
    public func reset() {
        state.withLockedValue { $0 = State() }
    }

    public func snapshot() -> Snapshot {
        state.withLockedValue { state in
            Snapshot(fragments: state.count,
                     p50Micros: Self.percentile(0.50, of: state), p99Micros: Self.percentile(0.99, of: state),
                     maxMicros: Double(state.maxNanos) / 1000,
                     meanMicros: state.count == 0 ? 0 : Double(state.sumNanos) / Double(state.count) / 1000,
                     framesIn: state.framesIn)
        }
    }

    /// The upper edge of the bucket holding the sample of rank ⌈q·n⌉ (never above the true maximum).
    private static func percentile(_ q: Double, of state: State) -> Double {
        guard state.count > 0 else { return 0 }
        let rank = max(1, Int((q * Double(state.count)).rounded(.up)))
        var seen = 0
        for (index, count) in state.buckets.enumerated() where count > 0 {
            seen += count
            if seen >= rank {
                return min(Double((index + 1) * bucketMicros), Double(state.maxNanos) / 1000)
            }
        }
        return Double(state.maxNanos) / 1000
    }
}
