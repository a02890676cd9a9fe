/// Hex formatting for codec strings.
enum Hex {
    private static let lower: [Character] = Array("0123456789abcdef")
    private static let upper: [Character] = Array("0123456789ABCDEF")

    /// Two hex digits.
    static func byte(_ value: UInt8, uppercase: Bool = false) -> String {
        let digits = uppercase ? upper : lower
        return String([digits[Int(value >> 4)], digits[Int(value & 0xF)]])
    }

    /// Upper-case hex without leading zeros ("0" for zero).
    static func number(_ value: UInt32) -> String {
        String(value, radix: 16, uppercase: true)
    }
}
