import Foundation

extension ONVIFMediaProfile {
    /// Media §5.15.1 GetProfilesResponse: `trt:Profiles` (token attribute, `tt:Name`,
    /// `tt:VideoEncoderConfiguration` with `Encoding`, `Resolution`, `RateControl/FrameRateLimit`).
    /// Profiles without a video encoder (audio or metadata only) are left out when any has one.
    public static func parseMedia1(getProfilesResponse response: XMLTreeElement) -> [ONVIFMediaProfile] {
        let all = response.children("Profiles").map { element -> (ONVIFMediaProfile, Bool) in
            var profile = ONVIFMediaProfile(token: element.attributes["token"] ?? "",
                                            name: element.child("Name")?.trimmedText ?? "")
            let encoder = element.child("VideoEncoderConfiguration")
            if let encoder { profile.applyEncoder(encoder) }
            return (profile, encoder != nil && profile.encoding != nil)
        }
        return keepVideo(all)
    }

    /// Media2 §5.2.2 GetProfilesResponse: `tr2:Profiles` with `Configurations/VideoEncoder`.
    public static func parseMedia2(getProfilesResponse response: XMLTreeElement) -> [ONVIFMediaProfile] {
        let all = response.children("Profiles").map { element -> (ONVIFMediaProfile, Bool) in
            var profile = ONVIFMediaProfile(token: element.attributes["token"] ?? "",
                                            name: element.child("Name")?.trimmedText ?? "")
            let encoder = element.child("Configurations")?.child("VideoEncoder")
            if let encoder { profile.applyEncoder(encoder) }
            return (profile, encoder != nil && profile.encoding != nil)
        }
        return keepVideo(all)
    }

    private static func keepVideo(_ all: [(ONVIFMediaProfile, Bool)]) -> [ONVIFMediaProfile] {
        let video = all.filter { $0.1 }.map { $0.0 }
        return (video.isEmpty ? all.map { $0.0 } : video).filter { !$0.token.isEmpty }
    }

    private mutating func applyEncoder(_ encoder: XMLTreeElement) {
        if let raw = encoder.child("Encoding")?.trimmedText, !raw.isEmpty {
            encoding = Self.normalisedEncoding(raw)
        }
        if let resolution = encoder.child("Resolution") {
            width = resolution.child("Width").flatMap { Int($0.trimmedText) }
            height = resolution.child("Height").flatMap { Int($0.trimmedText) }
        }
        if let limit = encoder.child("RateControl")?.child("FrameRateLimit").flatMap({ Double($0.trimmedText) }), limit > 0 {
            fps = limit
        }
    }

    /// Media1 `tt:VideoEncoding` (JPEG, MPEG4, H264) and Media2 `tt:VideoEncodingMimeNames`
    /// (JPEG, MPV4-ES, H264, H265), plus vendor spellings ("H.264", "HEVC", "h265").
    static func normalisedEncoding(_ raw: String) -> String {
        let key = raw.uppercased().replacingOccurrences(of: ".", with: "").replacingOccurrences(of: "-", with: "")
        switch key {
        case "H264", "AVC": return "H264"
        case "H265", "HEVC": return "H265"
        case "JPEG", "MJPEG", "MJPG": return "JPEG"
        case "MPEG4", "MPV4ES", "MP4VES": return "MPEG4"
        default: return raw
        }
    }
}
