/// Folds WS-Discovery messages into a `WSDiscoveryResult` (pure; the client feeds it datagrams):
/// ProbeMatches answering one of our Probes (WS-Discovery 2005/04 §5.3: `RelatesTo` = the Probe's
/// `MessageID`; a match without RelatesTo is accepted — tolerance for devices that omit it),
/// de-duplicated by endpoint reference with XAddrs and scopes merged; Hello and Bye likewise.
public struct WSDiscoveryCollector: Sendable {
    public let probeMessageIDs: Set<String>
    private var matchOrder: [String] = []
    private var matches: [String: WSDiscoveryMatch] = [:]
    private var helloOrder: [String] = []
    private var hellos: [String: WSDiscoveryMatch] = [:]
    private var byes: [String] = []

    public init(probeMessageID: String) {
        self.probeMessageIDs = [probeMessageID]
    }

    /// The events the message produces: a new match or one whose XAddrs/scopes grew, a new Hello, a new Bye.
    public mutating func absorb(_ message: WSDiscoveryMessage) -> [WSDiscoveryEvent] {
        switch message {
        case .probeMatches(let relatesTo, let found):
            if let relatesTo, !probeMessageIDs.contains(relatesTo) { return [] }  // an answer to someone else's Probe
            return found.compactMap { match in
                Self.merge(match, into: &matches, order: &matchOrder).map(WSDiscoveryEvent.match)
            }
        case .hello(let match):
            return Self.merge(match, into: &hellos, order: &helloOrder).map { [.hello($0)] } ?? []
        case .bye(let endpointReference):
            guard !byes.contains(endpointReference) else { return [] }
            byes.append(endpointReference)
            return [.bye(endpointReference)]
        case .other:
            return []
        }
    }

    public var result: WSDiscoveryResult {
        WSDiscoveryResult(matches: matchOrder.compactMap { matches[$0] },
                          hellos: helloOrder.compactMap { hellos[$0] },
                          byes: byes)
    }

    /// Adds or merges; returns the stored match when something changed.
    private static func merge(_ match: WSDiscoveryMatch, into table: inout [String: WSDiscoveryMatch],
                              order: inout [String]) -> WSDiscoveryMatch? {
        guard var existing = table[match.endpointReference] else {
            table[match.endpointReference] = match
            order.append(match.endpointReference)
            return match
        }
        let before = existing
        for address in match.xAddrs where !existing.xAddrs.contains(address) { existing.xAddrs.append(address) }
        for scope in match.scopes where !existing.scopes.contains(scope) { existing.scopes.append(scope) }
        for type in match.types where !existing.types.contains(type) { existing.types.append(type) }
        existing.name = existing.name ?? match.name
        existing.hardware = existing.hardware ?? match.hardware
        existing.location = existing.location ?? match.location
        if let version = match.metadataVersion, version > (existing.metadataVersion ?? Int.min) {
            existing.metadataVersion = version
        }
        existing.sourceAddress = existing.sourceAddress ?? match.sourceAddress
        table[match.endpointReference] = existing
        return existing == before ? nil : existing
    }
}
