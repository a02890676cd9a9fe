/// The SOAP bodies WatchBox sends (ONVIF Core §8 device management; Media Service Specification
/// §5; Media2 Service Specification §5), each with its SOAP action URI (SOAP 1.2 `action` parameter
/// of the Content-Type, which ONVIF servers may dispatch on).
public struct ONVIFRequest: Sendable, Equatable {
    /// The body element, with its namespace declarations.
    public var body: String
    /// `http://www.onvif.org/ver10/device/wsdl/GetSystemDateAndTime` and so on.
    public var action: String
    /// The operation name (for logs and errors).
    public var operation: String

    init(namespace: String, operation: String, prefix: String, content: String = "", extraNamespaces: String = "") {
        self.operation = operation
        self.action = "\(namespace)/\(operation)"
        if content.isEmpty {
            body = "<\(prefix):\(operation) xmlns:\(prefix)=\"\(namespace)\"\(extraNamespaces)/>"
        } else {
            body = "<\(prefix):\(operation) xmlns:\(prefix)=\"\(namespace)\"\(extraNamespaces)>\(content)</\(prefix):\(operation)>"
        }
    }

    /// Core §8.3.12 GetSystemDateAndTime (no authentication required, §5.12.1).
    public static let getSystemDateAndTime = ONVIFRequest(namespace: ONVIFNamespace.device, operation: "GetSystemDateAndTime", prefix: "tds")
    /// Core §8.3.1 GetDeviceInformation.
    public static let getDeviceInformation = ONVIFRequest(namespace: ONVIFNamespace.device, operation: "GetDeviceInformation", prefix: "tds")
    /// Core §8.1.2.1 GetServices (capabilities not included).
    public static let getServices = ONVIFRequest(namespace: ONVIFNamespace.device, operation: "GetServices", prefix: "tds",
                                                 content: "<tds:IncludeCapability>false</tds:IncludeCapability>")
    /// Core §8.1.2.2 GetCapabilities, category All (the pre-2.0 way to find the media service).
    public static let getCapabilities = ONVIFRequest(namespace: ONVIFNamespace.device, operation: "GetCapabilities", prefix: "tds",
                                                     content: "<tds:Category>All</tds:Category>")
    /// Media §5.15.1 GetProfiles.
    public static let getProfilesMedia1 = ONVIFRequest(namespace: ONVIFNamespace.media, operation: "GetProfiles", prefix: "trt")
    /// Media2 §5.2.2 GetProfiles with every configuration (without `Type` only tokens and names come back).
    public static let getProfilesMedia2 = ONVIFRequest(namespace: ONVIFNamespace.media2, operation: "GetProfiles", prefix: "tr2",
                                                       content: "<tr2:Type>All</tr2:Type>")

    /// Media §5.15.3 GetStreamUri: RTP unicast over RTSP.
    public static func getStreamURIMedia1(profileToken: String) -> ONVIFRequest {
        ONVIFRequest(namespace: ONVIFNamespace.media, operation: "GetStreamUri", prefix: "trt",
                     content: "<trt:StreamSetup><tt:Stream>RTP-Unicast</tt:Stream><tt:Transport><tt:Protocol>RTSP</tt:Protocol></tt:Transport></trt:StreamSetup>"
                        + "<trt:ProfileToken>\(XMLEscaping.escape(profileToken))</trt:ProfileToken>",
                     extraNamespaces: " xmlns:tt=\"\(ONVIFNamespace.schema)\"")
    }

    /// Media2 §5.4.1 GetStreamUri with protocol RTSP.
    public static func getStreamURIMedia2(profileToken: String) -> ONVIFRequest {
        ONVIFRequest(namespace: ONVIFNamespace.media2, operation: "GetStreamUri", prefix: "tr2",
                     content: "<tr2:Protocol>RTSP</tr2:Protocol><tr2:ProfileToken>\(XMLEscaping.escape(profileToken))</tr2:ProfileToken>")
    }

    /// Media §5.16.1 GetSnapshotUri.
    public static func getSnapshotURIMedia1(profileToken: String) -> ONVIFRequest {
        ONVIFRequest(namespace: ONVIFNamespace.media, operation: "GetSnapshotUri", prefix: "trt",
                     content: "<trt:ProfileToken>\(XMLEscaping.escape(profileToken))</trt:ProfileToken>")
    }

    /// Media2 §5.4.3 GetSnapshotUri.
    public static func getSnapshotURIMedia2(profileToken: String) -> ONVIFRequest {
        ONVIFRequest(namespace: ONVIFNamespace.media2, operation: "GetSnapshotUri", prefix: "tr2",
                     content: "<tr2:ProfileToken>\(XMLEscaping.escape(profileToken))</tr2:ProfileToken>")
    }
}
