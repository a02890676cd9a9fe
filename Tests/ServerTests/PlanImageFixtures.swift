import Foundation

/// Small pictures built byte by byte, so that the tests know exactly what they hold.
enum PlanImageFixtures {
    /// A PNG signature and IHDR chunk (PNG §5.2, §11.2.2) for `width` × `height`, then an empty IEND.
    static func png(width: UInt32, height: UInt32) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        bytes += Array("IHDR".utf8)
        bytes += bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0] + [0, 0, 0, 0]
        bytes += [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
        return Data(bytes)
    }

    /// SOI, an APP0 (JFIF) segment, a DQT-like filler, SOF0 with `width` × `height` (T.81 §B.2.2), EOI.
    static func jpeg(width: UInt16, height: UInt16, sof: UInt8 = 0xC0) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        bytes += [0xFF, 0xDB, 0x00, 0x04, 0x00, 0x01]
        bytes += [0xFF, sof, 0x00, 0x11, 8] + [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)]
        bytes += [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        bytes += [0xFF, 0xD9]
        return Data(bytes)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
