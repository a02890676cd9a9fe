import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Makes an uploaded SVG safe to show: parses it as XML and writes it out again keeping only drawing.
///
/// Removed (each noted in `Result.removed`): scripts and every element outside the SVG 1.1 drawing set
/// (`<script>`, `<foreignObject>`, `<iframe>`, animations that could rewrite links, editor metadata);
/// event-handler attributes (`on*`, SVG 1.1 §18.4); links and references that leave the document
/// (`href`/`xlink:href` that are not `#fragment`, except `data:` PNG/JPEG/GIF/WebP pictures in `<image>`);
/// a `<use>` of an external reference (SVG 1.1 §5.6) as a whole; any value with `javascript:`; `url(…)` that
/// is not `url(#fragment)` and `@import` in style attributes, presentation attributes and `<style>`;
/// comments and processing instructions. Refused: documents with a DTD internal subset (`<!ENTITY>`:
/// entity expansion), documents that are not well-formed XML, a root other than `<svg>`, no size.
///
/// The result has an `xmlns`, a `viewBox` (so that it scales to any box) and a width and height. Pure: no I/O.
public struct SVGSanitizer: Sendable {
    public struct Result: Sendable, Equatable {
        public var bytes: Data
        public var width: Double
        public var height: Double
        public var removed: [String]
    }

    static let svgNamespace = "http://www.w3.org/2000/svg"
    static let xlinkNamespace = "http://www.w3.org/1999/xlink"

    /// SVG 1.1's drawing elements (Appendix A): everything else goes, with what it holds.
    static let allowedElements: Set<String> = [
        "svg", "g", "defs", "title", "desc", "symbol", "use", "image", "switch", "path", "rect", "circle",
        "ellipse", "line", "polyline", "polygon", "text", "tspan", "textPath", "marker", "pattern", "clipPath",
        "mask", "linearGradient", "radialGradient", "stop", "style", "a", "view",
        "filter", "feBlend", "feColorMatrix", "feComponentTransfer", "feComposite", "feConvolveMatrix",
        "feDiffuseLighting", "feDisplacementMap", "feDistantLight", "feDropShadow", "feFlood", "feFuncA", "feFuncB",
        "feFuncG", "feFuncR", "feGaussianBlur", "feMerge", "feMergeNode", "feMorphology", "feOffset",
        "fePointLight", "feSpecularLighting", "feSpotLight", "feTile", "feTurbulence",
    ]

    /// Prefixed attributes that mean something to a renderer; other prefixes (editors' own) go.
    static let allowedPrefixedAttributes: Set<String> = ["xlink:href", "xml:space", "xml:lang", "xmlns:xlink"]

    public init() {}

    public func sanitize(_ data: Data) throws -> Result {
        let head = String(decoding: data.prefix(4096), as: UTF8.self).lowercased()
        if head.contains("<!entity") || (head.contains("<!doctype") && head.range(of: #"<!doctype[^>\[]*\["#, options: .regularExpression) != nil) {
            throw PlanImageError("""
                the SVG declares entities (a DOCTYPE with an internal subset), which WatchBox refuses: export it \
                again as plain SVG, or upload the floor plan as PNG or JPEG
                """)
        }
        let writer = Writer()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = writer
        let parsed = parser.parse()
        if let refusal = writer.refusal { throw PlanImageError(refusal) }
        // FoundationXML's parser can end without complaint inside an unclosed element: count them ourselves.
        guard parsed, writer.rootSeen, writer.isComplete else {
            let reason = parser.parserError.map { " (line \(parser.lineNumber): \($0.localizedDescription))" } ?? ""
            throw PlanImageError("""
                the SVG is not well-formed XML\(reason): save it again from the drawing program, or upload the \
                floor plan as PNG or JPEG
                """)
        }
        guard let size = writer.size else {
            throw PlanImageError("""
                the SVG has no size (no width and height, and no viewBox on <svg>): give it a viewBox in the \
                drawing program, or upload the floor plan as PNG or JPEG
                """)
        }
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + writer.output + "\n"
        return Result(bytes: Data(text.utf8), width: size.width, height: size.height, removed: writer.removed)
    }

    // MARK: - Rules (static, so that they are tested on their own)

    /// A value with control characters and white space removed, lower-cased: how browsers see a URL scheme.
    static func squeezed(_ value: String) -> String {
        String(value.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }.map(Character.init)).lowercased()
    }

    /// Whether a value is dangerous wherever it appears: a script URL, a non-local `url(…)`, `@import`, `expression(`.
    static func hasUnsafeValue(_ value: String) -> Bool {
        let compact = squeezed(value)
        if compact.contains("javascript:") || compact.contains("vbscript:") || compact.contains("data:text/html") { return true }
        if compact.contains("@import") || compact.contains("expression(") || compact.contains("behavior:") { return true }
        var rest = compact[...]
        while let open = rest.range(of: "url(") {
            let inside = rest[open.upperBound...].drop { $0 == "\"" || $0 == "'" }
            if !inside.hasPrefix("#") { return true }
            rest = rest[open.upperBound...]
        }
        return false
    }

    /// Whether an `href` may stay on `element`: a fragment (`#id`) anywhere; a data: raster picture on `<image>`.
    static func isSafeReference(_ value: String, element: String) -> Bool {
        let compact = squeezed(value)
        if compact.hasPrefix("#") { return true }
        if element == "image" {
            return ["data:image/png;", "data:image/jpeg;", "data:image/gif;", "data:image/webp;"].contains { compact.hasPrefix($0) }
        }
        return false
    }

    /// An SVG length in user units (CSS px): a number with an optional absolute unit; nil for percentages
    /// and anything unreadable (SVG 1.1 §7.10).
    static func length(_ text: String?) -> Double? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        let units: [(String, Double)] = [("px", 1), ("pt", 4.0 / 3.0), ("pc", 16), ("mm", 96 / 25.4), ("cm", 96 / 2.54), ("in", 96)]
        var number = Substring(text)
        var scale = 1.0
        for (unit, factor) in units where text.hasSuffix(unit) {
            number = text.dropLast(unit.count)
            scale = factor
        }
        guard let value = Double(number.trimmingCharacters(in: .whitespaces)), value.isFinite, value > 0 else { return nil }
        return value * scale
    }

    /// viewBox = min-x min-y width height (SVG 1.1 §7.7), separated by white space and/or commas.
    static func viewBox(_ text: String?) -> (x: Double, y: Double, width: Double, height: Double)? {
        guard let text else { return nil }
        let numbers = text.split { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r" }.compactMap { Double($0) }
        guard numbers.count == 4, numbers[2] > 0, numbers[3] > 0, numbers.allSatisfy(\.isFinite) else { return nil }
        return (numbers[0], numbers[1], numbers[2], numbers[3])
    }

    /// The intrinsic size from the root's width, height and viewBox.
    static func size(width: String?, height: String?, viewBox box: String?) -> (width: Double, height: Double)? {
        let w = length(width), h = length(height), vb = viewBox(box)
        switch (w, h, vb) {
        case let (w?, h?, _): return (w, h)
        case let (w?, nil, vb?): return (w, w * vb.height / vb.width)
        case let (nil, h?, vb?): return (h * vb.width / vb.height, h)
        case let (nil, nil, vb?): return (vb.width, vb.height)
        default: return nil
        }
    }

    static func escape(_ text: String, attribute: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            case "\n" where attribute: out += "&#10;"
            case "\t" where attribute: out += "&#9;"
            case "\r": out += "&#13;"
            default: out.append(character)
            }
        }
        return out
    }

    // MARK: - The streaming writer

    /// XMLParser's delegate: writes kept elements as they come, skips removed ones with everything inside.
    private final class Writer: NSObject, XMLParserDelegate {
        var output = ""
        var removed: [String] = []
        var refusal: String?
        var rootSeen = false
        var size: (width: Double, height: Double)?
        /// > 0 while inside a removed element.
        private var skipDepth = 0
        /// The kept elements open at this point.
        private var open: [String] = []
        /// Every element, kept or skipped, was closed.
        var isComplete: Bool { open.isEmpty && skipDepth == 0 }
        /// The text of an open `<style>`, checked when it closes.
        private var styleText: String?

        private func note(_ what: String) {
            if !removed.contains(what) { removed.append(what) }
        }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if refusal != nil { return }
            if skipDepth > 0 {
                skipDepth += 1
                return
            }
            if !rootSeen {
                rootSeen = true
                guard name == "svg" else {
                    refusal = "the file is XML but not SVG (its root element is <\(name)>): upload the floor plan as JPEG, PNG or SVG"
                    parser.abortParsing()
                    return
                }
            }
            guard SVGSanitizer.allowedElements.contains(name) else {
                note("<\(name)> element")
                skipDepth = 1
                return
            }
            var kept: [(String, String)] = []
            for (attribute, value) in attributes {
                let lower = attribute.lowercased()
                if lower.hasPrefix("on") {
                    note("\(lower) attribute")
                    continue
                }
                if attribute.contains(":") && !SVGSanitizer.allowedPrefixedAttributes.contains(attribute) {
                    if !attribute.hasPrefix("xmlns:") { note("\(attribute) attribute") }
                    continue
                }
                if attribute == "xmlns:xlink" { continue } // written again below when needed
                if attribute == "xmlns" { continue } // the root gets the SVG namespace below
                if attribute == "href" || attribute == "xlink:href" {
                    guard SVGSanitizer.isSafeReference(value, element: name) else {
                        if name == "use" || name == "feImage" {
                            note("<\(name)> of an external reference")
                            skipDepth = 1
                            return
                        }
                        note("external \(attribute)")
                        continue
                    }
                }
                if SVGSanitizer.hasUnsafeValue(value) {
                    note(attribute == "style" ? "style with url(…) or a script" : "\(attribute) with url(…) or a script")
                    continue
                }
                kept.append((attribute, value))
            }
            if open.isEmpty {
                // The root: the SVG namespace, and a viewBox so that the picture scales to whatever box shows it.
                let value = { (key: String) in attributes[key] }
                guard let size = SVGSanitizer.size(width: value("width"), height: value("height"), viewBox: value("viewBox")) else {
                    refusal = """
                        the SVG has no size (no width and height, and no viewBox on <svg>): give it a viewBox in the \
                        drawing program, or upload the floor plan as PNG or JPEG
                        """
                    parser.abortParsing()
                    return
                }
                self.size = size
                kept.removeAll { $0.0 == "width" || $0.0 == "height" }
                kept.append(("width", SVGSanitizer.number(size.width)))
                kept.append(("height", SVGSanitizer.number(size.height)))
                if SVGSanitizer.viewBox(value("viewBox")) == nil {
                    kept.removeAll { $0.0 == "viewBox" }
                    kept.append(("viewBox", "0 0 \(SVGSanitizer.number(size.width)) \(SVGSanitizer.number(size.height))"))
                }
                kept.append(("xmlns", SVGSanitizer.svgNamespace))
                kept.append(("xmlns:xlink", SVGSanitizer.xlinkNamespace))
            }
            kept.sort { $0.0 < $1.0 }
            output += "<\(name)"
            for (attribute, value) in kept {
                output += " \(attribute)=\"\(SVGSanitizer.escape(value, attribute: true))\""
            }
            output += ">"
            open.append(name)
            if name == "style" {
                styleText = ""
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if refusal != nil { return }
            if skipDepth > 0 {
                skipDepth -= 1
                return
            }
            guard let last = open.popLast() else { return }
            if last == "style", let text = styleText {
                styleText = nil
                if SVGSanitizer.hasUnsafeValue(text) {
                    // Drop the whole <style> element: cut back to before its start tag.
                    if let start = output.range(of: "<style", options: .backwards)?.lowerBound { output = String(output[..<start]) }
                    note("<style> with url(…) or @import")
                    return
                }
                output += SVGSanitizer.escape(text, attribute: false)
            }
            output += "</\(last)>"
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard skipDepth == 0, !open.isEmpty, refusal == nil else { return }
            if styleText != nil {
                styleText! += string
            } else {
                output += SVGSanitizer.escape(string, attribute: false)
            }
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            self.parser(parser, foundCharacters: String(decoding: block, as: UTF8.self))
        }

        func parser(_ parser: XMLParser, foundProcessingInstructionWithTarget target: String, data: String?) {
            if target.lowercased() != "xml" { note("processing instruction <?\(target)?>") }
        }

        func parser(_ parser: XMLParser, foundComment comment: String) {}

        func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
            note("external entity \(name)")
            return nil
        }
    }

    /// A number as SVG writes it: no ".0" for whole numbers.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
