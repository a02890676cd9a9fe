/// What one WS-Discovery probe window collected.
public struct WSDiscoveryResult: Sendable, Equatable {
    /// ProbeMatches answering our Probe, de-duplicated by endpoint reference (XAddrs and scopes merged).
    public var matches: [WSDiscoveryMatch]
    /// Hello announcements heard while probing (devices joining the network), de-duplicated likewise.
    public var hellos: [WSDiscoveryMatch]
    /// Endpoint references of devices that said Bye while probing.
    public var byes: [String]

    public init(matches: [WSDiscoveryMatch] = [], hellos: [WSDiscoveryMatch] = [], byes: [String] = []) {
        self.matches = matches
        self.hellos = hellos
        self.byes = byes
    }
}
