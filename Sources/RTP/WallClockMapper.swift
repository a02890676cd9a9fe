import Foundation

/// Maps a source's RTP timestamps to wallclock dates using the NTP/RTP timestamp pair of its
/// latest RTCP sender report (RFC 3550 §6.4.1: "the same time as the NTP timestamp … but in the
/// same units and with the same random offset as the RTP timestamps in data packets").
///
/// A timestamp is placed relative to the report's by their signed 32-bit difference, so times
/// on either side of the report, and across the 32-bit wrap, map correctly within ±2^31 ticks.
/// Reports whose NTP timestamp is zero (the sender has no wallclock, §6.4.1) are ignored.
public struct WallClockMapper: Sendable {
    /// The payload's RTP clock rate in Hz.
    public let clockRate: Int
    private var reference: (rtpTimestamp: UInt32, date: Date)?

    /// - Precondition: `clockRate` > 0.
    public init(clockRate: Int) {
        precondition(clockRate > 0, "an RTP clock rate must be positive, got \(clockRate)")
        self.clockRate = clockRate
    }

    /// Takes the report's NTP/RTP pair as the new reference (unless its NTP timestamp is zero).
    public mutating func update(with report: RTCPSenderReport) {
        guard report.ntpTimestamp != 0 else { return }
        reference = (report.rtpTimestamp, report.date)
    }

    /// The wallclock time of `timestamp`, nil before the first usable sender report.
    public func date(forRTPTimestamp timestamp: UInt32) -> Date? {
        guard let reference else { return nil }
        let ticks = Int32(bitPattern: timestamp &- reference.rtpTimestamp)
        return reference.date.addingTimeInterval(Double(ticks) / Double(clockRate))
    }

    /// Whether a usable sender report has been seen.
    public var hasSenderReport: Bool {
        reference != nil
    }

    /// Forgets the reference (after a source restart, whose RTP timestamps start from a new random offset).
    public mutating func reset() {
        reference = nil
    }
}
