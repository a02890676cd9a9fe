/// Writes big-endian bit fields, most significant bit first (the inverse of `BitReader`).
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var bitCount = 0

    /// Appends the low `count` bits of `value` (0...32 bits).
    mutating func write(_ value: UInt32, bits count: Int) {
        precondition(count >= 0 && count <= 32, "bit fields are 0 to 32 bits wide")
        var remaining = count
        while remaining > 0 {
            if bitCount & 7 == 0 { bytes.append(0) }
            let free = 8 - (bitCount & 7)
            let take = min(free, remaining)
            let chunk = UInt8(truncatingIfNeeded: (value >> UInt32(remaining - take)) & ((1 << UInt32(take)) - 1))
            bytes[bytes.count - 1] |= chunk << UInt8(free - take)
            remaining -= take
            bitCount += take
        }
    }

    mutating func write(_ value: Int, bits count: Int) {
        write(UInt32(truncatingIfNeeded: value), bits: count)
    }
}
