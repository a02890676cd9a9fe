import Foundation
import Testing
@testable import RTP

@Suite("JitterEstimator (RFC 3550 §6.4.1, A.8)")
struct JitterEstimatorTests {
    @Test func steadyStreamHasNoJitter() {
        var estimator = JitterEstimator(clockRate: 90000)
        for i in 0..<100 {
            estimator.record(rtpTimestamp: UInt32(i * 3600), arrival: 5 + Double(i) * 0.04)
        }
        #expect(estimator.jitter == 0)
    }

    /// Every other packet 10 ms (900 ticks) late: |D| is always 900, so J converges to 900
    /// as J_n = 900 · (1 − (15/16)^n).
    @Test func convergesToTheMeanDeviation() {
        var estimator = JitterEstimator(clockRate: 90000)
        estimator.record(rtpTimestamp: 0, arrival: 0)
        estimator.record(rtpTimestamp: 3600, arrival: 0.05)
        #expect(estimator.jitter == 56)  // 900 / 16 = 56.25
        for i in 2..<200 {
            estimator.record(rtpTimestamp: UInt32(i * 3600), arrival: Double(i) * 0.04 + (i % 2 == 1 ? 0.01 : 0))
        }
        #expect(estimator.jitter == 900)
        #expect(abs(estimator.jitterSeconds - 0.01) < 1e-6)
    }

    @Test func survivesTheTimestampWrap() {
        var estimator = JitterEstimator(clockRate: 90000)
        var timestamp: UInt32 = 0xFFFF_0000
        for i in 0..<100 {
            estimator.record(rtpTimestamp: timestamp, arrival: Double(i) * 0.04)
            timestamp &+= 3600
        }
        #expect(timestamp < 0xFFFF_0000)
        #expect(estimator.jitter == 0)
    }

    @Test func acceptsContinuousClockInstants() {
        var estimator = JitterEstimator(clockRate: 8000)
        let start = ContinuousClock.now
        estimator.record(rtpTimestamp: 0, arrival: start)
        estimator.record(rtpTimestamp: 160, arrival: start + .milliseconds(20))
        #expect(estimator.jitter == 0)
        estimator.record(rtpTimestamp: 320, arrival: start + .milliseconds(60))  // 20 ms = 160 ticks late
        #expect(estimator.jitter == 10)
    }

    @Test func resetForgetsThePreviousPacketOnly() {
        var estimator = JitterEstimator(clockRate: 90000)
        estimator.record(rtpTimestamp: 0, arrival: 0)
        estimator.record(rtpTimestamp: 3600, arrival: 0.05)
        estimator.reset()
        estimator.record(rtpTimestamp: 123_456_789, arrival: 1000)  // a new numbering: no huge D
        #expect(estimator.jitter == 56)
    }
}
