/// Something heard during a WS-Discovery probe, reported as it arrives (for live progress).
public enum WSDiscoveryEvent: Sendable, Equatable {
    /// A ProbeMatch answering our Probe (WS-Discovery 2005/04 §5.3).
    case match(WSDiscoveryMatch)
    /// A Hello announcement (§4.1): a device joined.
    case hello(WSDiscoveryMatch)
    /// A Bye announcement (§4.2): the device with this endpoint reference left.
    case bye(String)
}
