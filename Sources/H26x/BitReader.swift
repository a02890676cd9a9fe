/// Reads the syntax elements of a raw byte sequence payload (RBSP): u(n), ue(v), se(v)
/// (ITU-T H.264 §7.2 and §9.1, ITU-T H.265 §7.2 and §9.2). Every read checks the bounds and throws
/// an `H26xError` naming the structure and the syntax element, so truncated input never traps.
struct BitReader {
    private let bytes: [UInt8]
    /// The position of the next bit to read, counted from the most significant bit of byte 0.
    private(set) var bitPosition: Int = 0
    /// What is being parsed, for error messages ("H.264 SPS").
    let context: String

    init(rbsp: [UInt8], context: String) {
        self.bytes = rbsp
        self.context = context
    }

    /// Removes the emulation_prevention_three_byte from a NAL unit (H.264 §7.3.1, H.265 §7.3.1.1):
    /// every 0x03 that follows two 0x00 bytes. `headerLength` bytes are skipped first.
    static func rbsp(fromNALUnit nal: [UInt8], headerLength: Int) -> [UInt8] {
        guard nal.count > headerLength else { return [] }
        var out = [UInt8]()
        out.reserveCapacity(nal.count - headerLength)
        var zeros = 0
        for index in headerLength..<nal.count {
            let byte = nal[index]
            if zeros >= 2 && byte == 0x03 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        return out
    }

    var bitsLeft: Int { bytes.count * 8 - bitPosition }

    private func truncated(_ element: StaticString) -> H26xError {
        H26xError("\(context) is truncated: ran out of bits reading \(element) (at bit \(bitPosition) of \(bytes.count * 8)); the parameter set is damaged or was cut short")
    }

    /// u(n) for n in 0...32.
    mutating func bits(_ count: Int, _ element: StaticString) throws -> UInt32 {
        precondition(count >= 0 && count <= 32)
        guard count <= bitsLeft else { throw truncated(element) }
        var value: UInt64 = 0
        var remaining = count
        while remaining > 0 {
            let byte = bytes[bitPosition >> 3]
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

    /// u(1) as a Bool.
    mutating func flag(_ element: StaticString) throws -> Bool {
        try bits(1, element) == 1
    }

    /// Skips `count` bits.
    mutating func skip(_ count: Int, _ element: StaticString) throws {
        guard count >= 0, count <= bitsLeft else { throw truncated(element) }
        bitPosition += count
    }

    /// ue(v), Exp-Golomb (§9.1): at most 31 leading zero bits, so the value fits 0...2^32-2.
    mutating func ue(_ element: StaticString) throws -> UInt32 {
        var leadingZeros = 0
        while try bits(1, element) == 0 {
            leadingZeros += 1
            if leadingZeros > 31 {
                throw H26xError("\(context) is malformed: \(element) has more than 31 leading zero bits (at bit \(bitPosition)); the parameter set is damaged")
            }
        }
        let suffix = UInt64(try bits(leadingZeros, element))
        return UInt32((UInt64(1) << UInt64(leadingZeros)) - 1 + suffix)
    }

    /// ue(v) that must not exceed `maximum` (the range the spec allows), as an Int.
    mutating func ue(_ element: StaticString, max maximum: Int) throws -> Int {
        let value = Int(try ue(element))
        guard value <= maximum else {
            throw H26xError("\(context) is malformed: \(element) is \(value), more than the \(maximum) the specification allows")
        }
        return value
    }

    /// se(v), signed Exp-Golomb (§9.1.1).
    mutating func se(_ element: StaticString) throws -> Int {
        let code = Int(try ue(element))
        return code & 1 == 1 ? (code + 1) / 2 : -(code / 2)
    }
}
