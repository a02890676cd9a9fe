import Foundation

/// A parsed SOAP response: either the body's first element or a fault.
public enum SOAPResponse: Sendable, Equatable {
    case body(XMLTreeElement)
    case fault(SOAPFault)

    /// Parses HTTP body bytes as a SOAP envelope. Throws a description of what is wrong when the
    /// bytes are not XML, not a SOAP envelope, or have an empty body.
    public static func parse(_ data: Data) throws(SOAPResponseError) -> SOAPResponse {
        let root: XMLTreeElement
        do {
            root = try XMLTreeParser.parse(data)
        } catch {
            throw SOAPResponseError(detail: error.detail)
        }
        guard root.localName == "Envelope",
              root.namespace == ONVIFNamespace.soapEnvelope || root.namespace == ONVIFNamespace.soap11Envelope else {
            throw SOAPResponseError(detail: "root element is <\(root.localName)> in namespace '\(root.namespace)', not a SOAP 1.2 Envelope")
        }
        if let fault = SOAPFault(envelope: root) { return .fault(fault) }
        guard let body = root.child("Body", in: root.namespace) else {
            throw SOAPResponseError(detail: "the SOAP envelope has no Body")
        }
        guard let first = body.children.first else {
            throw SOAPResponseError(detail: "the SOAP Body is empty")
        }
        return .body(first)
    }
}

/// Why bytes are not a usable SOAP response.
public struct SOAPResponseError: Error, Sendable, Equatable {
    public var detail: String
}
