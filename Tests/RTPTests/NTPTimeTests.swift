import Foundation
import Testing
@testable import RTP

@Suite("NTPTime (RFC 3550 §4, RFC 4330 §3)")
struct NTPTimeTests {
    @Test func unixEpoch() {
        #expect(NTPTime.date(fromNTP: 2_208_988_800 << 32) == Date(timeIntervalSince1970: 0))
        #expect(NTPTime.timestamp(from: Date(timeIntervalSince1970: 0)) == 2_208_988_800 << 32)
    }

    @Test func fractionIsBinary() {
        let ntp: UInt64 = (2_208_988_800 + 10) << 32 | 0x4000_0000
        #expect(NTPTime.date(fromNTP: ntp) == Date(timeIntervalSince1970: 10.25))
        #expect(NTPTime.timestamp(from: Date(timeIntervalSince1970: 10.25)) == ntp)
    }

    @Test func era1AfterThe2036Rollover() {
        // Seconds field 0 with its top bit clear: 2036-02-07T06:28:16Z (RFC 4330 §3).
        #expect(NTPTime.date(fromNTP: 0) == Date(timeIntervalSince1970: 2_085_978_496))
        let later = Date(timeIntervalSince1970: 2_085_978_496 + 86400.5)
        #expect(NTPTime.timestamp(from: later) == 86400 << 32 | 0x8000_0000)
        #expect(NTPTime.date(fromNTP: NTPTime.timestamp(from: later)) == later)
    }

    @Test func roundTripsToTheNanosecond() {
        for seconds in [1_000_000_000.123456789, 1_704_067_200.999999, 1_900_000_000.5] {
            let date = Date(timeIntervalSince1970: seconds)
            let back = NTPTime.date(fromNTP: NTPTime.timestamp(from: date))
            #expect(abs(back.timeIntervalSince(date)) < 1e-6, "\(seconds)")
        }
    }

    @Test func compactFormsForReceiverReports() {
        #expect(NTPTime.compact(0x1234_5678_9ABC_DEF0) == 0x5678_9ABC)
        #expect(NTPTime.compactDelay(seconds: 1.5) == 0x0001_8000)
        #expect(NTPTime.compactDelay(seconds: -1) == 0)
        #expect(NTPTime.compactDelay(seconds: 1e12) == UInt32.max)
    }
}
