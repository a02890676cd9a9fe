import NIOCore

/// The compound RTCP packet a receiver sends back to the camera: RR + SDES CNAME
/// (RFC 3550 §6.1: every compound packet starts with a report and carries a CNAME).
///
/// RFC 3550 §6.4.2 RR layout:
/// ```
/// |V=2|P|    RC   |   PT=RR=201   |             length            |
/// |                     SSRC of packet sender                     |
/// |                 report blocks (24 bytes each)                 |
/// ```
/// followed by an RFC 3550 §6.5 SDES with one chunk: this SSRC, a CNAME item (§6.5.1), the
/// null item that ends the list, and null padding to a 32-bit boundary.
public struct RTCPReceiverReport: Sendable, Equatable {
    /// RFC 3550 §6.4.2 "SSRC of packet sender": the receiver's own SSRC.
    public var ssrc: UInt32
    /// RFC 3550 §6.5.1 CNAME, e.g. "watchbox@hostname"; cut to 255 UTF-8 bytes on the wire.
    public var cname: String
    /// One block per source received; more than 31 are split over several RR packets (RFC 3550 §6.4.2).
    public var reports: [RTCPReportBlock]

    /// RFC 3550 §6.5.1 CNAME item type.
    static let cnameItem: UInt8 = 1

    public init(ssrc: UInt32, cname: String, reports: [RTCPReportBlock]) {
        self.ssrc = ssrc
        self.cname = cname
        self.reports = reports
    }

    /// Appends the compound packet: one RR (or several when there are more than 31 report blocks), then the SDES.
    public func write(into buffer: inout ByteBuffer) {
        var remaining = reports[...]
        repeat {
            let batch = remaining.prefix(RTCPReportBlock.maximumPerPacket)
            remaining = remaining.dropFirst(batch.count)
            buffer.writeInteger(UInt8(0x80 | batch.count))
            buffer.writeInteger(RTCPPacket.receiverReportType)
            buffer.writeInteger(UInt16(1 + 6 * batch.count))  // words minus one
            buffer.writeInteger(ssrc)
            for block in batch {
                block.write(into: &buffer)
            }
        } while !remaining.isEmpty

        let name = Self.truncatedUTF8(cname, maximumBytes: 255)
        // SSRC + type + length + text + at least one null octet, rounded up to a word.
        let chunkLength = RTPPacket.roundedUpToWord(4 + 2 + name.count + 1)
        buffer.writeInteger(UInt8(0x80 | 1))  // one chunk
        buffer.writeInteger(RTCPPacket.sourceDescriptionType)
        buffer.writeInteger(UInt16(chunkLength / 4))  // (4 + chunkLength) / 4 − 1
        buffer.writeInteger(ssrc)
        buffer.writeInteger(Self.cnameItem)
        buffer.writeInteger(UInt8(name.count))
        buffer.writeBytes(name)
        buffer.writeRepeatingByte(0, count: chunkLength - 6 - name.count)
    }

    /// The UTF-8 bytes of `text`, cut to at most `maximumBytes` without splitting a character's encoding.
    static func truncatedUTF8(_ text: String, maximumBytes: Int) -> [UInt8] {
        var bytes = Array(text.utf8)
        guard bytes.count > maximumBytes else { return bytes }
        var cut = maximumBytes
        // Back off continuation bytes (10xxxxxx) so the cut lands on a scalar boundary.
        while cut > 0, bytes[cut] & 0xC0 == 0x80 {
            cut -= 1
        }
        bytes.removeSubrange(cut...)
        return bytes
    }
}
