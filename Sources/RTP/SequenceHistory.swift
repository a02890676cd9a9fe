/// Which of the 128 sequence numbers at and below a moving "top" number have been seen;
/// used to tell a duplicate from a late packet (RFC 3550 A.1 lumps the two together).
///
/// Bit k of the 128-bit value `high:low` stands for the number `top − k`.
struct SequenceHistory: Sendable, Equatable {
    static let span = 128

    private var low: UInt64 = 0
    private var high: UInt64 = 0

    /// Moves the top up by `distance`; the new numbers are marked unseen.
    mutating func advance(by distance: Int) {
        precondition(distance >= 0)
        switch distance {
        case 0:
            return
        case 1..<64:
            high = high << UInt64(distance) | low >> UInt64(64 - distance)
            low <<= UInt64(distance)
        case 64..<128:
            high = low << UInt64(distance - 64)
            low = 0
        default:
            high = 0
            low = 0
        }
    }

    /// Marks `top − behind` as seen; ignored beyond the span.
    mutating func insert(behind: Int) {
        guard (0..<Self.span).contains(behind) else { return }
        if behind < 64 {
            low |= 1 << UInt64(behind)
        } else {
            high |= 1 << UInt64(behind - 64)
        }
    }

    /// Whether `top − behind` was seen; false beyond the span.
    func contains(behind: Int) -> Bool {
        guard (0..<Self.span).contains(behind) else { return false }
        if behind < 64 {
            return low & (1 << UInt64(behind)) != 0
        }
        return high & (1 << UInt64(behind - 64)) != 0
    }

    mutating func removeAll() {
        low = 0
        high = 0
    }
}
