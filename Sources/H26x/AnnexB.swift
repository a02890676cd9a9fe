import NIOCore

/// Splits an ITU-T H.264 / H.265 Annex B byte stream into NAL units (used for tests, fixtures, the
/// demo clip and snapshots).
///
/// A NAL unit starts after each start code prefix 00 00 01 (a leading zero_byte makes the 4-byte form)
/// and ends before the next one; trailing zero bytes (trailing_zero_8bits, B.1.1) are removed and
/// empty units are skipped. Bytes before the first start code are ignored.
public enum AnnexB {
    public static func split(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.withUnsafeBufferPointer { buffer in
            ranges(in: UnsafeRawBufferPointer(buffer)).map { Array(buffer[$0]) }
        }
    }

    /// The same split over a `ByteBuffer`, returning slices that share its storage (no copy).
    public static func split(_ buffer: ByteBuffer) -> [ByteBuffer] {
        let found = buffer.withUnsafeReadableBytes { ranges(in: $0) }
        return found.map { buffer.getSlice(at: buffer.readerIndex + $0.lowerBound, length: $0.count)! }
    }

    /// The byte ranges of the NAL units.
    static func ranges(in bytes: UnsafeRawBufferPointer) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start: Int? = nil
        var index = 0
        let count = bytes.count
        while index + 2 < count {
            // Jump over bytes that cannot end a start code: byte[index + 2] must be 0 or 1.
            let third = bytes[index + 2]
            if third > 1 {
                index += 3
                continue
            }
            if third == 1 && bytes[index] == 0 && bytes[index + 1] == 0 {
                if let begin = start { append(begin..<index, bytes, &result) }
                index += 3
                start = index
                continue
            }
            index += 1
        }
        if let begin = start { append(begin..<count, bytes, &result) }
        return result
    }

    private static func append(_ range: Range<Int>, _ bytes: UnsafeRawBufferPointer, _ result: inout [Range<Int>]) {
        var end = range.upperBound
        while end > range.lowerBound && bytes[end - 1] == 0 { end -= 1 }
        if end > range.lowerBound { result.append(range.lowerBound..<end) }
    }
}
