/// One element of a parsed XML document, namespace-resolved: matched on namespace URI + local name,
/// never on the prefix a vendor happened to choose (Namespaces in XML 1.0 §3-§6).
public struct XMLTreeElement: Sendable, Equatable {
    /// The namespace URI the element's prefix (or the default namespace) resolves to; "" for none.
    public var namespace: String
    /// The local part of the element name.
    public var localName: String
    /// Attributes keyed by local name (attribute prefixes are dropped: ONVIF's attributes are unqualified).
    public var attributes: [String: String]
    /// Child elements in document order.
    public var children: [XMLTreeElement]
    /// Character data directly inside this element (all text nodes joined), untrimmed.
    public var text: String
    /// Prefix → namespace URI bindings in scope at this element (needed to resolve QNames in text, like
    /// `dn:NetworkVideoTransmitter` in WS-Discovery `Types` or `ter:NotAuthorized` in a SOAP fault subcode).
    public var namespaceBindings: [String: String]

    public init(namespace: String, localName: String, attributes: [String: String] = [:],
                children: [XMLTreeElement] = [], text: String = "", namespaceBindings: [String: String] = [:]) {
        self.namespace = namespace
        self.localName = localName
        self.attributes = attributes
        self.children = children
        self.text = text
        self.namespaceBindings = namespaceBindings
    }

    /// Text with surrounding whitespace removed.
    public var trimmedText: String {
        text.trimmingXMLWhitespace()
    }

    /// Whether this element is `{namespace}localName`. A nil namespace matches any namespace.
    public func matches(_ localName: String, in namespace: String?) -> Bool {
        self.localName == localName && (namespace == nil || self.namespace == namespace)
    }

    /// The first child `{namespace}localName` (nil namespace: any namespace).
    public func child(_ localName: String, in namespace: String? = nil) -> XMLTreeElement? {
        children.first { $0.matches(localName, in: namespace) }
    }

    /// Every child `{namespace}localName`.
    public func children(_ localName: String, in namespace: String? = nil) -> [XMLTreeElement] {
        children.filter { $0.matches(localName, in: namespace) }
    }

    /// Follows a path of local names (any namespace), first match at each step.
    public func path(_ localNames: String...) -> XMLTreeElement? {
        var current: XMLTreeElement? = self
        for name in localNames { current = current?.child(name) }
        return current
    }

    /// The first element, depth first including this one, named `{namespace}localName`.
    public func first(_ localName: String, in namespace: String? = nil) -> XMLTreeElement? {
        if self.matches(localName, in: namespace) { return self }
        for child in children {
            if let found = child.first(localName, in: namespace) { return found }
        }
        return nil
    }

    /// Every element, depth first including this one, named `{namespace}localName`.
    public func all(_ localName: String, in namespace: String? = nil) -> [XMLTreeElement] {
        var found: [XMLTreeElement] = []
        collect(localName, namespace, into: &found)
        return found
    }

    private func collect(_ localName: String, _ namespace: String?, into found: inout [XMLTreeElement]) {
        if self.matches(localName, in: namespace) { found.append(self) }
        for child in children { child.collect(localName, namespace, into: &found) }
    }

    /// Resolves a QName written in text content or an attribute value (`prefix:local`) against the
    /// bindings in scope here: returns (namespace URI, local name). An unbound prefix gives a nil namespace.
    public func resolveQName(_ qname: String) -> (namespace: String?, localName: String) {
        let trimmed = qname.trimmingXMLWhitespace()
        if let colon = trimmed.firstIndex(of: ":") {
            let prefix = String(trimmed[..<colon])
            return (namespaceBindings[prefix], String(trimmed[trimmed.index(after: colon)...]))
        }
        return (namespaceBindings[""], trimmed)
    }
}

extension String {
    /// Removes XML whitespace (XML 1.0 §2.3 S: space, tab, CR, LF) from both ends.
    func trimmingXMLWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }

    /// Splits on XML whitespace (xs:list items, XAddrs, Scopes, Types).
    func splitXMLList() -> [String] {
        split(whereSeparator: { (c: Character) -> Bool in c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\r\n" }).map(String.init)
    }
}
