/// One media profile of an ONVIF device (ONVIF Media Service Specification §5.2 GetProfiles,
/// Media2 Service Specification §5.2) with the parts WatchBox needs: its video encoder and URIs.
public struct ONVIFMediaProfile: Sendable, Equatable, Codable {
    /// `token` attribute: the handle for GetStreamUri/GetSnapshotUri.
    public var token: String
    /// `Name`, as the camera calls it ("mainStream", "Profile_1", …).
    public var name: String
    /// Video encoding: "H264", "H265", "JPEG", "MPEG4", … (Media2's "H.264"-style names and MPV4-ES are normalised).
    public var encoding: String?
    /// `Resolution/Width`.
    public var width: Int?
    /// `Resolution/Height`.
    public var height: Int?
    /// `RateControl/FrameRateLimit`.
    public var fps: Double?
    /// RTSP URI from GetStreamUri, as given.
    public var streamURI: String?
    /// HTTP URI from GetSnapshotUri, as given.
    public var snapshotURI: String?

    public init(token: String, name: String, encoding: String? = nil, width: Int? = nil, height: Int? = nil,
                fps: Double? = nil, streamURI: String? = nil, snapshotURI: String? = nil) {
        self.token = token
        self.name = name
        self.encoding = encoding
        self.width = width
        self.height = height
        self.fps = fps
        self.streamURI = streamURI
        self.snapshotURI = snapshotURI
    }

    /// Width × height, 0 when unknown (for sorting).
    public var pixelCount: Int { (width ?? 0) * (height ?? 0) }
}
