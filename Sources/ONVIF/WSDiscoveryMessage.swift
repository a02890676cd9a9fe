import Foundation

/// A WS-Discovery 2005/04 message received over UDP: ProbeMatches (§5.3), Hello (§4.1) or Bye (§4.2).
public enum WSDiscoveryMessage: Sendable, Equatable {
    /// ProbeMatches; `relatesTo` is the `wsa:RelatesTo` (our Probe's MessageID).
    case probeMatches(relatesTo: String?, matches: [WSDiscoveryMatch])
    case hello(WSDiscoveryMatch)
    /// Bye with the endpoint reference of the device leaving.
    case bye(endpointReference: String)
    /// Another WS-Discovery message (a Probe from another client, Resolve, …): ignored.
    case other(action: String)

    /// Parses one datagram. `sourceAddress` is stored in the matches. Throws when the bytes are
    /// not a SOAP envelope.
    public static func parse(_ data: Data, sourceAddress: String? = nil) throws(SOAPResponseError) -> WSDiscoveryMessage {
        let root: XMLTreeElement
        do {
            root = try XMLTreeParser.parse(data)
        } catch {
            throw SOAPResponseError(detail: error.detail)
        }
        guard root.localName == "Envelope", root.namespace == ONVIFNamespace.soapEnvelope else {
            throw SOAPResponseError(detail: "not a SOAP 1.2 envelope: <\(root.localName)> in '\(root.namespace)'")
        }
        let header = root.child("Header", in: ONVIFNamespace.soapEnvelope)
        let action = header?.child("Action", in: ONVIFNamespace.addressing)?.trimmedText ?? ""
        let relatesTo = header?.child("RelatesTo", in: ONVIFNamespace.addressing)?.trimmedText
        guard let body = root.child("Body", in: ONVIFNamespace.soapEnvelope) else {
            throw SOAPResponseError(detail: "the SOAP envelope has no Body")
        }
        if let probeMatches = body.child("ProbeMatches", in: ONVIFNamespace.discovery) {
            let matches = probeMatches.children("ProbeMatch", in: ONVIFNamespace.discovery)
                .compactMap { match(from: $0, sourceAddress: sourceAddress) }
            return .probeMatches(relatesTo: relatesTo, matches: matches)
        }
        if let hello = body.child("Hello", in: ONVIFNamespace.discovery) {
            guard let match = match(from: hello, sourceAddress: sourceAddress) else {
                throw SOAPResponseError(detail: "Hello without an endpoint reference")
            }
            return .hello(match)
        }
        if let bye = body.child("Bye", in: ONVIFNamespace.discovery) {
            guard let address = bye.child("EndpointReference", in: ONVIFNamespace.addressing)?
                .child("Address", in: ONVIFNamespace.addressing)?.trimmedText, !address.isEmpty else {
                throw SOAPResponseError(detail: "Bye without an endpoint reference")
            }
            return .bye(endpointReference: address)
        }
        return .other(action: action)
    }

    /// A ProbeMatch or Hello element's content (§5.3 / §4.1: EndpointReference, Types, Scopes,
    /// XAddrs, MetadataVersion).
    static func match(from element: XMLTreeElement, sourceAddress: String?) -> WSDiscoveryMatch? {
        guard let address = element.child("EndpointReference", in: ONVIFNamespace.addressing)?
            .child("Address", in: ONVIFNamespace.addressing)?.trimmedText, !address.isEmpty else { return nil }
        let types = element.child("Types", in: ONVIFNamespace.discovery)?.text.splitXMLList() ?? []
        let scopes = element.child("Scopes", in: ONVIFNamespace.discovery)?.text.splitXMLList() ?? []
        let xAddrs = element.child("XAddrs", in: ONVIFNamespace.discovery)?.text.splitXMLList() ?? []
        let version = element.child("MetadataVersion", in: ONVIFNamespace.discovery).flatMap { Int($0.trimmedText) }
        return WSDiscoveryMatch(endpointReference: address, xAddrs: xAddrs, scopes: scopes, types: types,
                                name: scopeValue(scopes, "name"), hardware: scopeValue(scopes, "hardware"),
                                location: scopeValue(scopes, "location"), metadataVersion: version,
                                sourceAddress: sourceAddress)
    }

    /// ONVIF Core §7.3.2.2: `onvif://www.onvif.org/<parameter>/<value>`; the value percent-decoded
    /// (RFC 3986 §2.1). The first scope with the parameter wins.
    static func scopeValue(_ scopes: [String], _ parameter: String) -> String? {
        let prefix = "onvif://www.onvif.org/\(parameter)/"
        for scope in scopes where scope.lowercased().hasPrefix(prefix) {
            let raw = String(scope.dropFirst(prefix.count))
            let decoded = raw.removingPercentEncoding ?? raw
            if !decoded.isEmpty { return decoded }
        }
        return nil
    }

    /// Whether `types` (QNames as written) names a NetworkVideoTransmitter, whatever the prefix.
    public static func isNetworkVideoTransmitter(_ types: [String]) -> Bool {
        types.contains { $0.split(separator: ":").last == "NetworkVideoTransmitter" }
    }
}
