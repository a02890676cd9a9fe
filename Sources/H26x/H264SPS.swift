/// An H.264 sequence parameter set, ITU-T H.264 §7.3.2.1.1 `seq_parameter_set_data()`, with the VUI
/// timing information of Annex E.1.1.
///
/// Only what a muxer, a player or a codec string needs is kept; the rest is parsed and skipped.
public struct H264SPS: Sendable, Equatable {
    /// profile_idc (Annex A.2): 66 Baseline, 77 Main, 100 High, ...
    public var profileIdc: UInt8
    /// constraint_set0_flag ... constraint_set5_flag and reserved_zero_2bits, as the byte that follows
    /// profile_idc (the "profile_compatibility" of RFC 6381 and the avcC).
    public var constraintFlags: UInt8
    /// level_idc: ten times the level number (31 is level 3.1).
    public var levelIdc: UInt8
    /// The picture width in luma samples with the frame cropping applied (§7.4.2.1.1, equations 7-19...7-22).
    public var width: Int
    /// The frame height in luma samples with the frame cropping applied.
    public var height: Int
    /// Frames per second from the VUI timing info: time_scale / (2 * num_units_in_tick) (Annex E.2.1,
    /// two field ticks per frame). nil when absent or outside 0 < fps <= 1000.
    public var frameRate: Double?

    /// seq_parameter_set_id
    public var seqParameterSetId: Int
    /// chroma_format_idc (0 = 4:0:0, 1 = 4:2:0, 2 = 4:2:2, 3 = 4:4:4); 1 when absent (non-high profiles).
    public var chromaFormatIdc: Int
    /// separate_colour_plane_flag
    public var separateColourPlaneFlag: Bool
    /// BitDepthY = 8 + bit_depth_luma_minus8
    public var bitDepthLuma: Int
    /// BitDepthC = 8 + bit_depth_chroma_minus8
    public var bitDepthChroma: Int
    /// frame_mbs_only_flag: false when the stream may hold field pictures (interlaced).
    public var frameMbsOnlyFlag: Bool
    /// pic_order_cnt_type (0, 1 or 2)
    public var picOrderCntType: Int
    /// max_num_ref_frames
    public var maxNumRefFrames: Int
    /// VUI num_units_in_tick, when timing_info_present_flag is set.
    public var numUnitsInTick: UInt32?
    /// VUI time_scale, when timing_info_present_flag is set.
    public var timeScale: UInt32?

    /// The profiles whose SPS carries chroma_format_idc, bit depths and scaling matrices (§7.3.2.1.1).
    static let highProfiles: Set<UInt8> = [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]

    /// Parses an SPS NAL unit.
    /// - Parameter nalUnit: the NAL unit including its 1-byte header (nal_unit_type 7), without a start
    ///   code; emulation prevention bytes are removed here.
    /// - Throws: `H26xError` when the unit is not an SPS, is truncated or holds out-of-range values.
    public init(nalUnit: [UInt8]) throws {
        guard let header = nalUnit.first else {
            throw H26xError("H.264 SPS is empty: expected a NAL unit of type 7")
        }
        guard header & 0x80 == 0 else {
            throw H26xError("H.264 SPS has forbidden_zero_bit set: the NAL unit is corrupt")
        }
        guard header & 0x1F == NALUnitType.H264.sps else {
            throw H26xError("H.264 SPS expected (nal_unit_type 7) but got nal_unit_type \(header & 0x1F)")
        }
        var r = BitReader(rbsp: BitReader.rbsp(fromNALUnit: nalUnit, headerLength: 1), context: "H.264 SPS")
        profileIdc = UInt8(try r.bits(8, "profile_idc"))
        constraintFlags = UInt8(try r.bits(8, "constraint_set_flags"))
        levelIdc = UInt8(try r.bits(8, "level_idc"))
        seqParameterSetId = try r.ue("seq_parameter_set_id", max: 31)

        chromaFormatIdc = 1
        separateColourPlaneFlag = false
        bitDepthLuma = 8
        bitDepthChroma = 8
        if Self.highProfiles.contains(profileIdc) {
            chromaFormatIdc = try r.ue("chroma_format_idc", max: 3)
            if chromaFormatIdc == 3 {
                separateColourPlaneFlag = try r.flag("separate_colour_plane_flag")
            }
            bitDepthLuma = 8 + (try r.ue("bit_depth_luma_minus8", max: 6))
            bitDepthChroma = 8 + (try r.ue("bit_depth_chroma_minus8", max: 6))
            try r.skip(1, "qpprime_y_zero_transform_bypass_flag")
            if try r.flag("seq_scaling_matrix_present_flag") {
                let lists = chromaFormatIdc != 3 ? 8 : 12
                for index in 0..<lists where try r.flag("seq_scaling_list_present_flag") {
                    try Self.skipScalingList(&r, size: index < 6 ? 16 : 64)
                }
            }
        }

        _ = try r.ue("log2_max_frame_num_minus4", max: 12)
        picOrderCntType = try r.ue("pic_order_cnt_type", max: 2)
        if picOrderCntType == 0 {
            _ = try r.ue("log2_max_pic_order_cnt_lsb_minus4", max: 12)
        } else if picOrderCntType == 1 {
            try r.skip(1, "delta_pic_order_always_zero_flag")
            _ = try r.se("offset_for_non_ref_pic")
            _ = try r.se("offset_for_top_to_bottom_field")
            let cycle = try r.ue("num_ref_frames_in_pic_order_cnt_cycle", max: 255)
            for _ in 0..<cycle {
                _ = try r.se("offset_for_ref_frame")
            }
        }
        maxNumRefFrames = try r.ue("max_num_ref_frames", max: 255)
        try r.skip(1, "gaps_in_frame_num_value_allowed_flag")
        let widthInMbs = try r.ue("pic_width_in_mbs_minus1", max: 1 << 16) + 1
        let heightInMapUnits = try r.ue("pic_height_in_map_units_minus1", max: 1 << 16) + 1
        frameMbsOnlyFlag = try r.flag("frame_mbs_only_flag")
        if !frameMbsOnlyFlag {
            try r.skip(1, "mb_adaptive_frame_field_flag")
        }
        try r.skip(1, "direct_8x8_inference_flag")

        // §7.4.2.1.1: frame cropping in units of CropUnitX / CropUnitY (equations 7-19 ... 7-22).
        let frameHeightInMbs = (frameMbsOnlyFlag ? 1 : 2) * heightInMapUnits
        var codedWidth = widthInMbs * 16
        var codedHeight = frameHeightInMbs * 16
        if try r.flag("frame_cropping_flag") {
            let left = try r.ue("frame_crop_left_offset", max: 1 << 20)
            let right = try r.ue("frame_crop_right_offset", max: 1 << 20)
            let top = try r.ue("frame_crop_top_offset", max: 1 << 20)
            let bottom = try r.ue("frame_crop_bottom_offset", max: 1 << 20)
            let chromaArrayType = separateColourPlaneFlag ? 0 : chromaFormatIdc
            let subWidthC = chromaArrayType == 1 || chromaArrayType == 2 ? 2 : 1
            let subHeightC = chromaArrayType == 1 ? 2 : 1
            let cropUnitX = chromaArrayType == 0 ? 1 : subWidthC
            let cropUnitY = (chromaArrayType == 0 ? 1 : subHeightC) * (frameMbsOnlyFlag ? 1 : 2)
            codedWidth -= cropUnitX * (left + right)
            codedHeight -= cropUnitY * (top + bottom)
            guard codedWidth > 0, codedHeight > 0 else {
                throw H26xError("H.264 SPS is malformed: the frame cropping (\(left), \(right), \(top), \(bottom)) removes the whole \(widthInMbs * 16)x\(frameHeightInMbs * 16) picture")
            }
        }
        width = codedWidth
        height = codedHeight

        numUnitsInTick = nil
        timeScale = nil
        frameRate = nil
        if try r.flag("vui_parameters_present_flag") {
            try parseVUITiming(&r)
        }
    }

    /// Annex E.1.1 `vui_parameters()` up to and including the timing info; what follows is not needed.
    private mutating func parseVUITiming(_ r: inout BitReader) throws {
        if try r.flag("aspect_ratio_info_present_flag") {
            let aspectRatioIdc = try r.bits(8, "aspect_ratio_idc")
            if aspectRatioIdc == 255 { // Extended_SAR
                try r.skip(32, "sar_width, sar_height")
            }
        }
        if try r.flag("overscan_info_present_flag") {
            try r.skip(1, "overscan_appropriate_flag")
        }
        if try r.flag("video_signal_type_present_flag") {
            try r.skip(4, "video_format, video_full_range_flag")
            if try r.flag("colour_description_present_flag") {
                try r.skip(24, "colour_primaries, transfer_characteristics, matrix_coefficients")
            }
        }
        if try r.flag("chroma_loc_info_present_flag") {
            _ = try r.ue("chroma_sample_loc_type_top_field")
            _ = try r.ue("chroma_sample_loc_type_bottom_field")
        }
        if try r.flag("timing_info_present_flag") {
            let ticks = try r.bits(32, "num_units_in_tick")
            let scale = try r.bits(32, "time_scale")
            numUnitsInTick = ticks
            timeScale = scale
            if ticks > 0 && scale > 0 {
                let fps = Double(scale) / (2 * Double(ticks))
                frameRate = fps <= 1000 ? fps : nil
            }
        }
    }

    /// §7.3.2.1.1.1 `scaling_list()`: read and discard the delta_scale values.
    private static func skipScalingList(_ r: inout BitReader, size: Int) throws {
        var lastScale = 8
        var nextScale = 8
        for _ in 0..<size {
            if nextScale != 0 {
                let deltaScale = try r.se("delta_scale")
                guard (-128...127).contains(deltaScale) else {
                    throw H26xError("H.264 SPS is malformed: delta_scale \(deltaScale) is outside -128...127")
                }
                nextScale = (lastScale + deltaScale + 256) % 256
            }
            lastScale = nextScale == 0 ? lastScale : nextScale
        }
    }

    /// The profile name as ffprobe and the standard (Annex A) spell it: "Constrained Baseline",
    /// "Main", "High", "High 10", "High 4:4:4 Predictive", ...
    public var profileName: String {
        let set1 = constraintFlags & 0x40 != 0
        let set3 = constraintFlags & 0x10 != 0
        let set4 = constraintFlags & 0x08 != 0
        let set5 = constraintFlags & 0x04 != 0
        switch profileIdc {
        case 66: return set1 ? "Constrained Baseline" : "Baseline"
        case 77: return "Main"
        case 88: return "Extended"
        case 100:
            if set4 && set5 { return "Constrained High" }
            return set4 ? "Progressive High" : "High"
        case 110: return set3 ? "High 10 Intra" : (set4 ? "Progressive High 10" : "High 10")
        case 122: return set3 ? "High 4:2:2 Intra" : "High 4:2:2"
        case 244: return set3 ? "High 4:4:4 Intra" : "High 4:4:4 Predictive"
        case 44: return "CAVLC 4:4:4 Intra"
        case 83: return "Scalable Baseline"
        case 86: return "Scalable High"
        case 118: return "Multiview High"
        case 128: return "Stereo High"
        case 134: return "MFC High"
        case 135: return "MFC Depth High"
        case 138: return "Multiview Depth High"
        case 139: return "Enhanced Multiview Depth High"
        default: return "Profile \(profileIdc)"
        }
    }

    /// The level as a string: "3.1", "4.0", or "1b" (level_idc 9, or 11 with constraint_set3_flag
    /// in the Baseline, Main and Extended profiles, §A.3.1).
    public var levelName: String {
        let set3 = constraintFlags & 0x10 != 0
        if levelIdc == 9 || (levelIdc == 11 && set3 && [66, 77, 88].contains(profileIdc)) {
            return "1b"
        }
        return "\(levelIdc / 10).\(levelIdc % 10)"
    }

    /// RFC 6381 §3.3 codec string: "avc1." and profile_idc, the constraint byte and level_idc as six
    /// lower-case hex digits ("avc1.64001f").
    public var codecString: String {
        "avc1." + Hex.byte(profileIdc) + Hex.byte(constraintFlags) + Hex.byte(levelIdc)
    }
}
