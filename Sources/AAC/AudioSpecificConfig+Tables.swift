extension AudioSpecificConfig {
    /// ISO/IEC 14496-3 §1.6.3.3 Table 1.18: the sampling frequency of each samplingFrequencyIndex
    /// 0...12 (13 and 14 are reserved, 15 means an explicit frequency follows).
    public static let samplingFrequencies = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050,
                                             16000, 12000, 11025, 8000, 7350]

    /// §1.6.3.4 Table 1.19 (with the 2009 amendments' 11...14): decoded channels of a
    /// channelConfiguration; 0 for a program_config_element, nil for the reserved values.
    static func channelCount(forConfiguration configuration: Int) -> Int? {
        switch configuration {
        case 0...6: configuration
        case 7: 8
        case 11: 7
        case 12, 14: 8
        case 13: 24
        default: nil
        }
    }

    /// §1.5.1.1 Table 1.1 names of the object types cameras and encoders use.
    static let objectTypeNames: [Int: String] = [
        1: "AAC Main", 2: "AAC LC", 3: "AAC SSR", 4: "AAC LTP", 5: "SBR", 6: "AAC Scalable", 7: "TwinVQ",
        8: "CELP", 9: "HVXC", 17: "ER AAC LC", 19: "ER AAC LTP", 20: "ER AAC Scalable", 21: "ER TwinVQ",
        22: "ER BSAC", 23: "AAC LD", 29: "PS", 39: "AAC ELD", 42: "USAC",
    ]

    /// Hexadecimal text to bytes (RFC 3640 §4.1 config=), either case, spaces around it ignored.
    static func bytes(fromHex hex: String) throws(AACError) -> [UInt8] {
        let text = hex.trimmingSpaces
        guard !text.isEmpty else {
            throw AACError("the config= value is empty: the camera's SDP does not describe its AAC stream (the fmtp needs config=<hex AudioSpecificConfig>)")
        }
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else {
            throw AACError("the config= value \"\(text)\" has an odd number of hex digits (\(digits.count)); it is cut short or damaged")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else {
                throw AACError("the config= value \"\(text)\" is not hexadecimal (at character \(index + 1)); RFC 3640 wants the AudioSpecificConfig as hex digits")
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    static func hexString(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
