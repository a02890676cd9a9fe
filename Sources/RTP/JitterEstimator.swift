/// RFC 3550 §6.4.1 / A.8 interarrival jitter: a running estimate of how much the spacing of
/// packet arrivals differs from the spacing of their RTP timestamps, in timestamp units.
///
/// For packets i−1 and i, D = (R_i − R_{i−1}) − (S_i − S_{i−1}), where R is the arrival time and
/// S the RTP timestamp, both in timestamp units; then J += (|D| − J) / 16.
/// The timestamp difference is taken as a signed 32-bit value, so the estimate survives the wrap.
public struct JitterEstimator: Sendable {
    /// The payload's RTP clock rate in Hz (e.g. 90000 for video, RFC 3551 §5).
    public let clockRate: Int
    private var estimate = 0.0
    private var last: (timestamp: UInt32, arrivalSeconds: Double)?
    private var origin: ContinuousClock.Instant?

    /// - Precondition: `clockRate` > 0.
    public init(clockRate: Int) {
        precondition(clockRate > 0, "an RTP clock rate must be positive, got \(clockRate)")
        self.clockRate = clockRate
    }

    /// Records a packet's RTP timestamp and arrival time.
    public mutating func record(rtpTimestamp: UInt32, arrival: ContinuousClock.Instant) {
        if origin == nil {
            origin = arrival
        }
        let elapsed = arrival - origin!
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        record(rtpTimestamp: rtpTimestamp, arrival: seconds)
    }

    /// Records a packet's RTP timestamp and arrival time in seconds on any monotonic clock.
    /// Non-finite times are ignored.
    public mutating func record(rtpTimestamp: UInt32, arrival seconds: Double) {
        guard seconds.isFinite else { return }
        if let last {
            let arrivalDelta = (seconds - last.arrivalSeconds) * Double(clockRate)
            let timestampDelta = Double(Int32(bitPattern: rtpTimestamp &- last.timestamp))
            let d = abs(arrivalDelta - timestampDelta)
            estimate += (d - estimate) / 16
        }
        last = (rtpTimestamp, seconds)
    }

    /// RFC 3550 §6.4.1 "interarrival jitter" in timestamp units, as a report block carries it.
    public var jitter: UInt32 {
        let rounded = estimate.rounded()
        guard rounded < Double(UInt32.max) else { return UInt32.max }
        return rounded > 0 ? UInt32(rounded) : 0
    }

    /// The estimate in seconds.
    public var jitterSeconds: Double {
        estimate / Double(clockRate)
    }

    /// Forgets the previous packet (after a source restart) while keeping the estimate.
    public mutating func reset() {
        last = nil
    }
}
