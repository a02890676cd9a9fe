import NIOCore

/// How the live path hands fragments to the viewers' connections.
public enum LiveFragmentFraming: Sendable, Equatable {
    /// The bare `moof`+`mdat`.
    case none
    /// Each fragment already wrapped as one complete WebSocket binary message (RFC 6455 §5.2: FIN, opcode 2,
    /// unmasked as a server sends it), built once for all of a camera's viewers: a connection writes the bytes
    /// as they are, under its frame encoder. The header goes into headroom the muxer leaves in front of the
    /// fragment: in place when the buffer is held once, otherwise (as on the live path today, where the muxer's
    /// output still holds it) one copy per fragment, shared by every viewer.
    case webSocketBinary

    /// The most a header takes: 2 bytes, plus 8 for a 64-bit payload length.
    static let maxHeaderBytes = 10

    /// What the muxer should leave free in front of each fragment.
    var headroom: Int { self == .webSocketBinary ? Self.maxHeaderBytes : 0 }

    /// `fragment` as the viewers' connections take it. In place when the header fits in front of the reader
    /// index and the buffer is not shared yet (straight from the muxer); otherwise a copy.
    func wrap(_ fragment: consuming ByteBuffer) -> ByteBuffer {
        guard self == .webSocketBinary else { return fragment }
        let length = fragment.readableBytes
        var header: (bytes: [UInt8], count: Int)
        if length < 126 {
            header = ([0x82, UInt8(length)], 2)
        } else if length <= Int(UInt16.max) {
            header = ([0x82, 126, UInt8(length >> 8), UInt8(length & 0xFF)], 4)
        } else {
            var bytes: [UInt8] = [0x82, 127]
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: length >> shift)) }
            header = (bytes, 10)
        }
        if fragment.readerIndex >= header.count {
            let start = fragment.readerIndex - header.count
            fragment.setBytes(header.bytes, at: start)
            fragment.moveReaderIndex(to: start)
            return fragment
        }
        var copy = ByteBufferAllocator().buffer(capacity: header.count + length)
        copy.writeBytes(header.bytes)
        copy.writeImmutableBuffer(fragment)
        return copy
    }
}
