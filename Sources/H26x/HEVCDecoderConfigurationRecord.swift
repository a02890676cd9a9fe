/// ISO/IEC 14496-15 §8.3.3.1 HEVCDecoderConfigurationRecord: the contents of the `hvcC` box (without
/// the box header) that an MP4 `hvc1` sample entry carries.
///
/// ```
/// configurationVersion = 1                                         u(8)
/// general_profile_space u(2), general_tier_flag u(1), general_profile_idc u(5)
/// general_profile_compatibility_flags                               u(32)
/// general_constraint_indicator_flags                                u(48)
/// general_level_idc                                                 u(8)
/// '1111'b + min_spatial_segmentation_idc u(12)     from the SPS VUI bitstream restriction, else 0
/// '111111'b + parallelismType u(2)                  from the PPS when the above is not 0, else 0
/// '111111'b + chromaFormat u(2)
/// '11111'b + bitDepthLumaMinus8 u(3)
/// '11111'b + bitDepthChromaMinus8 u(3)
/// avgFrameRate u(16)                                written as 0 (unspecified)
/// constantFrameRate u(2) = 0, numTemporalLayers u(3), temporalIdNested u(1), lengthSizeMinusOne u(2) = 3
/// numOfArrays u(8), then per array: array_completeness u(1) = 1, reserved u(1) = 0, NAL_unit_type u(6),
///   numNalus u(16), { nalUnitLength u(16), nalUnit }
/// ```
/// The arrays are VPS, SPS, PPS, in that order. parallelismType is 1 (slices), 2 (tiles), 3 (wavefront,
/// entropy_coding_sync_enabled_flag) or 0 (both, or unknown), as ffmpeg derives it; avgFrameRate and
/// constantFrameRate are written as 0 (unspecified), as ffmpeg does.
public struct HEVCDecoderConfigurationRecord: Sendable {
    /// The parsed SPS the record describes.
    public let sps: H265SPS
    /// The record's bytes: the payload of an `hvcC` box.
    public let bytes: [UInt8]

    /// Builds the record for one VPS, SPS and PPS (NAL unit types 32, 33, 34, with their 2-byte headers).
    /// - Throws: `H26xError` when the SPS or VPS does not parse, a unit has the wrong type, or is too long.
    public init(vps: [UInt8], sps: [UInt8], pps: [UInt8]) throws {
        try self.init(vps: vps, sps: sps, ppsList: [pps])
    }

    /// Builds the record with several PPSs (streams that use more than one pps_pic_parameter_set_id).
    public init(vps: [UInt8], sps: [UInt8], ppsList: [[UInt8]]) throws {
        let parsed = try H265SPS(nalUnit: sps)
        let vpsMaxSubLayers = try Self.vpsMaxSubLayers(vps)
        guard !ppsList.isEmpty else {
            throw H26xError("hvcC needs at least one PPS (NAL unit type 34); the stream has not sent one yet")
        }
        for (index, set) in ppsList.enumerated() {
            guard NALUnitType.of(set, codec: .h265) == NALUnitType.H265.pps else {
                throw H26xError("hvcC: PPS number \(index) is not a NAL unit of type 34")
            }
        }
        for set in [vps, sps] + ppsList where set.count > 0xFFFF {
            throw H26xError("hvcC: a \(set.count)-byte parameter set is more than a 16-bit length can hold")
        }
        self.sps = parsed

        var out: [UInt8] = [1]
        out.reserveCapacity(40 + vps.count + sps.count + ppsList.reduce(0) { $0 + $1.count + 2 })
        out.append((parsed.generalProfileSpace << 6) | (parsed.generalTierFlag ? 0x20 : 0) | (parsed.generalProfileIdc & 0x1F))
        for shift in stride(from: 24, through: 0, by: -8) {
            out.append(UInt8(truncatingIfNeeded: parsed.generalProfileCompatibilityFlags >> UInt32(shift)))
        }
        for shift in stride(from: 40, through: 0, by: -8) {
            out.append(UInt8(truncatingIfNeeded: parsed.generalConstraintIndicatorFlags >> UInt64(shift)))
        }
        out.append(parsed.generalLevelIdc)
        let minSpatialSegmentation = parsed.minSpatialSegmentationIdc
        out.append(0xF0 | UInt8(minSpatialSegmentation >> 8))
        out.append(UInt8(minSpatialSegmentation & 0xFF))
        let parallelism = minSpatialSegmentation == 0 ? 0 : (Self.parallelismType(pps: ppsList[0]) ?? 0)
        out.append(0xFC | parallelism)
        out.append(0xFC | UInt8(parsed.chromaFormatIdc))
        out.append(0xF8 | UInt8(parsed.bitDepthLuma - 8))
        out.append(0xF8 | UInt8(parsed.bitDepthChroma - 8))
        out.append(contentsOf: [0, 0]) // avgFrameRate
        let temporalLayers = UInt8(max(parsed.maxSubLayers, vpsMaxSubLayers))
        out.append((temporalLayers << 3) | (parsed.temporalIdNestingFlag ? 0x04 : 0) | 0x03)
        out.append(3) // numOfArrays
        for (type, units) in [(NALUnitType.H265.vps, [vps]), (NALUnitType.H265.sps, [sps]), (NALUnitType.H265.pps, ppsList)] {
            out.append(0x80 | type)
            out.append(UInt8(units.count >> 8))
            out.append(UInt8(units.count & 0xFF))
            for unit in units {
                out.append(UInt8(unit.count >> 8))
                out.append(UInt8(unit.count & 0xFF))
                out.append(contentsOf: unit)
            }
        }
        bytes = out
    }

    /// vps_max_sub_layers_minus1 + 1 from a VPS NAL unit (ITU-T H.265 §7.3.2.1): after the 2-byte header,
    /// vps_video_parameter_set_id u(4), vps_base_layer_internal_flag u(1), vps_base_layer_available_flag
    /// u(1), vps_max_layers_minus1 u(6), vps_max_sub_layers_minus1 u(3).
    static func vpsMaxSubLayers(_ vps: [UInt8]) throws -> Int {
        guard NALUnitType.of(vps, codec: .h265) == NALUnitType.H265.vps else {
            throw H26xError("hvcC: the VPS is not a NAL unit of type 32 (got \(NALUnitType.of(vps, codec: .h265).map { "type \($0)" } ?? "a unit shorter than its header"))")
        }
        var r = BitReader(rbsp: BitReader.rbsp(fromNALUnit: Array(vps.prefix(8)), headerLength: 2), context: "H.265 VPS")
        try r.skip(12, "vps_video_parameter_set_id ... vps_max_layers_minus1")
        let minus1 = Int(try r.bits(3, "vps_max_sub_layers_minus1"))
        guard minus1 <= 6 else {
            throw H26xError("H.265 VPS is malformed: vps_max_sub_layers_minus1 is 7, more than the 6 the specification allows")
        }
        return minus1 + 1
    }

    /// parallelismType from a PPS (ITU-T H.265 §7.3.2.3.1, read up to entropy_coding_sync_enabled_flag):
    /// 3 for wavefront, 2 for tiles, 0 for both, 1 for neither (slices). nil when the PPS is unreadable.
    static func parallelismType(pps: [UInt8]) -> UInt8? {
        var r = BitReader(rbsp: BitReader.rbsp(fromNALUnit: pps, headerLength: 2), context: "H.265 PPS")
        do {
            _ = try r.ue("pps_pic_parameter_set_id", max: 63)
            _ = try r.ue("pps_seq_parameter_set_id", max: 15)
            try r.skip(7, "dependent_slice_segments_enabled_flag ... cabac_init_present_flag")
            _ = try r.ue("num_ref_idx_l0_default_active_minus1")
            _ = try r.ue("num_ref_idx_l1_default_active_minus1")
            _ = try r.se("init_qp_minus26")
            try r.skip(2, "constrained_intra_pred_flag, transform_skip_enabled_flag")
            if try r.flag("cu_qp_delta_enabled_flag") {
                _ = try r.ue("diff_cu_qp_delta_depth")
            }
            _ = try r.se("pps_cb_qp_offset")
            _ = try r.se("pps_cr_qp_offset")
            try r.skip(4, "pps_slice_chroma_qp_offsets_present_flag ... transquant_bypass_enabled_flag")
            let tiles = try r.flag("tiles_enabled_flag")
            let wavefront = try r.flag("entropy_coding_sync_enabled_flag")
            switch (tiles, wavefront) {
            case (true, true): return 0
            case (false, true): return 3
            case (true, false): return 2
            case (false, false): return 1
            }
        } catch {
            return nil
        }
    }

    /// ISO/IEC 14496-15 Annex E codec string, e.g. "hvc1.1.6.L93.B0".
    public var codecString: String { sps.codecString }
}
