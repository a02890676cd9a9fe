import Foundation

/// A guess of a device's maker from what it said: ONVIF manufacturer (most reliable), the RTSP `Server`
/// header, then a vendor-specific stream path that worked.
public enum VendorGuess {
    /// Makers and the words that identify them in a manufacturer string or a `Server` header
    /// (lower-case). OEM brands are folded into the firmware's maker where that firmware names itself
    /// (Amcrest's and Lorex's RTSP servers say "Dahua"; Annke's and LTS's say "Hikvision" or "HIK").
    static let signatures: [(vendor: String, words: [String])] = [
        ("Hikvision", ["hikvision", "hikv", "hik-connect", "hikvision-webs", "dnvrs-webs", "app-webs"]),
        ("Dahua", ["dahua", "dh-ipc", "rtsp server/1.0 dahua"]),
        ("Amcrest", ["amcrest"]),
        ("Axis", ["axis"]),
        ("Reolink", ["reolink"]),
        ("Uniview", ["uniview", "unv"]),
        ("TP-Link", ["tp-link", "tplink", "tapo"]),
        ("Foscam", ["foscam"]),
        ("Hanwha", ["hanwha", "samsung techwin", "wisenet"]),
        ("Ubiquiti", ["ubiquiti", "ubnt", "unifi"]),
        ("Vivotek", ["vivotek"]),
        ("Bosch", ["bosch"]),
        ("Sony", ["sony"]),
        ("Panasonic", ["panasonic", "i-pro"]),
        ("Mobotix", ["mobotix"]),
        ("Honeywell", ["honeywell"]),
        ("Ezviz", ["ezviz"]),
        ("GStreamer", ["gstreamer", "gstrtspserver"]),
        ("live555", ["live555", "lives.com"]),
    ]

    /// The maker named by `text` (a manufacturer or a `Server` header), or nil.
    public static func vendor(in text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        let lower = text.lowercased()
        for (vendor, words) in signatures where words.contains(where: { Self.containsWord($0, in: lower) }) {
            return vendor
        }
        return nil
    }

    /// The best guess from everything known about a device, most reliable source first.
    public static func guess(manufacturer: String?, serverHeaders: [String], workingPaths: [String]) -> String? {
        if let vendor = vendor(in: manufacturer) { return vendor }
        if let manufacturer = manufacturer?.trimmingCharacters(in: .whitespaces), !manufacturer.isEmpty { return manufacturer }
        for server in serverHeaders {
            if let vendor = vendor(in: server) { return vendor }
        }
        for path in workingPaths {
            if let vendor = VendorPath.known(path)?.vendor { return vendor }
        }
        return nil
    }

    /// Whether `word` occurs in `text` not glued to letters on either side ("unv" in "unv-ipc" but not in "universal").
    static func containsWord(_ word: String, in text: String) -> Bool {
        var searchRange = text.startIndex..<text.endIndex
        while let found = text.range(of: word, range: searchRange) {
            let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
            let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
            if !(before?.isLetter ?? false) && !(after?.isLetter ?? false) { return true }
            searchRange = found.upperBound..<text.endIndex
        }
        return false
    }
}
