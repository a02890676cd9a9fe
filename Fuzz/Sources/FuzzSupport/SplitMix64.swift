/// A tiny deterministic generator (SplitMix64, Steele, Lea and Flood, OOPSLA 2014) for
/// decisions a harness should not spend input bytes on, such as where to cut a stream into
/// reads. Seeded from the input, so a crash reproduces from its file alone.
public struct SplitMix64 {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `range` (the slight modulo bias does not matter here).
    public mutating func next(in range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next() % width)
    }
}
