import Foundation
import NIOCore

/// RFC 3550 §6.4.1 SR: the sender information section of a sender report.
///
/// The report blocks that may follow it are carried beside it, in
/// `RTCPPacket.senderReport(_:reports:)`.
public struct RTCPSenderReport: Sendable, Equatable {
    /// RFC 3550 §6.4.1 "SSRC of sender".
    public var ssrc: UInt32
    /// RFC 3550 §6.4.1 "NTP timestamp": wallclock time when the report was sent, 32.32 fixed point
    /// seconds since 1900-01-01 UTC; zero when the sender has no notion of wallclock time.
    public var ntpTimestamp: UInt64
    /// RFC 3550 §6.4.1 "RTP timestamp": the same instant as `ntpTimestamp`, in RTP timestamp units.
    public var rtpTimestamp: UInt32
    /// RFC 3550 §6.4.1 "sender's packet count" since starting transmission (wraps).
    public var packetCount: UInt32
    /// RFC 3550 §6.4.1 "sender's octet count": payload octets since starting transmission (wraps).
    public var octetCount: UInt32

    /// RFC 3550 §6.4.1 SR packet type.
    public static let packetType: UInt8 = 200

    public init(ssrc: UInt32, ntpTimestamp: UInt64, rtpTimestamp: UInt32, packetCount: UInt32, octetCount: UInt32) {
        self.ssrc = ssrc
        self.ntpTimestamp = ntpTimestamp
        self.rtpTimestamp = rtpTimestamp
        self.packetCount = packetCount
        self.octetCount = octetCount
    }

    /// The wallclock time of `ntpTimestamp` (RFC 4330 §3 era rule past 2036).
    public var date: Date {
        NTPTime.date(fromNTP: ntpTimestamp)
    }

    /// RFC 3550 §6.4.1 "LSR": the middle 32 bits of `ntpTimestamp`, which a receiver report
    /// block echoes as `lastSR`.
    public var compactNTPTimestamp: UInt32 {
        NTPTime.compact(ntpTimestamp)
    }

    /// Appends an SR packet (RFC 3550 §6.4.1) with these report blocks.
    ///
    /// - Precondition: at most 31 report blocks (the 5-bit RC field).
    public func write(reports: [RTCPReportBlock] = [], into buffer: inout ByteBuffer) {
        precondition(reports.count <= RTCPReportBlock.maximumPerPacket,
                     "an RTCP sender report holds at most 31 report blocks, got \(reports.count) (RFC 3550 §6.4.1)")
        let words = 6 + 6 * reports.count  // header + sender info (24 bytes) + blocks, minus one word
        buffer.writeInteger(UInt8(0x80 | reports.count))
        buffer.writeInteger(Self.packetType)
        buffer.writeInteger(UInt16(words))
        buffer.writeInteger(ssrc)
        buffer.writeInteger(ntpTimestamp)
        buffer.writeInteger(rtpTimestamp)
        buffer.writeInteger(packetCount)
        buffer.writeInteger(octetCount)
        for report in reports {
            report.write(into: &buffer)
        }
    }
}
