/// ITU-T H.265 §7.3.3 `profile_tier_level(1, maxNumSubLayersMinus1)`: the general profile, tier and
/// level, and the sub-layer entries (skipped). Shared by the VPS and SPS parsers.
struct ProfileTierLevel: Sendable, Equatable {
    var profileSpace: UInt8
    var tierFlag: Bool
    var profileIdc: UInt8
    var compatibilityFlags: UInt32
    /// 48 bits: general_progressive_source_flag in bit 47 ... general_inbld_flag/reserved in bit 0.
    var constraintFlags: UInt64
    var levelIdc: UInt8

    init(_ r: inout BitReader, maxSubLayersMinus1: Int) throws {
        profileSpace = UInt8(try r.bits(2, "general_profile_space"))
        tierFlag = try r.flag("general_tier_flag")
        profileIdc = UInt8(try r.bits(5, "general_profile_idc"))
        compatibilityFlags = try r.bits(32, "general_profile_compatibility_flag")
        let high = UInt64(try r.bits(32, "general_constraint_indicator_flags"))
        let low = UInt64(try r.bits(16, "general_constraint_indicator_flags"))
        constraintFlags = (high << 16) | low
        levelIdc = UInt8(try r.bits(8, "general_level_idc"))

        var profilePresent = [Bool](repeating: false, count: maxSubLayersMinus1)
        var levelPresent = [Bool](repeating: false, count: maxSubLayersMinus1)
        for i in 0..<maxSubLayersMinus1 {
            profilePresent[i] = try r.flag("sub_layer_profile_present_flag")
            levelPresent[i] = try r.flag("sub_layer_level_present_flag")
        }
        if maxSubLayersMinus1 > 0 {
            try r.skip(2 * (8 - maxSubLayersMinus1), "reserved_zero_2bits")
        }
        for i in 0..<maxSubLayersMinus1 {
            if profilePresent[i] {
                // sub_layer_profile_space ... sub_layer_inbld_flag: 2+1+5+32+48 bits
                try r.skip(88, "sub_layer_profile")
            }
            if levelPresent[i] {
                try r.skip(8, "sub_layer_level_idc")
            }
        }
    }
}
