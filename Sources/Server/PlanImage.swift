import Foundation

/// An uploaded floor-plan picture, its type told by its bytes (never by a file name or a Content-Type header)
/// and its intrinsic size read from them. Pure: no I/O.
///
/// - PNG: the signature, then the IHDR chunk's width and height (ISO/IEC 15948 / W3C PNG §5.2, §11.2.2).
/// - JPEG: SOI (FF D8), then marker segments up to a start-of-frame SOFn, whose height and width follow the
///   sample precision (ITU-T T.81 §B.1.1, §B.2.2; SOF markers are C0–CF except C4 DHT, C8 JPG and CC DAC).
/// - SVG: an XML document whose root is `<svg>`, sanitized by `SVGSanitizer`, sized by its width and height
///   or its viewBox (SVG 1.1 §7.2, §7.7).
public struct PlanImage: Sendable, Equatable {
    /// "image/png", "image/jpeg" or "image/svg+xml".
    public var type: String
    public var width: Double
    public var height: Double
    /// What to store: the upload itself, or for SVG its sanitized form.
    public var bytes: Data
    /// For SVG: what the sanitizer removed ("<script> element", "onload attribute", ...).
    public var removed: [String]

    /// Plans are at most this large (issue 8).
    public static let maxBytes = 10 * 1024 * 1024

    static let formats = "upload the floor plan as JPEG, PNG or SVG"

    /// Tells the type from the bytes, reads the size, sanitizes SVG. Throws a `PlanImageError` that says what
    /// is wrong and which formats work.
    public static func inspect(_ data: Data) throws -> PlanImage {
        let bytes = [UInt8](data.prefix(64))
        guard !data.isEmpty else { throw PlanImageError("the picture is empty: \(formats)") }
        guard data.count <= maxBytes else {
            throw PlanImageError("the picture is \(megabytes(data.count)), more than the 10 MB a floor plan may have: save it smaller (JPEG or PNG at a lower resolution, or SVG)")
        }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            let (width, height) = try pngSize(data)
            return PlanImage(type: "image/png", width: width, height: height, bytes: data, removed: [])
        }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            let (width, height) = try jpegSize(data)
            return PlanImage(type: "image/jpeg", width: width, height: height, bytes: data, removed: [])
        }
        if let other = otherFormat(bytes) {
            throw PlanImageError("\(other) pictures cannot be floor plans: \(formats)")
        }
        if looksLikeXML(data) {
            let svg = try SVGSanitizer().sanitize(data)
            return PlanImage(type: "image/svg+xml", width: svg.width, height: svg.height, bytes: svg.bytes, removed: svg.removed)
        }
        throw PlanImageError("the file is not a picture WatchBox knows: \(formats)")
    }

    static func megabytes(_ count: Int) -> String {
        String(format: "%.1f MB", Double(count) / 1_048_576)
    }

    /// PNG §5.2: the 8-byte signature, then IHDR (length 13, type "IHDR", width, height as 4-byte big-endian).
    static func pngSize(_ data: Data) throws -> (Double, Double) {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            throw PlanImageError("the PNG picture is damaged (no IHDR header chunk): save it again, or \(formats)")
        }
        let width = bigEndian(bytes[16..<20])
        let height = bigEndian(bytes[20..<24])
        guard width > 0, height > 0 else {
            throw PlanImageError("the PNG picture says it is \(width)×\(height) pixels: save it again, or \(formats)")
        }
        return (Double(width), Double(height))
    }

    /// T.81 §B.1.1: markers are FF xx; all but SOI, EOI, RSTn and TEM carry a 2-byte length (that counts itself).
    /// The frame header (§B.2.2) is: length, precision P, height Y, width X.
    static func jpegSize(_ data: Data) throws -> (Double, Double) {
        let bytes = [UInt8](data)
        var at = 2
        while at + 4 <= bytes.count {
            guard bytes[at] == 0xFF else { break }
            let marker = bytes[at + 1]
            if marker == 0xFF { at += 1; continue } // fill byte (§B.1.1.2)
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { at += 2; continue }
            if marker == 0xD9 || marker == 0xDA { break } // EOI or start of scan before any frame header
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2 else { break }
            let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrame {
                guard at + 9 <= bytes.count else { break }
                let height = Int(bytes[at + 5]) << 8 | Int(bytes[at + 6])
                let width = Int(bytes[at + 7]) << 8 | Int(bytes[at + 8])
                guard width > 0, height > 0 else {
                    throw PlanImageError("the JPEG picture gives no size (\(width)×\(height)): save it again, or \(formats)")
                }
                return (Double(width), Double(height))
            }
            at += 2 + length
        }
        throw PlanImageError("the JPEG picture is damaged (no frame header with its size): save it again, or \(formats)")
    }

    private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Formats people often try, named so that the answer can say what the file is.
    static func otherFormat(_ bytes: [UInt8]) -> String? {
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            let magic = Array(text.utf8)
            return bytes.count >= offset + magic.count && Array(bytes[offset..<(offset + magic.count)]) == magic
        }
        if starts("GIF87a") || starts("GIF89a") { return "GIF" }
        if starts("RIFF") && starts("WEBP", at: 8) { return "WebP" }
        if starts("%PDF") { return "PDF" }
        if starts("BM") { return "BMP" }
        if starts("ftyp", at: 4) && (starts("heic", at: 8) || starts("heix", at: 8) || starts("mif1", at: 8)) { return "HEIC" }
        if starts("ftyp", at: 4) && starts("avif", at: 8) { return "AVIF" }
        if starts("II*\u{0}") || starts("MM\u{0}*") { return "TIFF" }
        if starts("PK\u{3}\u{4}") { return "ZIP" }
        return nil
    }

    /// Text that starts (after a byte-order mark and white space) with `<`.
    static func looksLikeXML(_ data: Data) -> Bool {
        var bytes = data.prefix(1024)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return false }
        return first == UInt8(ascii: "<")
    }
}
