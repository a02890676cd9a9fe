import Foundation
@testable import Server
import Testing

/// `PlanImage`: the type from the bytes, the intrinsic size, refusals that name the formats that work.
@Suite struct PlanImageTests {
    @Test func pngSizeComesFromIHDR() throws {
        let image = try PlanImage.inspect(PlanImageFixtures.png(width: 1920, height: 1080))
        #expect(image.type == "image/png" && image.width == 1920 && image.height == 1080)
    }

    @Test(arguments: [UInt8(0xC0), 0xC1, 0xC2])
    func jpegSizeComesFromTheFrameHeader(sof: UInt8) throws {
        let image = try PlanImage.inspect(PlanImageFixtures.jpeg(width: 4032, height: 3024, sof: sof))
        #expect(image.type == "image/jpeg" && image.width == 4032 && image.height == 3024)
    }

    @Test func aFileNameOrExtensionPlaysNoPart() throws {
        // SVG text is SVG whatever it would be called; PNG bytes are PNG.
        let svg = try PlanImage.inspect(Data("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='20'/>".utf8))
        #expect(svg.type == "image/svg+xml" && svg.width == 10 && svg.height == 20)
    }

    @Test(arguments: [
        (Data("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8), "GIF"),
        (Data("%PDF-1.7\n".utf8), "PDF"),
        (Data([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50]), "WebP"),
        (Data("hello, plain text".utf8), "not a picture"),
        (Data(), "empty"),
        (Data("<html><body>x</body></html>".utf8), "not SVG"),
    ])
    func otherFilesAreRefusedNamingTheFormatsThatWork(data: Data, said: String) {
        let error = #expect(throws: PlanImageError.self) {
            _ = try PlanImage.inspect(data)
        }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains(said) && text.contains("JPEG") && text.contains("PNG") && text.contains("SVG"))
    }

    @Test func damagedPicturesAreRefused() {
        var png = PlanImageFixtures.png(width: 10, height: 10)
        png[12] = UInt8(ascii: "X") // not IHDR
        #expect(throws: PlanImageError.self) { try PlanImage.inspect(png) }
        #expect(throws: PlanImageError.self) { try PlanImage.inspect(PlanImageFixtures.png(width: 0, height: 10)) }
        let truncated = PlanImageFixtures.jpeg(width: 10, height: 10).prefix(12)
        #expect(throws: PlanImageError.self) { try PlanImage.inspect(Data(truncated)) }
    }

    @Test func moreThanTenMegabytesIsRefused() {
        var big = PlanImageFixtures.png(width: 100, height: 100)
        big.append(Data(count: PlanImage.maxBytes))
        let error = #expect(throws: PlanImageError.self) {
            _ = try PlanImage.inspect(big)
        }
        #expect(error?.description.contains("10 MB") == true)
    }

    /// Every prefix of a JPEG either answers its size or throws: never crashes or reads past the end.
    @Test func everyPrefixOfAJPEGIsHandled() {
        let jpeg = PlanImageFixtures.jpeg(width: 640, height: 480)
        for length in 0...jpeg.count {
            let prefix = Data(jpeg.prefix(length))
            if let image = try? PlanImage.inspect(prefix) {
                #expect(image.width == 640 && image.height == 480, "prefix of \(length) bytes")
            }
        }
    }
}
