import NIOCore

/// Box writing helpers (ISO/IEC 14496-12 §4.2): every box is `size u(32)`, `type u(32)`, then its
/// payload; a full box adds `version u(8)` and `flags u(24)`. The size is written as a placeholder and
/// patched once the payload is known, so the writers never compute sizes by hand.
extension ByteBuffer {
    /// ISO/IEC 14496-12 §4.2 Box: writes `type` and the payload `body` writes, then patches the size.
    mutating func writeBox(_ type: FourCC, _ body: (inout ByteBuffer) -> Void) {
        let start = writerIndex
        writeInteger(UInt32(0))
        writeInteger(type.rawValue)
        body(&self)
        setInteger(UInt32(writerIndex - start), at: start)
    }

    /// ISO/IEC 14496-12 §4.2 FullBox: a box whose payload starts with `version u(8)` and `flags u(24)`.
    mutating func writeFullBox(_ type: FourCC, version: UInt8, flags: UInt32, _ body: (inout ByteBuffer) -> Void) {
        writeBox(type) { buffer in
            buffer.writeInteger((UInt32(version) << 24) | (flags & 0x00FF_FFFF))
            body(&buffer)
        }
    }

    /// ISO/IEC 14496-12 §6.2.2 transformation matrix: the unity matrix { 0x00010000, 0, 0, 0, 0x00010000,
    /// 0, 0, 0, 0x40000000 } (the last column is 2.30 fixed point).
    mutating func writeUnityMatrix() {
        for value: UInt32 in [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000] {
            writeInteger(value)
        }
    }

    /// Writes `count` zero bytes (reserved and pre_defined fields).
    mutating func writeZeros(_ count: Int) {
        writeRepeatingByte(0, count: count)
    }
}

/// A four-character code: a box type, a brand or a handler type (ISO/IEC 14496-12 §4.2, §4.3, §8.4.3).
struct FourCC: Sendable, Equatable, CustomStringConvertible {
    let rawValue: UInt32

    init(_ text: StaticString) {
        precondition(text.utf8CodeUnitCount == 4, "a four-character code has four ASCII characters")
        var value: UInt32 = 0
        text.withUTF8Buffer { bytes in
            for byte in bytes { value = (value << 8) | UInt32(byte) }
        }
        rawValue = value
    }

    var description: String {
        String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: rawValue >> $0) }, as: UTF8.self)
    }
}
