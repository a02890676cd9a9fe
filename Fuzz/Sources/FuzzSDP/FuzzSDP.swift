import FuzzSupport
import H26x
import NIOCore
import RTSPCore

/// Fuzzes SessionDescription.parse (RFC 4566) on the input read as UTF-8 (invalid
/// sequences replaced), then follows the path a client takes from the SDP: the media's
/// control URLs resolved against the request URL, rtpmap/fmtp lookups, and the
/// sprop-parameter-sets (RFC 6184 §8.1) or sprop-vps/sps/pps (RFC 7798 §7.1) handed to a
/// depacketizer, which parses them as parameter sets.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let sdp = try? SessionDescription.parse(text) else {
        return 0
    }
    let base = try! RTSPURL(string: "rtsp://user:pass@127.0.0.1:8554/stream")
    if let control = sdp.control {
        _ = base.resolving(control).requestURI
    }
    _ = sdp.range
    _ = sdp.warnings.count
    for media in sdp.media {
        if let control = media.control {
            _ = base.resolving(control).requestURI
        }
        _ = media.framerate
        _ = media.clockRate
        _ = media.payloadType
        let encoding = media.encodingName
        for (_, parameters) in media.fmtps {
            _ = parameters["packetization-mode"]
            _ = parameters["profile-level-id"]
        }
        guard let parameters = media.formatParameters else { continue }
        switch encoding {
        case "H264":
            let sets = parameters.base64List("sprop-parameter-sets")
            let depacketizer = H264Depacketizer(parameterSets: sets)
            _ = depacketizer.format?.codecString
        case "H265", "HEVC":
            let sets = parameters.base64List("sprop-vps") + parameters.base64List("sprop-sps")
                + parameters.base64List("sprop-pps")
            let depacketizer = H265Depacketizer(parameterSets: sets)
            _ = depacketizer.format?.codecString
        default:
            _ = parameters.base64List("config")
        }
    }
    return 0
}
