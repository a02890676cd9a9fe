import Foundation

/// Exponential backoff with jitter between reconnect attempts: 0.5 s doubling to 10 s by default.
public struct ReconnectPolicy: Sendable, Equatable {
    public var initialDelay: Duration
    public var maximumDelay: Duration
    public var multiplier: Double
    /// ± this fraction of the delay, so that many cameras behind one switch do not reconnect in lockstep.
    public var jitter: Double
    /// The pace after a permanent error (wrong password, unsupported codec): slow, so a camera does not lock the account.
    public var permanentErrorDelay: Duration

    public init(initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(10),
                multiplier: Double = 2, jitter: Double = 0.2, permanentErrorDelay: Duration = .seconds(60)) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.multiplier = multiplier
        self.jitter = jitter
        self.permanentErrorDelay = permanentErrorDelay
    }

    /// The delay before attempt `attempt` (1 = first retry), without jitter.
    public func baseDelay(attempt: Int) -> Duration {
        let initial = Double(initialDelay.components.seconds) + Double(initialDelay.components.attoseconds) / 1e18
        let maximum = Double(maximumDelay.components.seconds) + Double(maximumDelay.components.attoseconds) / 1e18
        let seconds = min(maximum, initial * pow(multiplier, Double(max(0, attempt - 1))))
        return .milliseconds(Int64(seconds * 1000))
    }

    /// The delay with jitter applied, drawn from `random` (injectable for tests).
    public func delay<R: RandomNumberGenerator>(attempt: Int, using random: inout R) -> Duration {
        let base = baseDelay(attempt: attempt)
        let ms = Double(base.components.seconds * 1000) + Double(base.components.attoseconds) / 1e15
        let factor = 1 + Double.random(in: -jitter...jitter, using: &random)
        return .milliseconds(Int64(max(1, ms * factor)))
    }

    public func delay(attempt: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return delay(attempt: attempt, using: &generator)
    }
}
