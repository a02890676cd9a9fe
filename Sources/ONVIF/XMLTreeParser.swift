import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Builds an `XMLTreeElement` tree from bytes with Foundation's `XMLParser` in namespace-aware mode.
/// External entities are never resolved (no XXE); a document that is not well-formed is an error.
public enum XMLTreeParser {
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What XMLParser reported, with line and column when it has them.
        public var detail: String
        public var description: String { detail }
    }

    /// The root element of `data`, or a `ParseError` saying why the bytes are not XML.
    public static func parse(_ data: Data) throws(ParseError) -> XMLTreeElement {
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            throw ParseError(detail: "empty body")
        }
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        let builder = TreeBuilder()
        parser.delegate = builder
        let ok = parser.parse()
        if let failure = builder.failure {
            throw ParseError(detail: failure)
        }
        guard ok, let root = builder.root else {
            let error = parser.parserError.map { "\($0.localizedDescription)" } ?? "not well-formed XML"
            throw ParseError(detail: "not XML: \(error) at line \(parser.lineNumber), column \(parser.columnNumber)")
        }
        return root
    }

    /// Same, from a string.
    public static func parse(_ string: String) throws(ParseError) -> XMLTreeElement {
        try parse(Data(string.utf8))
    }
}

/// XMLParser delegate: a stack of open elements; prefix mappings arrive before their element starts.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    var root: XMLTreeElement?
    var failure: String?
    private var stack: [XMLTreeElement] = []
    private var bindings: [[String: String]] = [["xml": "http://www.w3.org/XML/1998/namespace"]]
    private var pending: [String: String] = [:]
    private var depthLimit = 256

    func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
        pending[prefix] = namespaceURI
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard stack.count < depthLimit else {
            failure = "XML nested deeper than \(depthLimit) elements"
            parser.abortParsing()
            return
        }
        var scope = bindings.last ?? [:]
        for (prefix, uri) in pending { scope[prefix] = uri }
        pending.removeAll()
        bindings.append(scope)
        var attributes: [String: String] = [:]
        for (name, value) in attributeDict {
            let local = name.split(separator: ":").last.map(String.init) ?? name
            if name.hasPrefix("xmlns") { continue }
            attributes[local] = value
        }
        let localName = elementName.split(separator: ":").last.map(String.init) ?? elementName
        stack.append(XMLTreeElement(namespace: namespaceURI ?? "", localName: localName, attributes: attributes,
                                    namespaceBindings: scope))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard let element = stack.popLast() else { return }
        bindings.removeLast()
        if stack.isEmpty {
            root = element
        } else {
            stack[stack.count - 1].children.append(element)
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        if failure == nil {
            failure = "not XML: \(parseError.localizedDescription) at line \(parser.lineNumber), column \(parser.columnNumber)"
        }
    }
}
