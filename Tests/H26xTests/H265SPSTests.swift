import Testing
@testable import H26x

@Suite("H.265 SPS (ITU-T H.265 §7.3.2.2)")
struct H265SPSTests {
    @Test("real x265 SPSs: size, frame rate, profile, level and codec string match ffprobe and GStreamer", arguments: Fixtures.h265)
    func realSPS(_ fixture: H265Fixture) throws {
        let sps = try H265SPS(nalUnit: fixture.sps)
        #expect(sps.width == fixture.width)
        #expect(sps.height == fixture.height)
        let fps = try #require(sps.frameRate)
        #expect(abs(fps - fixture.frameRate) < 1e-9)
        #expect(sps.profileName == fixture.profileName)
        #expect(sps.levelName == fixture.level)
        #expect(sps.codecString == fixture.codecString)
    }

    @Test("profile_tier_level and format fields of the real SPSs")
    func fields() throws {
        func sps(_ name: String) throws -> H265SPS {
            try H265SPS(nalUnit: try #require(Fixtures.h265.first { $0.name == name }).sps)
        }
        let main = try sps("h265_720p25_main")
        #expect(main.generalProfileSpace == 0 && main.generalTierFlag == false)
        #expect(main.generalProfileIdc == 1)
        #expect(main.generalProfileCompatibilityFlags == 0x6000_0000)
        #expect(main.generalConstraintIndicatorFlags == 0x9000_0000_0000)
        #expect(main.generalLevelIdc == 93)
        #expect(main.chromaFormatIdc == 1 && main.bitDepthLuma == 8 && main.bitDepthChroma == 8)
        #expect(main.maxSubLayers == 1)

        let main10 = try sps("h265_1080p30_main10")
        #expect(main10.bitDepthLuma == 10 && main10.bitDepthChroma == 10)
        #expect(main10.generalProfileIdc == 2)

        let gray = try sps("h265_360p_gray")
        #expect(gray.chromaFormatIdc == 0)
        #expect(gray.generalConstraintIndicatorFlags == 0x9FC8_0000_0000)

        let full = try sps("h265_1080p25_444")
        #expect(full.chromaFormatIdc == 3)

        let layered = try sps("h265_716p2997_crop_tl")
        #expect(layered.maxSubLayers == 2)
        #expect(layered.temporalIdNestingFlag == false)
        #expect(layered.numUnitsInTick == 1001 && layered.timeScale == 30000)
    }

    // Synthetic SPS checked with ffmpeg's trace_headers (read to rbsp_stop_one_bit, fields as intended):
    // Main 10 level 4.1 with three sub-layers (sub-layer 0 has a profile, sub-layer 1 a level);
    // chroma 4:2:2, 1928x1088 with conformance window 2, 2, 0, 8 (SubWidthC 2, SubHeightC 1); 10-bit;
    // sub-layer ordering info for each layer; scaling_list_data() with both prediction modes and the
    // 32x32 step of 3; PCM; three short-term RPSs (explicit, then predicted from the previous one twice,
    // with used_by_curr_pic_flag/use_delta_flag mixes); two long-term POCs; VUI with Extended_SAR,
    // colour description, chroma location, default display window and timing 1/50.
    static let vps = hex(
        "40010c04ffff02200000030090000003000003007b900002200000030090000003000003007b972e5c09")
    static let sps = hex(
        "42010402200000030090000003000003007b900002200000030090000003000003007bb003c4801106dc4b6595cae579" +
        "244b6548a91522a4548a72a4548a91522a4516548a91522a4548b2a4548a91522a4548a91522a4548a91522a4548a915" +
        "22a4548a91522a4529522a4548a91522a4548a91522a4548a91522a4548a91522a4548a91522892a4548a91522a4548a" +
        "91522a4548a91522a4548a91522a4548a91522a45199ca91522a4548a91522a4548a91522a4548a91522a4548a91522a" +
        "4548a914e72a4548a91522a4548a91522a4548a91522a4548a91522a4548a91522a451672a4548a91522a4548a91522a" +
        "4548a91522a4548a91522a4548a91522a459ca91522a4548a91522a4548a91522a4548a91522a4548a91522a4548a914" +
        "bbbd08d6a9e9959623c87ff80008000b7091009e394b0000030001000003003208")
    static let pps = hex(
        "4401c0718012")

    @Test("sub-layers, scaling lists, PCM, predicted RPSs and long-term pictures are skipped exactly")
    func syntheticEverything() throws {
        let sps = try H265SPS(nalUnit: Self.sps)
        #expect(sps.maxSubLayers == 3)
        #expect(sps.generalProfileIdc == 2 && sps.generalLevelIdc == 123)
        #expect(sps.chromaFormatIdc == 2)
        #expect(sps.width == 1920 && sps.height == 1080)
        #expect(sps.bitDepthLuma == 10)
        #expect(sps.numUnitsInTick == 1 && sps.timeScale == 50)
        #expect(sps.frameRate == 50)
        #expect(sps.profileName == "Main 10")
        #expect(sps.levelName == "4.1")
        #expect(sps.codecString == "hvc1.2.4.L123.90")
    }

    // The same SPS with a different VUI tail, checked with ffmpeg's trace_headers: POC timing, HRD
    // parameters with NAL and VCL sub-layer parameters and sub-picture parameters, where sub-layer 0 has
    // fixed_pic_rate_general_flag 1 (fixed_pic_rate_within_cvs_flag inferred 1: elemental duration and
    // cpb_cnt_minus1 1 follow), sub-layer 1 has low_delay_hrd_flag 1 (no cpb_cnt_minus1), sub-layer 2
    // is fixed within the CVS; then a bitstream restriction with min_spatial_segmentation_idc 200.
    // The PPS sets entropy_coding_sync_enabled_flag (wavefront).
    static let spsWithHRD = hex(
        "42010402200000030090000003000003007b900002200000030090000003000003007bb003c4801106dc4b6595cae579" +
        "244b6548a91522a4548a72a4548a91522a4516548a91522a4548b2a4548a91522a4548a91522a4548a91522a4548a915" +
        "22a4548a91522a4529522a4548a91522a4548a91522a4548a91522a4548a91522a4548a91522892a4548a91522a4548a" +
        "91522a4548a91522a4548a91522a4548a91522a45199ca91522a4548a91522a4548a91522a4548a91522a4548a91522a" +
        "4548a914e72a4548a91522a4548a91522a4548a91522a4548a91522a4548a91522a451672a4548a91522a4548a91522a" +
        "4548a91522a4548a91522a4548a91522a459ca91522a4548a91522a4548a91522a4548a91522a4548a91522a4548a914" +
        "bbbd08d6a9e9959623c87ff80008000b7091009e394b0000030001000003003293c5c930994966d003e9003e8804b403" +
        "22007d4007d200968064600fa400fa2012d00c8801f5001f48025a0191931c40998e204d7142c60d0a16306b4064b410" +
        "0820")
    static let ppsWavefront = hex("4401c0718212")

    @Test("HRD parameters are skipped exactly and the bitstream restriction is read")
    func hrdAndRestriction() throws {
        let sps = try H265SPS(nalUnit: Self.spsWithHRD)
        #expect(sps.minSpatialSegmentationIdc == 200)
        #expect(sps.frameRate == 50)
        #expect(sps.width == 1920 && sps.height == 1080)
        #expect(try H265SPS(nalUnit: Self.sps).minSpatialSegmentationIdc == 0)
        // A damaged tail after the timing info leaves the restriction unread, not the SPS.
        var cut = Self.spsWithHRD
        cut.removeLast(12)
        let lenient = try H265SPS(nalUnit: cut)
        #expect(lenient.minSpatialSegmentationIdc == 0)
        #expect(lenient.frameRate == 50)
    }

    @Test("every truncation of every SPS throws or gives the same result; none traps",
          arguments: Fixtures.h265.map(\.sps) + [sps, spsWithHRD])
    func truncations(_ bytes: [UInt8]) throws {
        let full = try H265SPS(nalUnit: bytes)
        for length in 0..<bytes.count {
            if var partial = try? H265SPS(nalUnit: Array(bytes.prefix(length))) {
                // The VUI tail after the timing info is read leniently: cut there, it reads as absent.
                if partial.minSpatialSegmentationIdc == 0 { partial.minSpatialSegmentationIdc = full.minSpatialSegmentationIdc }
                #expect(partial == full, "prefix of \(length) bytes")
            }
        }
        #expect(throws: H26xError.self) { try H265SPS(nalUnit: Array(bytes.prefix(20))) }
    }

    @Test("corrupt bytes never trap", arguments: Fixtures.h265.map(\.sps) + [sps, spsWithHRD])
    func bitFlips(_ bytes: [UInt8]) {
        for index in 2..<bytes.count {
            for bit in 0..<8 {
                var corrupt = bytes
                corrupt[index] ^= 1 << bit
                _ = try? H265SPS(nalUnit: corrupt)
            }
        }
    }

    @Test("wrong type, forbidden bit and short input are refused")
    func refusals() {
        #expect(throws: H26xError.self) { try H265SPS(nalUnit: [0x42]) }
        let error = #expect(throws: H26xError.self) { try H265SPS(nalUnit: Fixtures.h265[0].vps) }
        #expect(error?.description.contains("nal_unit_type 32") == true)
        var forbidden = Fixtures.h265[0].sps
        forbidden[0] |= 0x80
        #expect(throws: H26xError.self) { try H265SPS(nalUnit: forbidden) }
    }

    @Test("range extensions profile names follow Table A.2")
    func rangeExtensionNames() throws {
        var sps = try H265SPS(nalUnit: Fixtures.h265[0].sps)
        sps.generalProfileIdc = 4
        sps.generalProfileCompatibilityFlags = 1 << 27
        func flags(_ bits: String) -> UInt64 {
            // general_progressive_source_flag ... then max_12bit ... lower_bit_rate (9 flags)
            UInt64("1001" + bits + String(repeating: "0", count: 35), radix: 2)!
        }
        sps.generalConstraintIndicatorFlags = flags("111000001")
        #expect(sps.profileName == "Main 4:4:4")
        sps.generalConstraintIndicatorFlags = flags("110100001")
        #expect(sps.profileName == "Main 4:2:2 10")
        sps.generalConstraintIndicatorFlags = flags("100110001")
        #expect(sps.profileName == "Main 12")
        sps.generalConstraintIndicatorFlags = flags("111111001")
        #expect(sps.profileName == "Monochrome")
        sps.generalConstraintIndicatorFlags = flags("000111001")
        #expect(sps.profileName == "Monochrome 16")
        sps.generalConstraintIndicatorFlags = flags("111110100")
        #expect(sps.profileName == "Main Intra")
        sps.generalConstraintIndicatorFlags = flags("111000110")
        #expect(sps.profileName == "Main 4:4:4 Still Picture")
        sps.generalProfileIdc = 0 // unknown: fall back to the compatibility flags
        #expect(sps.profileName == "Main 4:4:4 Still Picture")
    }

    @Test("codec string: profile space, tier, reversed compatibility flags, dotted constraint bytes")
    func codecStrings() throws {
        var sps = try H265SPS(nalUnit: Fixtures.h265[0].sps)
        #expect(sps.codecString == "hvc1.1.6.L93.90")
        sps.generalConstraintIndicatorFlags = 0xB000_0000_0000
        #expect(sps.codecString == "hvc1.1.6.L93.B0") // the example of ISO/IEC 14496-15 Annex E
        sps.generalTierFlag = true
        sps.generalLevelIdc = 120
        sps.generalProfileSpace = 1
        #expect(sps.codecString == "hvc1.A1.6.H120.B0")
        sps.generalConstraintIndicatorFlags = 0
        #expect(sps.codecString(sampleEntry: "hev1") == "hev1.A1.6.H120")
        sps.generalConstraintIndicatorFlags = 0x0000_0000_0001
        #expect(sps.codecString == "hvc1.A1.6.H120.00.00.00.00.00.01")
        #expect(sps.levelName == "4.0")
    }
}
