/// One stream of an RFC 2326 §12.33 RTP-Info header (PLAY response):
/// `url=rtsp://cam/track1;seq=45102;rtptime=12345678, url=…`.
public struct RTPInfoEntry: Sendable, Equatable {
    /// The stream's control URL as written ("" when the camera left it out).
    public var url: String
    /// RTP sequence number of the first packet after PLAY.
    public var sequenceNumber: UInt16?
    /// RTP timestamp of the first packet after PLAY (the start of the Range).
    public var rtpTimestamp: UInt32?

    public init(url: String, sequenceNumber: UInt16? = nil, rtpTimestamp: UInt32? = nil) {
        self.url = url
        self.sequenceNumber = sequenceNumber
        self.rtpTimestamp = rtpTimestamp
    }

    /// Parses every entry. Entries are split at commas that start a new `url=`, so a
    /// comma inside a URL survives; within an entry, `seq=` and `rtptime=` are parameters
    /// and any other `;`-piece after the `url=` belongs to the URL (a ';' in its query).
    /// Unreadable numbers are left nil; keys in any case; spaces tolerated.
    public static func parse(_ value: String) -> [RTPInfoEntry] {
        var entries: [String] = []
        for piece in value.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = piece.trimmingASCIIWhitespace()
            if entries.isEmpty || trimmed.hasASCIIPrefixIgnoringCase("url=") {
                entries.append(trimmed)
            } else {
                entries[entries.count - 1] += "," + piece
            }
        }
        return entries.compactMap(parseEntry)
    }

    private static func parseEntry(_ text: String) -> RTPInfoEntry? {
        guard !text.trimmingASCIIWhitespace().isEmpty else { return nil }
        var entry = RTPInfoEntry(url: "")
        var inURL = false
        for piece in text.split(separator: ";", omittingEmptySubsequences: false) {
            let trimmed = piece.trimmingASCIIWhitespace()
            let (rawKey, rawValue) = trimmed.splitOnce("=")
            let key = rawKey.trimmingASCIIWhitespace().lowercased()
            switch key {
            case "url":
                entry.url = (rawValue ?? "").trimmingASCIIWhitespace()
                inURL = true
            case "seq":
                entry.sequenceNumber = rawValue.flatMap { UInt16($0.trimmingASCIIWhitespace()) }
                inURL = false
            case "ssrc":
                inURL = false  // RFC 7826 §18.45 adds ssrc; not used here
            case "rtptime":
                entry.rtpTimestamp = rawValue.flatMap { UInt32($0.trimmingASCIIWhitespace()) }
                inURL = false
            default:
                if inURL { entry.url += ";" + piece }
            }
        }
        return entry
    }
}
