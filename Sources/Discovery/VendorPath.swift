/// A stream path a camera maker documents, tried with DESCRIBE to find a working URL.
public struct VendorPath: Sendable, Equatable, Codable {
    /// The maker, as `VendorGuess` names it ("Hikvision"); nil for generic paths many makers use.
    public var vendor: String?
    /// The path with its query, starting with "/".
    public var path: String
    /// "main" (the full-resolution stream) or "sub" (the smaller one), as documented.
    public var role: String

    public init(vendor: String?, path: String, role: String) {
        self.vendor = vendor
        self.path = path
        self.role = role
    }

    /// The well-known paths, vendor ones first. Where each comes from:
    /// - Hikvision: "ISAPI / RTSP URL" in Hikvision's "How to get RTSP stream" support note — channel 1 main stream
    ///   /Streaming/Channels/101, sub stream /102 (channel × 100 + stream number).
    /// - Dahua and Amcrest (Dahua OEM): Dahua's "HTTP API for IP camera" §4.1.1 (and Amcrest's HTTP API SDK
    ///   document) — /cam/realmonitor?channel=1&subtype=0 main, subtype=1 extra stream 1.
    /// - Axis: VAPIX "RTSP API" — /axis-media/media.amp.
    /// - Reolink: Reolink support "Introduction to RTSP" — /h264Preview_01_main and /h264Preview_01_sub.
    /// - Uniview: Uniview "How to view live video via RTSP" — /media/video1 main, /media/video2 sub.
    /// - TP-Link Tapo: TP-Link FAQ 2680 "How to view Tapo camera via RTSP" — /stream1 (high), /stream2 (low).
    /// - Foscam: Foscam "RTSP URL" FAQ (HD models) — /videoMain and /videoSub, RTSP port 88.
    /// - Generic: /live (many ONVIF-era Chinese OEM boards), /stream (GStreamer examples, mediamtx-style setups),
    ///   /h264 (Vivotek-era and generic encoders), /ch0 and /ch1 (HiSilicon-based OEM boards: /ch0_0.h264 family),
    ///   /live/main and /live/sub (generic NVR firmware), /11 and /12 (HiSilicon XM/"IPCam" boards).
    public static let wellKnown: [VendorPath] = [
        VendorPath(vendor: "Hikvision", path: "/Streaming/Channels/101", role: "main"),
        VendorPath(vendor: "Hikvision", path: "/Streaming/Channels/102", role: "sub"),
        VendorPath(vendor: "Dahua", path: "/cam/realmonitor?channel=1&subtype=0", role: "main"),
        VendorPath(vendor: "Dahua", path: "/cam/realmonitor?channel=1&subtype=1", role: "sub"),
        VendorPath(vendor: "Axis", path: "/axis-media/media.amp", role: "main"),
        VendorPath(vendor: "Reolink", path: "/h264Preview_01_main", role: "main"),
        VendorPath(vendor: "Reolink", path: "/h264Preview_01_sub", role: "sub"),
        VendorPath(vendor: "Uniview", path: "/media/video1", role: "main"),
        VendorPath(vendor: "Uniview", path: "/media/video2", role: "sub"),
        VendorPath(vendor: "TP-Link", path: "/stream1", role: "main"),
        VendorPath(vendor: "TP-Link", path: "/stream2", role: "sub"),
        VendorPath(vendor: "Foscam", path: "/videoMain", role: "main"),
        VendorPath(vendor: "Foscam", path: "/videoSub", role: "sub"),
        VendorPath(vendor: nil, path: "/live", role: "main"),
        VendorPath(vendor: nil, path: "/stream", role: "main"),
        VendorPath(vendor: nil, path: "/h264", role: "main"),
        VendorPath(vendor: nil, path: "/ch0", role: "main"),
        VendorPath(vendor: nil, path: "/ch1", role: "sub"),
        VendorPath(vendor: nil, path: "/live/main", role: "main"),
        VendorPath(vendor: nil, path: "/live/sub", role: "sub"),
        VendorPath(vendor: nil, path: "/11", role: "main"),
        VendorPath(vendor: nil, path: "/12", role: "sub"),
    ]

    /// The order to try paths on a device: the guessed vendor's paths first, then the generic ones, then the rest.
    public static func ordered(for vendor: String?) -> [VendorPath] {
        let own = wellKnown.filter { vendor != nil && $0.vendor == vendor }
        let generic = wellKnown.filter { $0.vendor == nil }
        let others = wellKnown.filter { $0.vendor != nil && $0.vendor != vendor }
        return own + generic + others
    }

    /// The documented path entry for a path that worked, if any.
    public static func known(_ path: String) -> VendorPath? {
        wellKnown.first { $0.path == path }
    }
}
