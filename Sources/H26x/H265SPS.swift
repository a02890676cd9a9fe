/// An H.265 sequence parameter set, ITU-T H.265 §7.3.2.2.1 `seq_parameter_set_rbsp()`, with the
/// general `profile_tier_level()` of §7.3.3 and the VUI timing information of Annex E.2.1.
///
/// Everything between the conformance window and the VUI (sub-layer ordering, scaling lists, PCM,
/// short- and long-term reference picture sets) is parsed exactly and skipped.
public struct H265SPS: Sendable, Equatable {
    /// general_profile_space (0 in every deployed profile)
    public var generalProfileSpace: UInt8
    /// general_tier_flag: false = Main tier, true = High tier
    public var generalTierFlag: Bool
    /// general_profile_idc (Annex A.3): 1 Main, 2 Main 10, 3 Main Still Picture, 4 Range Extensions, ...
    public var generalProfileIdc: UInt8
    /// general_profile_compatibility_flag[0...31], flag j in bit (31 - j).
    public var generalProfileCompatibilityFlags: UInt32
    /// The 48 bits from general_progressive_source_flag to general_inbld_flag/reserved, flag 0 in bit 47.
    public var generalConstraintIndicatorFlags: UInt64
    /// general_level_idc: thirty times the level number (93 is level 3.1).
    public var generalLevelIdc: UInt8
    /// chroma_format_idc (0 = 4:0:0, 1 = 4:2:0, 2 = 4:2:2, 3 = 4:4:4)
    public var chromaFormatIdc: Int
    /// BitDepthY = 8 + bit_depth_luma_minus8
    public var bitDepthLuma: Int
    /// BitDepthC = 8 + bit_depth_chroma_minus8
    public var bitDepthChroma: Int
    /// pic_width_in_luma_samples with the conformance window applied (§7.4.3.2.1).
    public var width: Int
    /// pic_height_in_luma_samples with the conformance window applied.
    public var height: Int
    /// Pictures per second from the VUI: vui_time_scale / vui_num_units_in_tick (Annex E.3.1).
    /// nil when absent or outside 0 < fps <= 1000.
    public var frameRate: Double?

    /// sps_video_parameter_set_id
    public var videoParameterSetId: Int
    /// sps_max_sub_layers_minus1 + 1
    public var maxSubLayers: Int
    /// sps_temporal_id_nesting_flag
    public var temporalIdNestingFlag: Bool
    /// sps_seq_parameter_set_id
    public var seqParameterSetId: Int
    /// separate_colour_plane_flag
    public var separateColourPlaneFlag: Bool
    /// vui_num_units_in_tick, when vui_timing_info_present_flag is set.
    public var numUnitsInTick: UInt32?
    /// vui_time_scale, when vui_timing_info_present_flag is set.
    public var timeScale: UInt32?
    /// min_spatial_segmentation_idc from the VUI bitstream restriction (Annex E.3.1); 0 when absent.
    /// Read leniently: a damaged HRD or restriction part of the VUI leaves it 0 instead of failing the SPS.
    public var minSpatialSegmentationIdc: Int = 0

    /// Parses an SPS NAL unit.
    /// - Parameter nalUnit: the NAL unit including its 2-byte header (nal_unit_type 33), without a start
    ///   code; emulation prevention bytes are removed here.
    /// - Throws: `H26xError` when the unit is not an SPS, is truncated or holds out-of-range values.
    public init(nalUnit: [UInt8]) throws {
        guard nalUnit.count >= 2 else {
            throw H26xError("H.265 SPS is too short (\(nalUnit.count) bytes): expected a NAL unit of type 33 with its 2-byte header")
        }
        guard nalUnit[0] & 0x80 == 0 else {
            throw H26xError("H.265 SPS has forbidden_zero_bit set: the NAL unit is corrupt")
        }
        let type = (nalUnit[0] >> 1) & 0x3F
        guard type == NALUnitType.H265.sps else {
            throw H26xError("H.265 SPS expected (nal_unit_type 33) but got nal_unit_type \(type)")
        }
        var r = BitReader(rbsp: BitReader.rbsp(fromNALUnit: nalUnit, headerLength: 2), context: "H.265 SPS")
        videoParameterSetId = Int(try r.bits(4, "sps_video_parameter_set_id"))
        let maxSubLayersMinus1 = Int(try r.bits(3, "sps_max_sub_layers_minus1"))
        guard maxSubLayersMinus1 <= 6 else {
            throw H26xError("H.265 SPS is malformed: sps_max_sub_layers_minus1 is 7, more than the 6 the specification allows")
        }
        maxSubLayers = maxSubLayersMinus1 + 1
        temporalIdNestingFlag = try r.flag("sps_temporal_id_nesting_flag")

        let ptl = try ProfileTierLevel(&r, maxSubLayersMinus1: maxSubLayersMinus1)
        generalProfileSpace = ptl.profileSpace
        generalTierFlag = ptl.tierFlag
        generalProfileIdc = ptl.profileIdc
        generalProfileCompatibilityFlags = ptl.compatibilityFlags
        generalConstraintIndicatorFlags = ptl.constraintFlags
        generalLevelIdc = ptl.levelIdc

        seqParameterSetId = try r.ue("sps_seq_parameter_set_id", max: 15)
        chromaFormatIdc = try r.ue("chroma_format_idc", max: 3)
        separateColourPlaneFlag = chromaFormatIdc == 3 ? try r.flag("separate_colour_plane_flag") : false
        let picWidth = try r.ue("pic_width_in_luma_samples", max: 1 << 16)
        let picHeight = try r.ue("pic_height_in_luma_samples", max: 1 << 16)
        var croppedWidth = picWidth
        var croppedHeight = picHeight
        if try r.flag("conformance_window_flag") {
            let left = try r.ue("conf_win_left_offset", max: 1 << 16)
            let right = try r.ue("conf_win_right_offset", max: 1 << 16)
            let top = try r.ue("conf_win_top_offset", max: 1 << 16)
            let bottom = try r.ue("conf_win_bottom_offset", max: 1 << 16)
            // Table 6-1: SubWidthC / SubHeightC; ChromaArrayType 0 (4:0:0 or separate planes) uses 1.
            let chromaArrayType = separateColourPlaneFlag ? 0 : chromaFormatIdc
            let subWidthC = chromaArrayType == 1 || chromaArrayType == 2 ? 2 : 1
            let subHeightC = chromaArrayType == 1 ? 2 : 1
            croppedWidth -= subWidthC * (left + right)
            croppedHeight -= subHeightC * (top + bottom)
        }
        guard croppedWidth > 0, croppedHeight > 0 else {
            throw H26xError("H.265 SPS is malformed: the \(picWidth)x\(picHeight) picture is empty once the conformance window is applied")
        }
        width = croppedWidth
        height = croppedHeight
        bitDepthLuma = 8 + (try r.ue("bit_depth_luma_minus8", max: 8))
        bitDepthChroma = 8 + (try r.ue("bit_depth_chroma_minus8", max: 8))
        let log2MaxPicOrderCntLsb = try r.ue("log2_max_pic_order_cnt_lsb_minus4", max: 12) + 4

        let orderingInfoPresent = try r.flag("sps_sub_layer_ordering_info_present_flag")
        for _ in (orderingInfoPresent ? 0 : maxSubLayersMinus1)...maxSubLayersMinus1 {
            _ = try r.ue("sps_max_dec_pic_buffering_minus1", max: 15)
            _ = try r.ue("sps_max_num_reorder_pics", max: 15)
            _ = try r.ue("sps_max_latency_increase_plus1")
        }
        _ = try r.ue("log2_min_luma_coding_block_size_minus3", max: 3)
        _ = try r.ue("log2_diff_max_min_luma_coding_block_size", max: 3)
        _ = try r.ue("log2_min_luma_transform_block_size_minus2", max: 3)
        _ = try r.ue("log2_diff_max_min_luma_transform_block_size", max: 3)
        _ = try r.ue("max_transform_hierarchy_depth_inter", max: 4)
        _ = try r.ue("max_transform_hierarchy_depth_intra", max: 4)
        if try r.flag("scaling_list_enabled_flag") {
            if try r.flag("sps_scaling_list_data_present_flag") {
                try Self.skipScalingListData(&r)
            }
        }
        try r.skip(1, "amp_enabled_flag")
        try r.skip(1, "sample_adaptive_offset_enabled_flag")
        if try r.flag("pcm_enabled_flag") {
            try r.skip(8, "pcm_sample_bit_depth_luma_minus1, pcm_sample_bit_depth_chroma_minus1")
            _ = try r.ue("log2_min_pcm_luma_coding_block_size_minus3", max: 2)
            _ = try r.ue("log2_diff_max_min_pcm_luma_coding_block_size", max: 3)
            try r.skip(1, "pcm_loop_filter_disabled_flag")
        }
        let numShortTermRefPicSets = try r.ue("num_short_term_ref_pic_sets", max: 64)
        var sets: [ShortTermRefPicSet] = []
        sets.reserveCapacity(numShortTermRefPicSets)
        for index in 0..<numShortTermRefPicSets {
            sets.append(try ShortTermRefPicSet(&r, index: index, previous: sets))
        }
        if try r.flag("long_term_ref_pics_present_flag") {
            let count = try r.ue("num_long_term_ref_pics_sps", max: 32)
            for _ in 0..<count {
                try r.skip(log2MaxPicOrderCntLsb, "lt_ref_pic_poc_lsb_sps")
                try r.skip(1, "used_by_curr_pic_lt_sps_flag")
            }
        }
        try r.skip(1, "sps_temporal_mvp_enabled_flag")
        try r.skip(1, "strong_intra_smoothing_enabled_flag")

        numUnitsInTick = nil
        timeScale = nil
        frameRate = nil
        if try r.flag("vui_parameters_present_flag") {
            let timingPresent = try parseVUITiming(&r)
            var rest = r
            minSpatialSegmentationIdc = (try? Self.parseVUIRestriction(
                &rest, timingPresent: timingPresent, maxSubLayersMinus1: maxSubLayers - 1)) ?? 0
        }
    }

    /// Annex E.2.1 `vui_parameters()` up to and including vui_time_scale. Returns
    /// vui_timing_info_present_flag.
    private mutating func parseVUITiming(_ r: inout BitReader) throws -> Bool {
        if try r.flag("aspect_ratio_info_present_flag") {
            if try r.bits(8, "aspect_ratio_idc") == 255 { // EXTENDED_SAR
                try r.skip(32, "sar_width, sar_height")
            }
        }
        if try r.flag("overscan_info_present_flag") {
            try r.skip(1, "overscan_appropriate_flag")
        }
        if try r.flag("video_signal_type_present_flag") {
            try r.skip(4, "video_format, video_full_range_flag")
            if try r.flag("colour_description_present_flag") {
                try r.skip(24, "colour_primaries, transfer_characteristics, matrix_coeffs")
            }
        }
        if try r.flag("chroma_loc_info_present_flag") {
            _ = try r.ue("chroma_sample_loc_type_top_field")
            _ = try r.ue("chroma_sample_loc_type_bottom_field")
        }
        try r.skip(3, "neutral_chroma_indication_flag, field_seq_flag, frame_field_info_present_flag")
        if try r.flag("default_display_window_flag") {
            for _ in 0..<4 { _ = try r.ue("def_disp_win_offset") }
        }
        if try r.flag("vui_timing_info_present_flag") {
            let ticks = try r.bits(32, "vui_num_units_in_tick")
            let scale = try r.bits(32, "vui_time_scale")
            numUnitsInTick = ticks
            timeScale = scale
            if ticks > 0 && scale > 0 {
                let fps = Double(scale) / Double(ticks)
                frameRate = fps <= 1000 ? fps : nil
            }
            return true
        }
        return false
    }

    /// The rest of Annex E.2.1 `vui_parameters()` after vui_time_scale: the POC timing, the HRD
    /// parameters (E.2.2) and the bitstream restriction. Returns min_spatial_segmentation_idc.
    private static func parseVUIRestriction(_ r: inout BitReader, timingPresent: Bool, maxSubLayersMinus1: Int) throws -> Int {
        if timingPresent {
            if try r.flag("vui_poc_proportional_to_timing_flag") {
                _ = try r.ue("vui_num_ticks_poc_diff_one_minus1")
            }
            if try r.flag("vui_hrd_parameters_present_flag") {
                try skipHRDParameters(&r, maxSubLayersMinus1: maxSubLayersMinus1)
            }
        }
        guard try r.flag("bitstream_restriction_flag") else { return 0 }
        try r.skip(3, "tiles_fixed_structure_flag, motion_vectors_over_pic_boundaries_flag, restricted_ref_pic_lists_flag")
        return try r.ue("min_spatial_segmentation_idc", max: 4095)
    }

    /// Annex E.2.2 `hrd_parameters(1, maxNumSubLayersMinus1)` and E.2.3 `sub_layer_hrd_parameters()`.
    private static func skipHRDParameters(_ r: inout BitReader, maxSubLayersMinus1: Int) throws {
        let nal = try r.flag("nal_hrd_parameters_present_flag")
        let vcl = try r.flag("vcl_hrd_parameters_present_flag")
        var subPicParams = false
        if nal || vcl {
            subPicParams = try r.flag("sub_pic_hrd_params_present_flag")
            if subPicParams {
                try r.skip(19, "tick_divisor_minus2 ... dpb_output_delay_du_length_minus1")
            }
            try r.skip(8, "bit_rate_scale, cpb_size_scale")
            if subPicParams {
                try r.skip(4, "cpb_size_du_scale")
            }
            try r.skip(15, "initial_cpb_removal_delay_length_minus1 ... dpb_output_delay_length_minus1")
        }
        for _ in 0...maxSubLayersMinus1 {
            let fixedGeneral = try r.flag("fixed_pic_rate_general_flag")
            let fixedWithinCVS = fixedGeneral ? true : try r.flag("fixed_pic_rate_within_cvs_flag")
            var lowDelay = false
            if fixedWithinCVS {
                _ = try r.ue("elemental_duration_in_tc_minus1")
            } else {
                lowDelay = try r.flag("low_delay_hrd_flag")
            }
            let cpbCount = lowDelay ? 1 : try r.ue("cpb_cnt_minus1", max: 31) + 1
            for _ in 0..<((nal ? 1 : 0) + (vcl ? 1 : 0)) {
                for _ in 0..<cpbCount {
                    _ = try r.ue("bit_rate_value_minus1")
                    _ = try r.ue("cpb_size_value_minus1")
                    if subPicParams {
                        _ = try r.ue("cpb_size_du_value_minus1")
                        _ = try r.ue("bit_rate_du_value_minus1")
                    }
                    try r.skip(1, "cbr_flag")
                }
            }
        }
    }

    /// §7.3.4 `scaling_list_data()`: read and discard.
    private static func skipScalingListData(_ r: inout BitReader) throws {
        for sizeId in 0..<4 {
            var matrixId = 0
            while matrixId < 6 {
                if try !r.flag("scaling_list_pred_mode_flag") {
                    _ = try r.ue("scaling_list_pred_matrix_id_delta", max: sizeId == 3 ? matrixId / 3 : matrixId)
                } else {
                    let coefNum = min(64, 1 << (4 + (sizeId << 1)))
                    if sizeId > 1 {
                        _ = try r.se("scaling_list_dc_coef_minus8")
                    }
                    for _ in 0..<coefNum {
                        _ = try r.se("scaling_list_delta_coef")
                    }
                }
                matrixId += sizeId == 3 ? 3 : 1
            }
        }
    }
}
