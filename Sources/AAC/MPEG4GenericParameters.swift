/// The fmtp parameters of an RTP `mpeg4-generic` stream (RFC 3640 §4.1), as numbers.
///
/// Parameter names are matched case-insensitively (RFC 3640 §4.1: "parameter names are
/// case-insensitive"). Absent lengths are 0, which RFC 3640 §3.2.1 takes to mean the field is not
/// present in the AU-header.
public struct MPEG4GenericParameters: Sendable, Equatable {
    /// streamType (ISO/IEC 14496-1 Table 6): 5 is an audio stream.
    public var streamType: Int?
    /// profile-level-id (ISO/IEC 14496-3 §1.5.2.4 audioProfileLevelIndication for audio).
    public var profileLevelID: Int?
    /// mode: "AAC-hbr", "AAC-lbr", "generic", "CELP-cbr", "CELP-vbr" (§3.3).
    public var mode: String?
    /// config: the hexadecimal AudioSpecificConfig, as given.
    public var config: String?
    /// sizeLength: bits of the AU-size field (13 in AAC-hbr, 6 in AAC-lbr).
    public var sizeLength: Int = 0
    /// indexLength: bits of the AU-Index field of the first AU-header (3 in AAC-hbr, 2 in AAC-lbr).
    public var indexLength: Int = 0
    /// indexDeltaLength: bits of the AU-Index-delta field of the other AU-headers (3 in AAC-hbr, 2 in AAC-lbr).
    public var indexDeltaLength: Int = 0
    /// CTSDeltaLength: bits of the CTS-delta field (the CTS-flag is present when this is not 0).
    public var ctsDeltaLength: Int = 0
    /// DTSDeltaLength: bits of the DTS-delta field (the DTS-flag is present when this is not 0).
    public var dtsDeltaLength: Int = 0
    /// randomAccessIndication: whether each AU-header has a RAP-flag.
    public var randomAccessIndication: Bool = false
    /// streamStateIndication: bits of the Stream-state field.
    public var streamStateIndication: Int = 0
    /// auxiliaryDataSizeLength: bits of the auxiliary-data-size field; 0 means no Auxiliary Section.
    public var auxiliaryDataSizeLength: Int = 0
    /// constantSize: the size in bytes of every AU, when AU-size is not signalled (0 if absent).
    public var constantSize: Int = 0
    /// constantDuration: the duration of every AU in RTP timestamp units (0 if absent).
    public var constantDuration: Int = 0

    /// Reads the parameters from fmtp keys (any case) → values. Unknown keys are ignored.
    /// - Throws: `AACError` when a length, constantSize or constantDuration is not a number in its
    ///   range (streamType and profile-level-id that are not numbers are ignored).
    public init(formatParameters: [String: String]) throws(AACError) {
        var parameters: [String: Substring] = [:]
        for (key, value) in formatParameters {
            parameters[String(key.trimmingSpaces).lowercased()] = value.trimmingSpaces
        }
        func number(_ name: String, max maximum: Int) throws(AACError) -> Int? {
            guard let text = parameters[name.lowercased()] else { return nil }
            guard let value = Int(text), value >= 0, value <= maximum else {
                throw AACError("the fmtp parameter \(name)=\(text) is not a number from 0 to \(maximum) (RFC 3640 §4.1); the camera's SDP is damaged")
            }
            return value
        }
        // Informative only: a value that is not a number is ignored rather than making the stream unusable.
        streamType = try? number("streamType", max: 255)
        profileLevelID = try? number("profile-level-id", max: 255)
        mode = parameters["mode"].map(String.init)
        config = parameters["config"].map(String.init)
        // Fields are read with a 32-bit reader: wider fields cannot be meaningful for AAC.
        sizeLength = try number("sizeLength", max: 32) ?? 0
        indexLength = try number("indexLength", max: 32) ?? 0
        indexDeltaLength = try number("indexDeltaLength", max: 32) ?? 0
        ctsDeltaLength = try number("CTSDeltaLength", max: 32) ?? 0
        dtsDeltaLength = try number("DTSDeltaLength", max: 32) ?? 0
        randomAccessIndication = try number("randomAccessIndication", max: 1) == 1
        streamStateIndication = try number("streamStateIndication", max: 32) ?? 0
        auxiliaryDataSizeLength = try number("auxiliaryDataSizeLength", max: 32) ?? 0
        constantSize = try number("constantSize", max: Int(UInt32.max)) ?? 0
        constantDuration = try number("constantDuration", max: Int(UInt32.max)) ?? 0
    }

    /// RFC 3640 §3.2.1: the AU Header Section is present when any AU-header field has a non-zero length.
    public var hasAUHeaderSection: Bool {
        sizeLength > 0 || indexLength > 0 || indexDeltaLength > 0 || ctsDeltaLength > 0 || dtsDeltaLength > 0
            || randomAccessIndication || streamStateIndication > 0
    }
}
