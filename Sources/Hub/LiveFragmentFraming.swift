import MP4

/// How the live path hands fragments to the viewers' connections.
public enum LiveFragmentFraming: Sendable, Equatable {
    /// The bare `moof`+`mdat`.
    case none
    /// Each fragment already one complete WebSocket binary message (RFC 6455 §5.2: FIN, opcode 2, unmasked as
    /// a server sends it), made once for all of a camera's viewers: a connection writes the bytes as they are,
    /// under its frame encoder. The muxer writes the header in front of the fragment (``prefix``), in the room
    /// it writes the fragment's own header into: no copy of the picture on the way.
    case webSocketBinary

    /// The most a header takes: 2 bytes, plus 8 for a 64-bit payload length.
    static let maxHeaderBytes = 10

    /// What the live muxer writes in front of each fragment.
    var prefix: FragmentPrefix? {
        guard self == .webSocketBinary else { return nil }
        return FragmentPrefix(maxBytes: Self.maxHeaderBytes, make: Self.webSocketBinaryHeader)
    }

    /// The header of an unmasked, final binary frame of `length` payload bytes (RFC 6455 §5.2).
    static func webSocketBinaryHeader(length: Int) -> [UInt8] {
        if length < 126 { return [0x82, UInt8(length)] }
        if length <= Int(UInt16.max) { return [0x82, 126, UInt8(length >> 8), UInt8(length & 0xFF)] }
        var bytes: [UInt8] = [0x82, 127]
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: length >> shift)) }
        return bytes
    }
}
