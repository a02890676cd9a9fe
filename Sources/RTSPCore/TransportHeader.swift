/// RFC 2326 §12.39 Transport header: the first transport-spec of a SETUP request or
/// response, e.g. `RTP/AVP/TCP;unicast;interleaved=0-1;ssrc=1A2B3C4D;mode="PLAY"`.
public struct TransportHeader: Sendable, Equatable {
    /// RFC 2326 §10.12 interleaved channel identifiers for RTP and RTCP.
    public struct ChannelPair: Sendable, Equatable, Hashable {
        public var rtp: UInt8
        public var rtcp: UInt8

        public init(rtp: UInt8, rtcp: UInt8) {
            self.rtp = rtp
            self.rtcp = rtcp
        }
    }

    /// RFC 2326 §12.39 `client_port` / `server_port`: RTP port and RTCP port.
    public struct PortPair: Sendable, Equatable, Hashable {
        public var rtp: Int
        public var rtcp: Int

        public init(rtp: Int, rtcp: Int) {
            self.rtp = rtp
            self.rtcp = rtcp
        }
    }

    /// `transport/profile[/lower-transport]` as written: "RTP/AVP", "RTP/AVP/TCP", "RTP/AVP/UDP".
    public var profile: String
    /// `unicast` vs `multicast`; true unless `multicast` is given (cameras often omit both).
    public var isUnicast: Bool
    /// `interleaved=n-m`.
    public var interleaved: ChannelPair?
    /// `client_port=n-m`.
    public var clientPort: PortPair?
    /// `server_port=n-m`.
    public var serverPort: PortPair?
    /// `ssrc=` (hexadecimal in the header, RFC 2326 §12.39).
    public var ssrc: UInt32?
    /// `mode=` without quotes ("PLAY", "RECORD").
    public var mode: String?
    /// `source=`.
    public var source: String?
    /// `destination=`.
    public var destination: String?

    public init(profile: String, isUnicast: Bool = true, interleaved: ChannelPair? = nil, clientPort: PortPair? = nil,
                serverPort: PortPair? = nil, ssrc: UInt32? = nil, mode: String? = nil, source: String? = nil,
                destination: String? = nil) {
        self.profile = profile
        self.isUnicast = isUnicast
        self.interleaved = interleaved
        self.clientPort = clientPort
        self.serverPort = serverPort
        self.ssrc = ssrc
        self.mode = mode
        self.source = source
        self.destination = destination
    }

    /// RTP over the RTSP TCP connection: a `/TCP` lower transport, or interleaved
    /// channels given without it.
    public var isTCP: Bool {
        profile.uppercased().hasSuffix("/TCP") || interleaved != nil
    }

    /// Parses the first of the comma-separated alternatives.
    ///
    /// Tolerated: `interleaved=0` (one channel → 0-1), `client_port=5000` without "-b"
    /// (→ 5000-5001), unknown parameters (ignored), keys in any case, spaces around ';'
    /// and '=', `ssrc` with or without leading zeros or a "0x" prefix (an unreadable ssrc
    /// is ignored). Throws ``TransportHeaderError`` when there is no RTP transport-spec or
    /// a channel or port value is unreadable.
    public init(parsing value: String) throws {
        let first = value.splitOutsideQuotes(",").first?.trimmingASCIIWhitespace() ?? ""
        let parameters = first.splitOutsideQuotes(";").map { $0.trimmingASCIIWhitespace() }
        guard let spec = parameters.first, !spec.isEmpty, !spec.contains("=") else {
            throw TransportHeaderError("Transport header \"\(value)\" has no transport-spec: expected e.g. RTP/AVP/TCP;unicast;interleaved=0-1")
        }
        self.init(profile: spec)
        for parameter in parameters.dropFirst() where !parameter.isEmpty {
            let (rawKey, rawValue) = parameter.splitOnce("=")
            let key = rawKey.trimmingASCIIWhitespace().lowercased()
            let text = rawValue?.unquoted() ?? ""
            switch key {
            case "unicast":
                isUnicast = true
            case "multicast":
                isUnicast = false
            case "interleaved":
                guard let pair = Self.parsePair(text, limit: 255) else {
                    throw TransportHeaderError("Transport header \"\(value)\" has unreadable interleaved channels \"\(text)\": expected interleaved=n-m with n, m from 0 to 255")
                }
                interleaved = ChannelPair(rtp: UInt8(pair.0), rtcp: UInt8(pair.1))
            case "client_port", "server_port":
                guard let pair = Self.parsePair(text, limit: 65535) else {
                    throw TransportHeaderError("Transport header \"\(value)\" has an unreadable \(key) \"\(text)\": expected \(key)=n-m with ports from 0 to 65535")
                }
                let ports = PortPair(rtp: pair.0, rtcp: pair.1)
                if key == "client_port" { clientPort = ports } else { serverPort = ports }
            case "ssrc":
                ssrc = Self.parseSSRC(text)
            case "mode":
                mode = text.isEmpty ? nil : text
            case "source":
                source = text.isEmpty ? nil : text
            case "destination":
                destination = text.isEmpty ? nil : text
            default:
                continue  // ttl, layers, append, port, … are not used by a unicast client
            }
        }
    }

    /// RTP over the RTSP connection on channels `rtp` and `rtcp` (RFC 2326 §10.12).
    public static func tcpInterleaved(_ rtp: UInt8, _ rtcp: UInt8) -> TransportHeader {
        TransportHeader(profile: "RTP/AVP/TCP", isUnicast: true, interleaved: ChannelPair(rtp: rtp, rtcp: rtcp))
    }

    /// RTP over UDP to our ports.
    public static func udpUnicast(clientRTPPort: Int, clientRTCPPort: Int) -> TransportHeader {
        TransportHeader(profile: "RTP/AVP", isUnicast: true, clientPort: PortPair(rtp: clientRTPPort, rtcp: clientRTCPPort))
    }

    /// The header value, e.g. "RTP/AVP/TCP;unicast;interleaved=0-1".
    public var headerValue: String {
        var parts = [profile, isUnicast ? "unicast" : "multicast"]
        if let destination { parts.append("destination=\(destination)") }
        if let source { parts.append("source=\(source)") }
        if let interleaved { parts.append("interleaved=\(interleaved.rtp)-\(interleaved.rtcp)") }
        if let clientPort { parts.append("client_port=\(clientPort.rtp)-\(clientPort.rtcp)") }
        if let serverPort { parts.append("server_port=\(serverPort.rtp)-\(serverPort.rtcp)") }
        if let ssrc {
            let hex = String(ssrc, radix: 16, uppercase: true)
            parts.append("ssrc=" + String(repeating: "0", count: 8 - hex.count) + hex)
        }
        if let mode { parts.append("mode=\(mode)") }
        return parts.joined(separator: ";")
    }

    /// "a-b" or "a" (→ a, a+1, capped at `limit`).
    private static func parsePair(_ text: String, limit: Int) -> (Int, Int)? {
        let pieces = text.split(separator: "-", omittingEmptySubsequences: false).map { $0.trimmingASCIIWhitespace() }
        guard pieces.count == 1 || pieces.count == 2,
              let first = Int(pieces[0]), (0...limit).contains(first) else { return nil }
        if pieces.count == 2 {
            guard let second = Int(pieces[1]), (0...limit).contains(second) else { return nil }
            return (first, second)
        }
        return (first, min(first + 1, limit))
    }

    /// Up to eight hex digits after optional "0x" and leading zeros.
    private static func parseSSRC(_ text: String) -> UInt32? {
        var digits = Substring(text.trimmingASCIIWhitespace())
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        while digits.count > 8, digits.first == "0" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 8 else { return nil }
        return UInt32(digits, radix: 16)
    }
}
