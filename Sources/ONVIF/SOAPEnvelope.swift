/// Builds SOAP 1.2 envelopes (W3C SOAP 1.2 Part 1 §5.1) for ONVIF requests: the `s` prefix is
/// bound to the SOAP 1.2 envelope namespace, header blocks and body are given as XML text.
public struct SOAPEnvelope: Sendable, Equatable {
    /// Header blocks, each a complete element (for example a WS-Security header).
    public var headerBlocks: [String]
    /// The body's content: one request element with its own namespace declarations.
    public var body: String

    public init(body: String, headerBlocks: [String] = []) {
        self.body = body
        self.headerBlocks = headerBlocks
    }

    /// The whole document, UTF-8.
    public var xml: String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
        out += "<s:Envelope xmlns:s=\"\(ONVIFNamespace.soapEnvelope)\">"
        if !headerBlocks.isEmpty {
            out += "<s:Header>" + headerBlocks.joined() + "</s:Header>"
        }
        out += "<s:Body>" + body + "</s:Body></s:Envelope>"
        return out
    }
}
