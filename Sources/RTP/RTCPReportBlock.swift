import NIOCore

/// RFC 3550 §6.4.1 / §6.4.2 report block: reception statistics about one source,
/// carried in sender and receiver reports.
public struct RTCPReportBlock: Sendable, Equatable {
    /// RFC 3550 §6.4.1 "SSRC_n (source identifier)": the source this block reports on.
    public var ssrc: UInt32
    /// RFC 3550 §6.4.1 "fraction lost": packets lost since the previous report, as a fraction of 256.
    public var fractionLost: UInt8
    /// RFC 3550 §6.4.1 "cumulative number of packets lost": a 24-bit signed value
    /// (−8388608…8388607); duplicates can make it negative. Clamped to that range on the wire.
    public var cumulativeLost: Int32
    /// RFC 3550 §6.4.1 "extended highest sequence number received": wrap cycles in the high 16 bits.
    public var extendedHighestSequence: UInt32
    /// RFC 3550 §6.4.1 "interarrival jitter", in RTP timestamp units.
    public var jitter: UInt32
    /// RFC 3550 §6.4.1 "last SR timestamp (LSR)": middle 32 bits of the last SR's NTP timestamp, 0 if none.
    public var lastSR: UInt32
    /// RFC 3550 §6.4.1 "delay since last SR (DLSR)", in units of 1/65536 second, 0 if no SR yet.
    public var delaySinceLastSR: UInt32

    /// Bytes of one block on the wire.
    public static let encodedLength = 24
    /// RFC 3550 §6.4.1 "RC" is 5 bits.
    public static let maximumPerPacket = 31
    /// The 24-bit signed range of `cumulativeLost`.
    public static let cumulativeLostRange: ClosedRange<Int32> = -0x80_0000...0x7F_FFFF

    public init(
        ssrc: UInt32,
        fractionLost: UInt8,
        cumulativeLost: Int32,
        extendedHighestSequence: UInt32,
        jitter: UInt32,
        lastSR: UInt32,
        delaySinceLastSR: UInt32
    ) {
        self.ssrc = ssrc
        self.fractionLost = fractionLost
        self.cumulativeLost = cumulativeLost
        self.extendedHighestSequence = extendedHighestSequence
        self.jitter = jitter
        self.lastSR = lastSR
        self.delaySinceLastSR = delaySinceLastSR
    }

    /// Reads a block at `index`, nil if fewer than 24 bytes are readable there.
    init?(from buffer: ByteBuffer, at index: Int) {
        guard let ssrc = buffer.getInteger(at: index, as: UInt32.self),
              let lossWord = buffer.getInteger(at: index + 4, as: UInt32.self),
              let highest = buffer.getInteger(at: index + 8, as: UInt32.self),
              let jitter = buffer.getInteger(at: index + 12, as: UInt32.self),
              let lastSR = buffer.getInteger(at: index + 16, as: UInt32.self),
              let delay = buffer.getInteger(at: index + 20, as: UInt32.self)
        else { return nil }
        self.ssrc = ssrc
        self.fractionLost = UInt8(lossWord >> 24)
        // Sign-extend the 24-bit two's complement value.
        self.cumulativeLost = Int32(bitPattern: lossWord << 8) >> 8
        self.extendedHighestSequence = highest
        self.jitter = jitter
        self.lastSR = lastSR
        self.delaySinceLastSR = delay
    }

    /// Appends the 24-byte block.
    public func write(into buffer: inout ByteBuffer) {
        let lost = min(max(cumulativeLost, Self.cumulativeLostRange.lowerBound), Self.cumulativeLostRange.upperBound)
        buffer.writeInteger(ssrc)
        buffer.writeInteger(UInt32(fractionLost) << 24 | UInt32(bitPattern: lost) & 0x00FF_FFFF)
        buffer.writeInteger(extendedHighestSequence)
        buffer.writeInteger(jitter)
        buffer.writeInteger(lastSR)
        buffer.writeInteger(delaySinceLastSR)
    }
}
