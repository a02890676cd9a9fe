import NIOCore

/// Reads big-endian bit fields (most significant bit first, as ISO/IEC 14496-3 and RFC 3640 lay them
/// out) from a `ByteBuffer`. Every read checks the bounds and throws an `AACError` naming the
/// structure and the field, so truncated input never traps.
struct BitReader {
    private let buffer: ByteBuffer
    /// Index of bit 0 (the most significant bit of the first byte) in `buffer`'s storage.
    private let baseByte: Int
    private let totalBits: Int
    /// The position of the next bit to read, counted from the start.
    private(set) var bitPosition: Int = 0
    /// What is being parsed, for error messages ("AudioSpecificConfig").
    let context: String

    /// Reads the readable bytes of `buffer`.
    init(_ buffer: ByteBuffer, context: String) {
        self.buffer = buffer
        self.baseByte = buffer.readerIndex
        self.totalBits = buffer.readableBytes * 8
        self.context = context
    }

    init(bytes: [UInt8], context: String) {
        self.init(ByteBuffer(bytes: bytes), context: context)
    }

    var bitsLeft: Int { totalBits - bitPosition }

    private func truncated(_ element: StaticString) -> AACError {
        AACError("\(context) is truncated: ran out of bits reading \(element) (at bit \(bitPosition) of \(totalBits))")
    }

    /// An unsigned field of `count` bits, 0...32.
    mutating func bits(_ count: Int, _ element: StaticString) throws(AACError) -> UInt32 {
        precondition(count >= 0 && count <= 32, "bit fields are 0 to 32 bits wide")
        guard count <= bitsLeft else { throw truncated(element) }
        var value: UInt64 = 0
        var remaining = count
        while remaining > 0 {
            let byte = buffer.getInteger(at: baseByte + (bitPosition >> 3), as: UInt8.self) ?? 0
            let offset = bitPosition & 7
            let available = 8 - offset
            let take = min(available, remaining)
            let chunk = (UInt64(byte) >> UInt64(available - take)) & ((1 << UInt64(take)) - 1)
            value = (value << UInt64(take)) | chunk
            remaining -= take
            bitPosition += take
        }
        return UInt32(value)
    }

    /// An unsigned field as an Int.
    mutating func int(_ count: Int, _ element: StaticString) throws(AACError) -> Int {
        Int(try bits(count, element))
    }

    /// A one-bit flag.
    mutating func flag(_ element: StaticString) throws(AACError) -> Bool {
        try bits(1, element) == 1
    }

    /// Skips `count` bits.
    mutating func skip(_ count: Int, _ element: StaticString) throws(AACError) {
        guard count >= 0, count <= bitsLeft else { throw truncated(element) }
        bitPosition += count
    }

    /// Skips to the next byte boundary (counted from bit 0).
    mutating func alignToByte() {
        bitPosition = min(totalBits, (bitPosition + 7) & ~7)
    }
}
