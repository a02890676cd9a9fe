import NIOCore

/// One RTCP packet of a compound packet (RFC 3550 §6.4–§6.6).
///
/// Every RTCP packet starts with the same 4-byte header (RFC 3550 §6.4.1):
/// ```
///  0                   1                   2                   3
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |V=2|P|    RC   |   PT=SR=200   |             length            |
/// ```
/// where `length` is the packet's size in 32-bit words minus one, header included.
public enum RTCPPacket: Sendable, Equatable {
    /// RFC 3550 §6.4.1 SR (PT 200) and its report blocks.
    case senderReport(RTCPSenderReport, reports: [RTCPReportBlock])
    /// RFC 3550 §6.4.2 RR (PT 201): the reporter's SSRC and its report blocks.
    case receiverReport(ssrc: UInt32, reports: [RTCPReportBlock])
    /// RFC 3550 §6.5 SDES (PT 202); its items are not decoded.
    case sourceDescription
    /// RFC 3550 §6.6 BYE (PT 203): the sources leaving and the optional reason.
    case goodbye(ssrcs: [UInt32], reason: String?)
    /// Any other packet type: APP (204, RFC 3550 §6.7), RTPFB/PSFB (205/206, RFC 4585), XR (207, RFC 3611)…
    case other(packetType: UInt8)

    /// RFC 3550 §6.4.2 RR packet type.
    public static let receiverReportType: UInt8 = 201
    /// RFC 3550 §6.5 SDES packet type.
    public static let sourceDescriptionType: UInt8 = 202
    /// RFC 3550 §6.6 BYE packet type.
    public static let goodbyeType: UInt8 = 203

    /// Parses a compound RTCP packet (RFC 3550 §6.1): the RTCP packets laid end to end in
    /// one datagram or interleaved frame.
    ///
    /// Tolerant, as cameras are not always exact: the §6.1/A.2 rules on the order of packets
    /// (SR or RR first, an SDES with CNAME present) are not enforced, and parsing stops at
    /// the first malformed packet, returning the ones before it.
    ///
    /// - Throws: `RTPParseError` when not even the first packet is valid (or the buffer is empty).
    public static func parseCompound(_ buffer: ByteBuffer) throws -> [RTCPPacket] {
        var packets: [RTCPPacket] = []
        var index = buffer.readerIndex
        let end = buffer.writerIndex
        var packetNumber = 1
        while index < end {
            do {
                let (packet, length) = try parseOne(buffer, at: index, end: end, packetNumber: packetNumber)
                packets.append(packet)
                index += length
                packetNumber += 1
            } catch {
                if packets.isEmpty { throw error }
                break
            }
        }
        if packets.isEmpty {
            throw RTPParseError(.truncated, "empty RTCP packet: no bytes to parse (RFC 3550 §6.1)")
        }
        return packets
    }

    /// Parses the RTCP packet at `start`; returns it and its length in bytes.
    private static func parseOne(_ buffer: ByteBuffer, at start: Int, end: Int, packetNumber: Int) throws -> (RTCPPacket, Int) {
        let context = "RTCP packet \(packetNumber) of the compound packet"
        guard end - start >= 4,
              let b0 = buffer.getInteger(at: start, as: UInt8.self),
              let packetType = buffer.getInteger(at: start + 1, as: UInt8.self),
              let words = buffer.getInteger(at: start + 2, as: UInt16.self)
        else {
            throw RTPParseError(.truncated,
                "\(context) is truncated: \(end - start) bytes left, its header needs 4 (RFC 3550 §6.4.1)")
        }
        let version = b0 >> 6
        guard version == 2 else {
            throw RTPParseError(.unsupportedVersion,
                "\(context) is not RTCP version 2: version field is \(version) (first byte 0x\(RTPPacket.hex(b0)), RFC 3550 §6.4.1); check that this port or interleaved channel carries RTCP")
        }
        let length = (Int(words) + 1) * 4
        guard length <= end - start else {
            throw RTPParseError(.truncated,
                "\(context) (type \(packetType)) is truncated: its length field says \(length) bytes but only \(end - start) remain (RFC 3550 §6.4.1)")
        }
        let count = Int(b0 & 0x1F)
        var bodyEnd = start + length
        if b0 & 0x20 != 0 {
            // RFC 3550 §6.4.1 "P": the last octet counts the padding octets, itself included.
            let padding = Int(buffer.getInteger(at: bodyEnd - 1, as: UInt8.self)!)
            guard padding >= 1, padding <= length - 4 else {
                throw RTPParseError(.invalidPadding,
                    "\(context) (type \(packetType)) has invalid padding: the last octet counts \(padding) bytes, but it must be between 1 and the \(length - 4) bytes after the header (RFC 3550 §6.4.1)")
            }
            bodyEnd -= padding
        }
        let body = start + 4
        let packet: RTCPPacket
        switch packetType {
        case RTCPSenderReport.packetType:
            packet = try parseSenderReport(buffer, body: body, bodyEnd: bodyEnd, count: count, context: context)
        case receiverReportType:
            guard let ssrc = buffer.getInteger(at: body, as: UInt32.self), body + 4 <= bodyEnd else {
                throw malformed("\(context) is an RR too short for its reporter SSRC (RFC 3550 §6.4.2)")
            }
            let reports = try parseReportBlocks(buffer, at: body + 4, bodyEnd: bodyEnd, count: count, context: context, kind: "RR")
            packet = .receiverReport(ssrc: ssrc, reports: reports)
        case sourceDescriptionType:
            // Each chunk is at least 8 bytes: an SSRC and a null-terminated, padded item list (RFC 3550 §6.5).
            guard body + 8 * count <= bodyEnd else {
                throw malformed("\(context) is an SDES declaring \(count) chunks in \(bodyEnd - body) bytes; each chunk needs at least 8 (RFC 3550 §6.5)")
            }
            packet = .sourceDescription
        case goodbyeType:
            packet = try parseGoodbye(buffer, body: body, bodyEnd: bodyEnd, count: count, context: context)
        default:
            packet = .other(packetType: packetType)
        }
        return (packet, length)
    }

    private static func parseSenderReport(_ buffer: ByteBuffer, body: Int, bodyEnd: Int, count: Int, context: String) throws -> RTCPPacket {
        guard body + 24 <= bodyEnd,
              let ssrc = buffer.getInteger(at: body, as: UInt32.self),
              let ntp = buffer.getInteger(at: body + 4, as: UInt64.self),
              let rtp = buffer.getInteger(at: body + 12, as: UInt32.self),
              let packets = buffer.getInteger(at: body + 16, as: UInt32.self),
              let octets = buffer.getInteger(at: body + 20, as: UInt32.self)
        else {
            throw malformed("\(context) is an SR with \(bodyEnd - body) bytes after its header; the sender information needs 24 (RFC 3550 §6.4.1)")
        }
        let report = RTCPSenderReport(ssrc: ssrc, ntpTimestamp: ntp, rtpTimestamp: rtp, packetCount: packets, octetCount: octets)
        // Bytes after the report blocks are profile-specific extensions (§6.4.1) and are skipped.
        let blocks = try parseReportBlocks(buffer, at: body + 24, bodyEnd: bodyEnd, count: count, context: context, kind: "SR")
        return .senderReport(report, reports: blocks)
    }

    private static func parseReportBlocks(_ buffer: ByteBuffer, at index: Int, bodyEnd: Int, count: Int, context: String, kind: String) throws -> [RTCPReportBlock] {
        guard index + count * RTCPReportBlock.encodedLength <= bodyEnd else {
            throw malformed("\(context) is an \(kind) declaring \(count) report blocks (\(count * RTCPReportBlock.encodedLength) bytes) but only \(bodyEnd - index) bytes hold them (RFC 3550 §6.4)")
        }
        var blocks: [RTCPReportBlock] = []
        blocks.reserveCapacity(count)
        for i in 0..<count {
            blocks.append(RTCPReportBlock(from: buffer, at: index + i * RTCPReportBlock.encodedLength)!)
        }
        return blocks
    }

    private static func parseGoodbye(_ buffer: ByteBuffer, body: Int, bodyEnd: Int, count: Int, context: String) throws -> RTCPPacket {
        guard body + 4 * count <= bodyEnd else {
            throw malformed("\(context) is a BYE declaring \(count) sources (\(4 * count) bytes) but only \(bodyEnd - body) bytes hold them (RFC 3550 §6.6)")
        }
        var ssrcs: [UInt32] = []
        ssrcs.reserveCapacity(count)
        for i in 0..<count {
            ssrcs.append(buffer.getInteger(at: body + 4 * i, as: UInt32.self)!)
        }
        var reason: String?
        let reasonStart = body + 4 * count
        if reasonStart < bodyEnd {
            let reasonLength = Int(buffer.getInteger(at: reasonStart, as: UInt8.self)!)
            guard reasonStart + 1 + reasonLength <= bodyEnd,
                  let bytes = buffer.getBytes(at: reasonStart + 1, length: reasonLength)
            else {
                throw malformed("\(context) is a BYE whose reason declares \(reasonLength) bytes but only \(bodyEnd - reasonStart - 1) remain (RFC 3550 §6.6)")
            }
            // A length of zero is the null padding that ends the packet, not a reason.
            if reasonLength > 0 {
                reason = String(decoding: bytes, as: UTF8.self)
            }
        }
        return .goodbye(ssrcs: ssrcs, reason: reason)
    }

    private static func malformed(_ message: String) -> RTPParseError {
        RTPParseError(.malformedRTCP, message)
    }
}
