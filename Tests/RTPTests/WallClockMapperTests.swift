import Foundation
import Testing
@testable import RTP

@Suite("WallClockMapper (RFC 3550 §6.4.1 NTP↔RTP)")
struct WallClockMapperTests {
    /// 2024-01-01T00:00:00Z.
    static let reference = Date(timeIntervalSince1970: 1_704_067_200)
    static let ntp2024: UInt64 = 0xE93C_7F00_0000_0000

    private func report(ntp: UInt64 = ntp2024, rtp: UInt32) -> RTCPSenderReport {
        RTCPSenderReport(ssrc: 1, ntpTimestamp: ntp, rtpTimestamp: rtp, packetCount: 0, octetCount: 0)
    }

    @Test func nothingBeforeTheFirstSenderReport() {
        let mapper = WallClockMapper(clockRate: 90000)
        #expect(!mapper.hasSenderReport)
        #expect(mapper.date(forRTPTimestamp: 1234) == nil)
    }

    @Test func mapsAroundTheReportTimestamp() throws {
        var mapper = WallClockMapper(clockRate: 90000)
        mapper.update(with: report(rtp: 1_000_000))
        #expect(mapper.hasSenderReport)
        #expect(mapper.date(forRTPTimestamp: 1_000_000) == Self.reference)
        let later = try #require(mapper.date(forRTPTimestamp: 1_000_000 + 135_000))
        #expect(abs(later.timeIntervalSince(Self.reference) - 1.5) < 1e-6)
        let earlier = try #require(mapper.date(forRTPTimestamp: 1_000_000 - 45_000))
        #expect(abs(earlier.timeIntervalSince(Self.reference) + 0.5) < 1e-6)
    }

    @Test func mapsAcrossTheWrapBothWays() throws {
        var mapper = WallClockMapper(clockRate: 90000)
        mapper.update(with: report(rtp: 0xFFFF_0000))
        let afterWrap = try #require(mapper.date(forRTPTimestamp: 0x0000_FFFF))  // 0x1FFFF ticks later
        #expect(abs(afterWrap.timeIntervalSince(Self.reference) - Double(0x1FFFF) / 90000) < 1e-6)

        mapper.update(with: report(rtp: 0x0000_1000))
        let beforeWrap = try #require(mapper.date(forRTPTimestamp: 0xFFFF_F000))  // 0x2000 ticks earlier
        #expect(abs(beforeWrap.timeIntervalSince(Self.reference) + Double(0x2000) / 90000) < 1e-6)
    }

    @Test func latestReportWins() throws {
        var mapper = WallClockMapper(clockRate: 8000)
        mapper.update(with: report(rtp: 0))
        mapper.update(with: report(ntp: Self.ntp2024 + (10 << 32), rtp: 8000))  // 10 s later on the wall, 1 s in RTP
        let date = try #require(mapper.date(forRTPTimestamp: 8000))
        #expect(abs(date.timeIntervalSince(Self.reference) - 10) < 1e-6)
    }

    @Test func reportWithoutWallclockIsIgnored() throws {
        var mapper = WallClockMapper(clockRate: 90000)
        mapper.update(with: report(ntp: 0, rtp: 5))
        #expect(!mapper.hasSenderReport)
        mapper.update(with: report(rtp: 0))
        mapper.update(with: report(ntp: 0, rtp: 90000))
        #expect(mapper.date(forRTPTimestamp: 0) == Self.reference)
    }

    @Test func resetForgetsTheReport() {
        var mapper = WallClockMapper(clockRate: 90000)
        mapper.update(with: report(rtp: 0))
        mapper.reset()
        #expect(!mapper.hasSenderReport)
        #expect(mapper.date(forRTPTimestamp: 0) == nil)
    }
}
