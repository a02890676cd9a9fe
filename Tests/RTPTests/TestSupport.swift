import NIOCore

/// A ByteBuffer holding `bytes`.
func buffer(_ bytes: [UInt8]) -> ByteBuffer {
    ByteBuffer(bytes: bytes)
}

/// All readable bytes of `buffer`.
func bytes(_ buffer: ByteBuffer) -> [UInt8] {
    Array(buffer.readableBytesView)
}

/// A small deterministic generator (SplitMix64) so randomized tests repeat exactly.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Appends big-endian fields, for building packets by hand in tests independently of the module's writers.
struct Bytes {
    var buffer = ByteBuffer()

    mutating func u8(_ value: UInt8) { buffer.writeInteger(value) }
    mutating func u16(_ value: UInt16) { buffer.writeInteger(value) }
    mutating func u32(_ value: UInt32) { buffer.writeInteger(value) }
    mutating func u64(_ value: UInt64) { buffer.writeInteger(value) }
    mutating func raw(_ values: [UInt8]) { buffer.writeBytes(values) }
    mutating func text(_ value: String) { buffer.writeString(value) }

    var array: [UInt8] { bytes(buffer) }
}
