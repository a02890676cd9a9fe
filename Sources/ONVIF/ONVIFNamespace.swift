/// Namespace URIs WatchBox matches on (never on prefixes).
public enum ONVIFNamespace {
    /// SOAP 1.2 envelope (W3C SOAP 1.2 Part 1 §5).
    public static let soapEnvelope = "http://www.w3.org/2003/05/soap-envelope"
    /// SOAP 1.1 envelope: not ONVIF, but some devices answer faults with it.
    public static let soap11Envelope = "http://schemas.xmlsoap.org/soap/envelope/"
    /// WS-Addressing 2004/08, used by WS-Discovery 2005/04.
    public static let addressing = "http://schemas.xmlsoap.org/ws/2004/08/addressing"
    /// WS-Discovery 2005/04.
    public static let discovery = "http://schemas.xmlsoap.org/ws/2005/04/discovery"
    /// ONVIF network (discovery types: `dn:NetworkVideoTransmitter`).
    public static let network = "http://www.onvif.org/ver10/network/wsdl"
    /// ONVIF device management service (tds).
    public static let device = "http://www.onvif.org/ver10/device/wsdl"
    /// ONVIF Media service (trt).
    public static let media = "http://www.onvif.org/ver10/media/wsdl"
    /// ONVIF Media2 service (tr2).
    public static let media2 = "http://www.onvif.org/ver20/media/wsdl"
    /// ONVIF schema types (tt).
    public static let schema = "http://www.onvif.org/ver10/schema"
    /// ONVIF error codes (ter).
    public static let error = "http://www.onvif.org/ver10/error"
    /// WS-Security 1.0 secext (wsse).
    public static let wsse = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"
    /// WS-Security 1.0 utility (wsu).
    public static let wsu = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"
    /// UsernameToken Profile 1.0 §3.1 PasswordDigest type.
    public static let passwordDigestType = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest"
    /// SOAP Message Security 1.0 Base64Binary encoding type.
    public static let base64BinaryEncoding = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary"
}
