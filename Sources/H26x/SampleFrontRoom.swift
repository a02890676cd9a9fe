import NIOConcurrencyHelpers

/// The free bytes a depacketizer leaves in front of a unit's sample bytes (``AccessUnit/sampleBytes``), and
/// who may write there: the first to ``claim()`` them, once. A live muxer writes its fragment's header
/// (`moof`, `mdat` header, a transport header) there, so that the fragment is the picture's bytes where they
/// already are, with no copy — while the unit's other readers (a recorder, the snapshot keeper, other slices
/// of the same storage) never look at those bytes. A second muxer of the same unit finds them claimed and
/// copies, as it would without them.
public final class SampleFrontRoom: Sendable {
    /// The room's size: the sample bytes' reader index when the unit was made.
    public let bytes: Int
    private let claimed = NIOLockedValueBox(false)

    init(bytes: Int) {
        self.bytes = bytes
    }

    /// True for the first caller only.
    public func claim() -> Bool {
        claimed.withLockedValue { taken in
            defer { taken = true }
            return !taken
        }
    }
}
