import Foundation

/// WS-Discovery 2005/04 §5.2 Probe for ONVIF NetworkVideoTransmitters (ONVIF Core §7.3.1:
/// `Types` = `dn:NetworkVideoTransmitter`, dn = http://www.onvif.org/ver10/network/wsdl), sent as
/// SOAP 1.2 over UDP to 239.255.255.250:3702 (SOAP-over-UDP, WS-Discovery §2.4).
public struct WSDiscoveryProbe: Sendable, Equatable {
    /// WS-Discovery §2.4 multicast group and port.
    public static let multicastAddress = "239.255.255.250"
    public static let port = 3702
    /// WS-Discovery §5.2 `To` for multicast messages.
    public static let discoveryTo = "urn:schemas-xmlsoap-org:ws:2005:04:discovery"
    public static let probeAction = "http://schemas.xmlsoap.org/ws/2005/04/discovery/Probe"
    public static let probeMatchesAction = "http://schemas.xmlsoap.org/ws/2005/04/discovery/ProbeMatches"
    public static let helloAction = "http://schemas.xmlsoap.org/ws/2005/04/discovery/Hello"
    public static let byeAction = "http://schemas.xmlsoap.org/ws/2005/04/discovery/Bye"
    static let anonymous = "http://schemas.xmlsoap.org/ws/2004/08/addressing/role/anonymous"

    /// `wsa:MessageID`; ProbeMatches answer it in `wsa:RelatesTo`.
    public var messageID: String

    public init(messageID: String = "urn:uuid:\(UUID().uuidString.lowercased())") {
        self.messageID = messageID
    }

    /// The SOAP envelope, UTF-8.
    public var xml: String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
            + "<s:Envelope xmlns:s=\"\(ONVIFNamespace.soapEnvelope)\" xmlns:a=\"\(ONVIFNamespace.addressing)\""
            + " xmlns:d=\"\(ONVIFNamespace.discovery)\" xmlns:dn=\"\(ONVIFNamespace.network)\">"
            + "<s:Header>"
            + "<a:Action s:mustUnderstand=\"1\">\(Self.probeAction)</a:Action>"
            + "<a:MessageID>\(XMLEscaping.escape(messageID))</a:MessageID>"
            + "<a:ReplyTo><a:Address>\(Self.anonymous)</a:Address></a:ReplyTo>"
            + "<a:To s:mustUnderstand=\"1\">\(Self.discoveryTo)</a:To>"
            + "</s:Header>"
            + "<s:Body><d:Probe><d:Types>dn:NetworkVideoTransmitter</d:Types></d:Probe></s:Body>"
            + "</s:Envelope>"
    }
}
