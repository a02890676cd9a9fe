/// A SOAP 1.2 Fault (W3C SOAP 1.2 Part 1 §5.4): `Code/Value`, nested `Subcode/Value`s, `Reason/Text`.
/// ONVIF Core Specification §5.11.2 lists its subcodes (`ter:NotAuthorized`, `ter:ActionNotSupported`, …).
/// SOAP 1.1 faults (`faultcode`/`faultstring`) are read too: some devices send them.
public struct SOAPFault: Sendable, Equatable {
    /// The code value as written ("env:Sender", "s:Receiver").
    public var code: String
    /// Subcode values as written, outermost first ("ter:NotAuthorized").
    public var subcodes: [String]
    /// Subcodes resolved to namespace URI + local name.
    public var resolvedSubcodes: [(namespace: String?, localName: String)]
    /// The first `Reason/Text`.
    public var reason: String

    public static func == (lhs: SOAPFault, rhs: SOAPFault) -> Bool {
        lhs.code == rhs.code && lhs.subcodes == rhs.subcodes && lhs.reason == rhs.reason
    }

    public init(code: String, subcodes: [String] = [], reason: String) {
        self.code = code
        self.subcodes = subcodes
        self.resolvedSubcodes = subcodes.map { (nil, String($0.split(separator: ":").last ?? "")) }
        self.reason = reason
    }

    /// The fault in `envelope`'s body, nil when there is none.
    public init?(envelope: XMLTreeElement) {
        guard let body = envelope.children.first(where: { $0.localName == "Body" }),
              let fault = body.children.first(where: { $0.localName == "Fault" }) else { return nil }
        self.init(fault: fault)
    }

    /// Reads a `Fault` element.
    public init(fault: XMLTreeElement) {
        if let codeElement = fault.child("Code") {
            code = codeElement.child("Value")?.trimmedText ?? ""
            var subcodes: [String] = []
            var resolved: [(namespace: String?, localName: String)] = []
            var current = codeElement.child("Subcode")
            while let subcode = current, subcodes.count < 8 {
                if let value = subcode.child("Value") {
                    subcodes.append(value.trimmedText)
                    resolved.append(value.resolveQName(value.trimmedText))
                }
                current = subcode.child("Subcode")
            }
            self.subcodes = subcodes
            self.resolvedSubcodes = resolved
            reason = fault.child("Reason")?.child("Text")?.trimmedText ?? ""
        } else {
            // SOAP 1.1 §4.4: faultcode / faultstring, unqualified children.
            code = fault.child("faultcode")?.trimmedText ?? ""
            subcodes = []
            resolvedSubcodes = []
            reason = fault.child("faultstring")?.trimmedText ?? ""
        }
    }

    /// ONVIF Core §5.11.2.2 `ter:NotAuthorized` ("Sender not Authorized"), WS-Security 1.0 §12
    /// `wsse:FailedAuthentication` / `wsse:InvalidSecurity`, or a reason that says so (vendors vary).
    public var isAuthenticationFailure: Bool {
        let authLocalNames: Set<String> = ["NotAuthorized", "FailedAuthentication", "InvalidSecurity",
                                           "InvalidSecurityToken", "InvalidArgVal_Authentication"]
        if resolvedSubcodes.contains(where: { authLocalNames.contains($0.localName) }) { return true }
        if authLocalNames.contains(where: { code.hasSuffix($0) }) { return true }
        let lowered = reason.lowercased()
        return lowered.contains("not authorized") || lowered.contains("not authorised")
            || lowered.contains("authentication") || lowered.contains("unauthorized")
            || lowered.contains("sender not authori")
    }

    /// `code` plus subcodes, for messages: "env:Sender / ter:NotAuthorized".
    public var codeDescription: String {
        ([code] + subcodes).filter { !$0.isEmpty }.joined(separator: " / ")
    }
}
