/// ISO/IEC 14496-15 §5.3.3.1 AVCDecoderConfigurationRecord: the contents of the `avcC` box (without
/// the box header) that an MP4 `avc1` sample entry carries.
///
/// ```
/// configurationVersion = 1               u(8)
/// AVCProfileIndication                   u(8)   profile_idc
/// profile_compatibility                  u(8)   constraint_set flags byte
/// AVCLevelIndication                     u(8)   level_idc
/// '111111'b + lengthSizeMinusOne         u(8)   0xFF: 4-byte NAL unit lengths
/// '111'b + numOfSequenceParameterSets    u(8)   0xE1
/// { sequenceParameterSetLength u(16), sequenceParameterSetNALUnit }
/// numOfPictureParameterSets              u(8)
/// { pictureParameterSetLength u(16), pictureParameterSetNALUnit }
/// for profiles other than 66, 77, 88 (those whose SPS carries chroma_format_idc):
///   '111111'b + chroma_format, '11111'b + bit_depth_luma_minus8, '11111'b + bit_depth_chroma_minus8,
///   numOfSequenceParameterSetExt = 0
/// ```
public struct AVCDecoderConfigurationRecord: Sendable {
    /// The parsed SPS the record describes.
    public let sps: H264SPS
    /// The record's bytes: the payload of an `avcC` box.
    public let bytes: [UInt8]

    /// Builds the record for one SPS and its PPSs.
    /// - Parameters:
    ///   - sps: an SPS NAL unit (type 7) with its header, without a start code.
    ///   - pps: one or more PPS NAL units (type 8).
    /// - Throws: `H26xError` when the SPS does not parse, a PPS is missing or of the wrong type, or a
    ///   parameter set is too long for its 16-bit length field.
    public init(sps: [UInt8], pps: [[UInt8]]) throws {
        let parsed = try H264SPS(nalUnit: sps)
        guard !pps.isEmpty else {
            throw H26xError("avcC needs at least one PPS (NAL unit type 8); the stream has not sent one yet")
        }
        guard pps.count <= 255 else {
            throw H26xError("avcC holds at most 255 PPSs, got \(pps.count)")
        }
        for (index, set) in pps.enumerated() {
            guard let first = set.first, first & 0x1F == NALUnitType.H264.pps else {
                throw H26xError("avcC: PPS number \(index) is not a NAL unit of type 8 (it is \(set.first.map { "type \($0 & 0x1F)" } ?? "empty"))")
            }
            guard set.count <= 0xFFFF else {
                throw H26xError("avcC: PPS number \(index) is \(set.count) bytes, more than a 16-bit length can hold")
            }
        }
        guard sps.count <= 0xFFFF else {
            throw H26xError("avcC: the SPS is \(sps.count) bytes, more than a 16-bit length can hold")
        }
        self.sps = parsed

        var out: [UInt8] = [1, parsed.profileIdc, parsed.constraintFlags, parsed.levelIdc, 0xFF, 0xE1]
        out.reserveCapacity(16 + sps.count + pps.reduce(0) { $0 + $1.count + 2 })
        out.append(UInt8(sps.count >> 8))
        out.append(UInt8(sps.count & 0xFF))
        out.append(contentsOf: sps)
        out.append(UInt8(pps.count))
        for set in pps {
            out.append(UInt8(set.count >> 8))
            out.append(UInt8(set.count & 0xFF))
            out.append(contentsOf: set)
        }
        if H264SPS.highProfiles.contains(parsed.profileIdc) {
            out.append(0xFC | UInt8(parsed.chromaFormatIdc))
            out.append(0xF8 | UInt8(parsed.bitDepthLuma - 8))
            out.append(0xF8 | UInt8(parsed.bitDepthChroma - 8))
            out.append(0) // numOfSequenceParameterSetExt
        }
        bytes = out
    }

    /// RFC 6381 codec string, e.g. "avc1.64001f".
    public var codecString: String { sps.codecString }
}
