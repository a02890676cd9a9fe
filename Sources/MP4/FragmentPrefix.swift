import NIOCore

/// Bytes a muxer writes in front of every fragment, made from the fragment's length: a transport's message
/// header, so that the fragment leaves the muxer ready to send (the live WebSocket path: one binary message per
/// fragment, framed once for all of a camera's viewers, with no copy to put the header in front).
public struct FragmentPrefix: Sendable {
    /// The most bytes `make` returns.
    public let maxBytes: Int
    /// The prefix for a fragment of this many bytes (the prefix not counted).
    public let make: @Sendable (_ fragmentLength: Int) -> [UInt8]

    public init(maxBytes: Int, make: @escaping @Sendable (_ fragmentLength: Int) -> [UInt8]) {
        self.maxBytes = maxBytes
        self.make = make
    }

    /// Puts the prefix in front of `fragment`'s reader index, into room the caller owns. `fragmentLength`: the
    /// whole fragment's, when `fragment` holds only its start (its header, the picture lying elsewhere).
    func apply(to fragment: inout ByteBuffer, fragmentLength: Int? = nil) {
        let bytes = make(fragmentLength ?? fragment.readableBytes)
        precondition(bytes.count <= maxBytes && bytes.count <= fragment.readerIndex,
                     "FragmentPrefix: \(bytes.count) bytes do not fit the \(min(maxBytes, fragment.readerIndex)) kept free")
        let start = fragment.readerIndex - bytes.count
        fragment.setBytes(bytes, at: start)
        fragment.moveReaderIndex(to: start)
    }
}
