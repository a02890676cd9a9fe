import Foundation

/// Conversions for the 64-bit NTP timestamps that RTCP sender reports carry
/// (RFC 3550 §4: "the number of seconds relative to 0h UTC on 1 January 1900",
/// 32.32 fixed point).
public enum NTPTime {
    /// Seconds from the NTP epoch (1900-01-01) to the Unix epoch (1970-01-01).
    public static let secondsFrom1900To1970: Int64 = 2_208_988_800
    /// 2^32: one NTP second in fraction units.
    static let fractionScale = 4_294_967_296.0

    /// The date an NTP timestamp names.
    ///
    /// The 32-bit seconds field wraps on 2036-02-07; as RFC 4330 §3 prescribes, a value whose
    /// most significant bit is clear is read in era 1 (2036-02-07 to 2104), set in era 0 (1968 to 2036).
    public static func date(fromNTP timestamp: UInt64) -> Date {
        let seconds = Int64(timestamp >> 32)
        let fraction = Double(timestamp & 0xFFFF_FFFF) / fractionScale
        let era: Int64 = seconds & 0x8000_0000 == 0 ? 1 << 32 : 0
        let unixSeconds = seconds + era - secondsFrom1900To1970
        return Date(timeIntervalSince1970: Double(unixSeconds) + fraction)
    }

    /// The NTP timestamp of a date between 1968 and 2104 (RFC 4330 §3 eras 0 and 1);
    /// the seconds field wraps in 2036 as the protocol does.
    public static func timestamp(from date: Date) -> UInt64 {
        let since1970 = date.timeIntervalSince1970
        let wholeSeconds = since1970.rounded(.down)
        var fraction = ((since1970 - wholeSeconds) * fractionScale).rounded()
        var seconds = Int64(wholeSeconds) + secondsFrom1900To1970
        if fraction >= fractionScale {
            fraction = 0
            seconds += 1
        }
        return UInt64(UInt32(truncatingIfNeeded: seconds)) << 32 | UInt64(fraction)
    }

    /// RFC 3550 §6.4.1 "LSR": the middle 32 bits of an NTP timestamp (16.16 fixed point),
    /// the form receiver reports echo a sender report in.
    public static func compact(_ timestamp: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: timestamp >> 16)
    }

    /// RFC 3550 §6.4.1 "DLSR": a delay in units of 1/65536 second, saturating at the 32-bit maximum.
    public static func compactDelay(seconds: Double) -> UInt32 {
        guard seconds > 0 else { return 0 }
        let units = (seconds * 65536).rounded()
        return units >= Double(UInt32.max) ? UInt32.max : UInt32(units)
    }
}
