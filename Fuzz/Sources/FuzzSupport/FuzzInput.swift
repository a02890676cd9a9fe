/// A fuzz input read front to back as a mix of decisions (small integers) and raw bytes,
/// the idea of LLVM's FuzzedDataProvider: the fuzzer mutates the decisions and the bytes
/// alike, so a harness explores both the shape of a session and its contents.
///
/// Reading past the end never fails: integers read as 0 and byte runs come back short,
/// so every input, even the empty one, is a valid session.
public struct FuzzInput {
    public let bytes: [UInt8]
    public private(set) var position: Int = 0

    public init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        bytes = size > 0 ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    }

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    public var isEmpty: Bool { position >= bytes.count }
    public var remaining: Int { bytes.count - position }

    /// The next byte, or 0 at the end.
    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// The next two bytes, big-endian, or what is left of them.
    public mutating func uint16() -> UInt16 {
        UInt16(byte()) << 8 | UInt16(byte())
    }

    /// The next four bytes, big-endian, or what is left of them.
    public mutating func uint32() -> UInt32 {
        UInt32(uint16()) << 16 | UInt32(uint16())
    }

    public mutating func bool() -> Bool {
        byte() & 1 == 1
    }

    /// Up to `count` bytes (fewer at the end of the input).
    public mutating func take(_ count: Int) -> ArraySlice<UInt8> {
        let end = position + min(max(count, 0), remaining)
        defer { position = end }
        return bytes[position..<end]
    }

    /// Everything not read yet.
    public mutating func rest() -> ArraySlice<UInt8> {
        take(remaining)
    }
}
