extension H265SPS {
    /// general_profile_compatibility_flag[j]
    func isCompatible(withProfile j: Int) -> Bool {
        j >= 0 && j < 32 && generalProfileCompatibilityFlags & (1 << UInt32(31 - j)) != 0
    }

    /// The constraint flag at `index` of the 48 bits (0 = general_progressive_source_flag).
    func constraintFlag(_ index: Int) -> Bool {
        generalConstraintIndicatorFlags & (1 << UInt64(47 - index)) != 0
    }

    /// The profile name (Annex A.3): "Main", "Main 10", "Main Still Picture", and for the format range
    /// extensions the profile that the constraint flags select (Table A.2), e.g. "Main 4:4:4",
    /// "Main 4:2:2 10", "Monochrome", "Main 12 Intra".
    public var profileName: String {
        var idc = Int(generalProfileIdc)
        if idc == 0 || idc > 11 {
            // A decoder may rely on the compatibility flags when general_profile_idc is unknown.
            if let compatible = (1...11).first(where: { isCompatible(withProfile: $0) }) { idc = compatible }
        }
        switch idc {
        case 1: return "Main"
        case 2: return constraintFlag(11) ? "Main 10 Still Picture" : "Main 10"
        case 3: return "Main Still Picture"
        case 4: return rangeExtensionsProfileName
        case 5: return "High Throughput 4:4:4"
        case 6: return "Multiview Main"
        case 7: return "Scalable Main"
        case 8: return "3D Main"
        case 9: return "Screen-Extended Main"
        case 10: return "Scalable Format Range Extensions"
        case 11: return "High Throughput Screen-Extended"
        default: return "Profile \(generalProfileIdc)"
        }
    }

    /// Table A.2: general_max_12bit_constraint_flag (bit 4) ... general_lower_bit_rate_constraint_flag (bit 12).
    private var rangeExtensionsProfileName: String {
        let max12 = constraintFlag(4), max10 = constraintFlag(5), max8 = constraintFlag(6)
        let max422 = constraintFlag(7), max420 = constraintFlag(8), monochrome = constraintFlag(9)
        let intra = constraintFlag(10), onePicture = constraintFlag(11)
        let depth = max8 ? "" : max10 ? " 10" : max12 ? " 12" : " 16"
        var name: String
        if monochrome {
            name = "Monochrome" + depth
        } else {
            let chroma = max420 ? "" : max422 ? " 4:2:2" : " 4:4:4"
            name = "Main" + chroma + depth
        }
        if onePicture {
            name += " Still Picture"
        } else if intra {
            name += " Intra"
        }
        return name
    }

    /// The level as a string: general_level_idc / 30 with one decimal ("3.1", "4.0", "5.1").
    public var levelName: String {
        "\(generalLevelIdc / 30).\((generalLevelIdc % 30) / 3)"
    }

    /// The RFC 6381 codec string per ISO/IEC 14496-15 Annex E.3: "hvc1." then the profile space letter
    /// (none, A, B, C) and general_profile_idc in decimal; the compatibility flags in reverse bit order
    /// as hex without leading zeros; "L" or "H" (tier) and general_level_idc in decimal; then each of the
    /// six constraint bytes as hex, separated by dots, trailing zero bytes left out.
    /// Example: Main, level 3.1, progressive and frame-only → "hvc1.1.6.L93.90".
    public var codecString: String {
        codecString(sampleEntry: "hvc1")
    }

    /// The codec string for another sample entry type ("hev1" when parameter sets travel in-band).
    public func codecString(sampleEntry: String) -> String {
        let space = ["", "A", "B", "C"][Int(generalProfileSpace & 3)]
        var reversed: UInt32 = 0
        for bit in 0..<32 where generalProfileCompatibilityFlags & (1 << UInt32(bit)) != 0 {
            reversed |= 1 << UInt32(31 - bit)
        }
        var string = "\(sampleEntry).\(space)\(generalProfileIdc).\(Hex.number(reversed)).\(generalTierFlag ? "H" : "L")\(generalLevelIdc)"
        var constraintBytes = (0..<6).map { UInt8(truncatingIfNeeded: generalConstraintIndicatorFlags >> UInt64(40 - 8 * $0)) }
        while constraintBytes.last == 0 { constraintBytes.removeLast() }
        for byte in constraintBytes {
            string += "." + Hex.byte(byte, uppercase: true)
        }
        return string
    }
}
