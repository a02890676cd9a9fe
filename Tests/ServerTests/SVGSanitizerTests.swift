import Foundation
@testable import Server
import Testing

/// `SVGSanitizer`: what a floor plan's SVG keeps and what it loses.
@Suite struct SVGSanitizerTests {
    func sanitized(_ svg: String) throws -> (text: String, result: SVGSanitizer.Result) {
        let result = try SVGSanitizer().sanitize(Data(svg.utf8))
        return (String(decoding: result.bytes, as: UTF8.self), result)
    }

    @Test func drawingIsKeptAsWritten() throws {
        let (text, result) = try sanitized("""
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300">
              <defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs>
              <g fill="url(#g)"><rect x="10" y="10" width="100" height="50"/><text x="5" y="290">Lobby &amp; desk</text></g>
              <use href="#g"/>
            </svg>
            """)
        #expect(result.width == 400 && result.height == 300 && result.removed.isEmpty)
        #expect(text.contains(#"<rect height="50" width="100" x="10" y="10"></rect>"#))
        #expect(text.contains("Lobby &amp; desk"))
        #expect(text.contains(#"fill="url(#g)""#))
        #expect(text.contains(##"<use href="#g">"##))
        #expect(text.contains(#"viewBox="0 0 400 300""#) && text.contains(#"width="400""#) && text.contains(#"height="300""#))
    }

    @Test func scriptTagsAreRemovedWithTheirContent() throws {
        let (text, result) = try sanitized("""
            <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert('x')</script>\
            <script><![CDATA[fetch('//evil')]]></script><rect width="1" height="1"/></svg>
            """)
        #expect(!text.contains("script") && !text.contains("alert") && !text.contains("evil"))
        #expect(text.contains("<rect"))
        #expect(result.removed.contains("<script> element"))
    }

    @Test func eventHandlerAttributesAreRemoved() throws {
        let (text, result) = try sanitized("""
            <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="alert(1)">\
            <rect width="1" height="1" onclick="steal()" ONMOUSEOVER="x()"/></svg>
            """)
        #expect(!text.lowercased().contains("onload") && !text.lowercased().contains("onclick") && !text.lowercased().contains("onmouseover"))
        #expect(!text.contains("alert") && !text.contains("steal"))
        #expect(result.removed.contains("onload attribute") && result.removed.contains("onclick attribute"))
    }

    @Test func externalReferencesAreRemoved() throws {
        let (text, result) = try sanitized("""
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">\
            <image href="https://tracker.example/pixel.png" width="1" height="1"/>\
            <image xlink:href="file:///etc/passwd" width="1" height="1"/>\
            <use xlink:href="https://evil.example/sprites.svg#a"/>\
            <a href="javascript:alert(1)"><rect width="1" height="1"/></a>\
            <a xlink:href="  jav&#x09;ascript:alert(2)"><circle r="1"/></a>\
            <image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>\
            </svg>
            """)
        #expect(!text.contains("tracker.example") && !text.contains("/etc/passwd") && !text.contains("evil.example"))
        #expect(!text.lowercased().contains("javascript") && !text.contains("alert"))
        #expect(!text.contains("<use"), "a <use> of an external reference goes whole")
        #expect(text.contains("data:image/png;base64,iVBORw0KGgo="), "an embedded raster picture stays")
        #expect(text.contains("<rect") && text.contains("<circle"), "the link's drawing stays")
        #expect(result.removed.contains("external href") && result.removed.contains("external xlink:href"))
        #expect(result.removed.contains("<use> of an external reference"))
    }

    @Test func foreignObjectAndUnknownElementsGo() throws {
        let (text, result) = try sanitized("""
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:sodipodi="x" width="10" height="10" sodipodi:docname="a.svg">\
            <foreignObject width="10" height="10"><iframe src="https://evil.example"></iframe><p>hi</p></foreignObject>\
            <sodipodi:namedview/><set attributeName="href" to="javascript:alert(1)"/><animate attributeName="onload"/>\
            <rect width="1" height="1"/></svg>
            """)
        #expect(!text.contains("foreignObject") && !text.contains("iframe") && !text.contains("evil") && !text.contains("hi"))
        #expect(!text.contains("sodipodi") && !text.contains("<set") && !text.contains("<animate"))
        #expect(text.contains("<rect"))
        #expect(result.removed.contains("<foreignObject> element"))
    }

    @Test func styleWithExternalURLsIsRemoved() throws {
        let (text, result) = try sanitized("""
            <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\
            <style>@import url(https://evil.example/a.css); rect { fill: red }</style>\
            <style>.wall { stroke: #333 }</style>\
            <rect width="1" height="1" style="fill: url('https://evil.example/x.png')"/>\
            <rect width="2" height="2" style="fill: url(#pattern); stroke: blue"/>\
            <circle r="1" fill="url(http://evil.example/#p)"/></svg>
            """)
        #expect(!text.contains("evil.example") && !text.contains("@import"))
        #expect(text.contains(".wall { stroke: #333 }"), "a harmless <style> stays")
        #expect(text.contains(#"style="fill: url(#pattern); stroke: blue""#), "a local url(#id) stays")
        #expect(result.removed.contains("<style> with url(…) or @import") && result.removed.contains("style with url(…) or a script"))
    }

    @Test func entityDeclarationsAreRefused() {
        let bomb = """
            <?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>
            <svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><text>&b;</text></svg>
            """
        let error = #expect(throws: PlanImageError.self) { _ = try SVGSanitizer().sanitize(Data(bomb.utf8)) }
        #expect(error?.description.contains("entities") == true)
    }

    @Test func aPlainDoctypeIsDroppedNotRefused() throws {
        let (text, _) = try sanitized("""
            <?xml version="1.0" standalone="no"?>
            <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
            <!-- Generator: a drawing program --><svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="10mm"><rect width="1" height="1"/></svg>
            """)
        #expect(!text.contains("DOCTYPE") && !text.contains("Generator"))
        #expect(text.contains(#"viewBox="0 0 75.59"#) && text.contains(#" 37.79"#), "millimetres become CSS pixels")
    }

    @Test(arguments: [
        ("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 1 1'><rect/>", "well-formed"),
        ("<svg xmlns='http://www.w3.org/2000/svg'><rect width='1' height='1'/></svg>", "no size"),
        ("<svg xmlns='http://www.w3.org/2000/svg' width='50%' height='50%'/>", "no size"),
        ("<html xmlns='http://www.w3.org/1999/xhtml'/>", "not SVG"),
    ])
    func brokenOrSizelessSVGIsRefused(svg: String, said: String) {
        let error = #expect(throws: PlanImageError.self) { _ = try SVGSanitizer().sanitize(Data(svg.utf8)) }
        #expect(error?.description.contains(said) == true)
    }

    @Test func sizeFromWidthHeightAndViewBox() {
        #expect(SVGSanitizer.size(width: "800", height: "600", viewBox: nil).map { [$0.width, $0.height] } == [800, 600])
        #expect(SVGSanitizer.size(width: "400px", height: nil, viewBox: "0 0 200 100").map { [$0.width, $0.height] } == [400, 200])
        #expect(SVGSanitizer.size(width: nil, height: "1in", viewBox: "0,0,50,100").map { [$0.width, $0.height] } == [48, 96])
        #expect(SVGSanitizer.size(width: "100%", height: "100%", viewBox: "10 10 300 150").map { [$0.width, $0.height] } == [300, 150])
        #expect(SVGSanitizer.size(width: nil, height: nil, viewBox: "0 0 0 10") == nil)
    }

    @Test func unsafeValueRules() {
        #expect(SVGSanitizer.hasUnsafeValue("url(https://a)"))
        #expect(SVGSanitizer.hasUnsafeValue("URL( \"//a\" )"))
        #expect(SVGSanitizer.hasUnsafeValue("java\u{0}script:x"))
        #expect(!SVGSanitizer.hasUnsafeValue("url(#a) url('#b')"))
        #expect(!SVGSanitizer.hasUnsafeValue("translate(10 20) rotate(45)"))
    }

    /// What comes out parses again, and sanitizing it again changes nothing.
    @Test func sanitizingIsIdempotent() throws {
        let first = try SVGSanitizer().sanitize(Data("""
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 30" onload="x()"><text>a &lt; b "q"</text>\
            <rect width="1" height="1" data-label='say "hi"'/></svg>
            """.utf8))
        let second = try SVGSanitizer().sanitize(first.bytes)
        #expect(second.bytes == first.bytes)
        #expect(second.removed.isEmpty)
    }
}
