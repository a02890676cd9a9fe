import NIOCore

/// An RTP data packet: RFC 3550 §5.1 fixed header, §5.3.1 header extension and padding.
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |V=2|P|X|  CC   |M|     PT      |       sequence number         |
/// |                           timestamp                           |
/// |           synchronization source (SSRC) identifier            |
/// |            contributing source (CSRC) identifiers             |
/// |                             ....                              |
/// ```
///
/// Parsing does not copy: `payload` and `extensionData` are slices that share the
/// input buffer's storage.
public struct RTPPacket: Sendable, Equatable {
    /// RFC 3550 §5.1 "V": the version, always 2 in a parsed packet.
    public var version: UInt8
    /// RFC 3550 §5.1 "P": the packet carries padding octets after the payload.
    ///
    /// Backed by `paddingLength`: setting `true` on a packet without padding makes
    /// `paddingLength` 1 (the count octet alone); setting `false` makes it 0.
    public var padding: Bool {
        get { paddingLength > 0 }
        set {
            if newValue {
                if paddingLength == 0 { paddingLength = 1 }
            } else {
                paddingLength = 0
            }
        }
    }
    /// RFC 3550 §5.1 "P": the number of padding octets, the last one (which holds this count)
    /// included; 0 without padding. At most 255.
    public var paddingLength: Int
    /// RFC 3550 §5.1 "M": profile-defined marker; for video (RFC 6184 §5.1) the last packet of an access unit.
    public var marker: Bool
    /// RFC 3550 §5.1 "PT": payload type, 7 bits (0–127); dynamic types (96–127) are bound by SDP.
    public var payloadType: UInt8
    /// RFC 3550 §5.1 "sequence number": +1 per packet, wraps at 65535.
    public var sequenceNumber: UInt16
    /// RFC 3550 §5.1 "timestamp": sampling instant of the first payload octet, in the payload's clock rate.
    public var timestamp: UInt32
    /// RFC 3550 §5.1 "SSRC": synchronization source identifier.
    public var ssrc: UInt32
    /// RFC 3550 §5.1 "CSRC list": contributing sources, at most 15.
    public var csrcs: [UInt32]
    /// RFC 3550 §5.3.1 "defined by profile": the 16 bits before the extension length; nil when the X bit is clear.
    public var extensionProfile: UInt16?
    /// RFC 3550 §5.3.1 header extension contents (after the 4-byte extension header), a multiple of 4 bytes.
    public var extensionData: ByteBuffer?
    /// The payload, padding removed (a slice of the parsed buffer: no copy).
    public var payload: ByteBuffer

    /// RFC 3550 §5.1: the fixed header is 12 octets.
    public static let fixedHeaderLength = 12
    /// RFC 3550 §5.1 "CC" is 4 bits.
    public static let maximumCSRCCount = 15

    /// Parses one RTP packet occupying all readable bytes of `buffer` (one UDP datagram or one
    /// RTSP interleaved frame, RFC 2326 §10.12).
    ///
    /// - Throws: `RTPParseError` when the packet is shorter than its fixed header, the version is
    ///   not 2, or the CSRC list, the header extension or the padding runs past the end.
    public init(parsing buffer: ByteBuffer) throws {
        let start = buffer.readerIndex
        let total = buffer.readableBytes
        guard total >= Self.fixedHeaderLength,
              let b0 = buffer.getInteger(at: start, as: UInt8.self),
              let b1 = buffer.getInteger(at: start + 1, as: UInt8.self),
              let sequenceNumber = buffer.getInteger(at: start + 2, as: UInt16.self),
              let timestamp = buffer.getInteger(at: start + 4, as: UInt32.self),
              let ssrc = buffer.getInteger(at: start + 8, as: UInt32.self)
        else {
            throw RTPParseError(.truncated,
                "RTP packet too short: \(total) bytes, the fixed header alone needs 12 (RFC 3550 §5.1); the datagram or interleaved frame was cut off")
        }
        let version = b0 >> 6
        guard version == 2 else {
            throw RTPParseError(.unsupportedVersion,
                "not an RTP version 2 packet: version field is \(version) (first byte 0x\(Self.hex(b0)), RFC 3550 §5.1); check that this port or interleaved channel really carries RTP")
        }
        let hasPadding = b0 & 0x20 != 0
        let hasExtension = b0 & 0x10 != 0
        let csrcCount = Int(b0 & 0x0F)

        var offset = Self.fixedHeaderLength
        let csrcEnd = offset + 4 * csrcCount
        guard csrcEnd <= total else {
            throw RTPParseError(.csrcOverrun,
                "RTP CSRC list overruns the packet: CC=\(csrcCount) needs \(csrcEnd) header bytes but the packet has \(total) (RFC 3550 §5.1)")
        }
        var csrcs: [UInt32] = []
        csrcs.reserveCapacity(csrcCount)
        while offset < csrcEnd {
            csrcs.append(buffer.getInteger(at: start + offset, as: UInt32.self)!)
            offset += 4
        }

        var extensionProfile: UInt16?
        var extensionData: ByteBuffer?
        if hasExtension {
            guard offset + 4 <= total,
                  let profile = buffer.getInteger(at: start + offset, as: UInt16.self),
                  let words = buffer.getInteger(at: start + offset + 2, as: UInt16.self)
            else {
                throw RTPParseError(.extensionOverrun,
                    "RTP header extension overruns the packet: X bit set but only \(total - offset) bytes follow the \(offset)-byte header, the extension header needs 4 (RFC 3550 §5.3.1)")
            }
            let dataLength = Int(words) * 4
            guard offset + 4 + dataLength <= total,
                  let data = buffer.getSlice(at: start + offset + 4, length: dataLength)
            else {
                throw RTPParseError(.extensionOverrun,
                    "RTP header extension overruns the packet: it declares \(words) words (\(dataLength) bytes) but only \(total - offset - 4) bytes follow its header (RFC 3550 §5.3.1)")
            }
            extensionProfile = profile
            extensionData = data
            offset += 4 + dataLength
        }

        var paddingLength = 0
        if hasPadding {
            // RFC 3550 §5.1: the last octet counts the padding octets, itself included.
            // A packet of padding only (empty payload) is allowed; more than that is not.
            let count = Int(buffer.getInteger(at: start + total - 1, as: UInt8.self)!)
            let available = total - offset
            guard count >= 1, count <= available else {
                throw RTPParseError(.invalidPadding,
                    "RTP padding is invalid: P bit set and the last octet counts \(count) padding bytes, but it must be between 1 and the \(available) bytes after the \(offset)-byte header (RFC 3550 §5.1, A.1)")
            }
            paddingLength = count
        }

        self.version = version
        self.paddingLength = paddingLength
        self.marker = b1 & 0x80 != 0
        self.payloadType = b1 & 0x7F
        self.sequenceNumber = sequenceNumber
        self.timestamp = timestamp
        self.ssrc = ssrc
        self.csrcs = csrcs
        self.extensionProfile = extensionProfile
        self.extensionData = extensionData
        self.payload = buffer.getSlice(at: start + offset, length: total - offset - paddingLength)!
    }

    /// Builds a version 2 packet to send.
    ///
    /// - Parameters:
    ///   - payloadType: 0–127 (RFC 3550 §5.1 "PT").
    ///   - csrcs: at most 15.
    ///   - extensionProfile: sets the X bit (RFC 3550 §5.3.1); `extensionData` is then its contents,
    ///     zero-padded to a multiple of 4 bytes on the wire.
    ///   - paddingLength: 0 for none, else 1–255 padding octets, the count octet included.
    public init(
        payloadType: UInt8,
        sequenceNumber: UInt16,
        timestamp: UInt32,
        ssrc: UInt32,
        marker: Bool = false,
        csrcs: [UInt32] = [],
        extensionProfile: UInt16? = nil,
        extensionData: ByteBuffer? = nil,
        payload: ByteBuffer,
        paddingLength: Int = 0
    ) {
        precondition(payloadType <= 0x7F, "RTP payload type \(payloadType) does not fit in 7 bits (RFC 3550 §5.1)")
        precondition(csrcs.count <= Self.maximumCSRCCount, "RTP allows at most 15 CSRCs, got \(csrcs.count) (RFC 3550 §5.1)")
        precondition((0...255).contains(paddingLength), "RTP padding length \(paddingLength) is outside 0...255 (RFC 3550 §5.1)")
        self.version = 2
        self.paddingLength = paddingLength
        self.marker = marker
        self.payloadType = payloadType
        self.sequenceNumber = sequenceNumber
        self.timestamp = timestamp
        self.ssrc = ssrc
        self.csrcs = csrcs
        self.extensionProfile = extensionProfile
        self.extensionData = extensionProfile == nil ? nil : extensionData
        self.payload = payload
    }

    /// The number of bytes `write(into:)` appends.
    public var encodedLength: Int {
        var length = Self.fixedHeaderLength + 4 * csrcs.count
        if extensionProfile != nil {
            length += 4 + Self.roundedUpToWord(extensionData?.readableBytes ?? 0)
        }
        return length + payload.readableBytes + paddingLength
    }

    /// Appends the packet in wire format (RFC 3550 §5.1). Padding octets are zero but for the last,
    /// which holds `paddingLength`; extension data is zero-padded to a 32-bit boundary.
    ///
    /// - Precondition: at most 15 CSRCs, `payloadType` ≤ 127, `paddingLength` in 0...255, and
    ///   extension data of at most 65535 words.
    public func write(into buffer: inout ByteBuffer) {
        precondition(csrcs.count <= Self.maximumCSRCCount, "RTP allows at most 15 CSRCs, got \(csrcs.count) (RFC 3550 §5.1)")
        precondition(payloadType <= 0x7F, "RTP payload type \(payloadType) does not fit in 7 bits (RFC 3550 §5.1)")
        precondition((0...255).contains(paddingLength), "RTP padding length \(paddingLength) is outside 0...255 (RFC 3550 §5.1)")
        buffer.reserveCapacity(minimumWritableBytes: encodedLength)

        var b0 = (version & 0x03) << 6 | UInt8(csrcs.count)
        if paddingLength > 0 { b0 |= 0x20 }
        if extensionProfile != nil { b0 |= 0x10 }
        buffer.writeInteger(b0)
        buffer.writeInteger((marker ? 0x80 : 0) | payloadType)
        buffer.writeInteger(sequenceNumber)
        buffer.writeInteger(timestamp)
        buffer.writeInteger(ssrc)
        for csrc in csrcs {
            buffer.writeInteger(csrc)
        }
        if let extensionProfile {
            let dataLength = extensionData?.readableBytes ?? 0
            let words = Self.roundedUpToWord(dataLength) / 4
            precondition(words <= Int(UInt16.max), "RTP header extension of \(dataLength) bytes exceeds 65535 words (RFC 3550 §5.3.1)")
            buffer.writeInteger(extensionProfile)
            buffer.writeInteger(UInt16(words))
            if let extensionData {
                buffer.writeImmutableBuffer(extensionData)
            }
            buffer.writeRepeatingByte(0, count: words * 4 - dataLength)
        }
        buffer.writeImmutableBuffer(payload)
        if paddingLength > 0 {
            buffer.writeRepeatingByte(0, count: paddingLength - 1)
            buffer.writeInteger(UInt8(paddingLength))
        }
    }

    static func roundedUpToWord(_ length: Int) -> Int {
        (length + 3) & ~3
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0" + digits : digits
    }
}
