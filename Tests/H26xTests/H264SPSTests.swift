import Testing
@testable import H26x

@Suite("H.264 SPS (ITU-T H.264 §7.3.2.1.1)")
struct H264SPSTests {
    @Test("real x264 SPSs: size, frame rate, profile, level and codec string match ffprobe and GStreamer", arguments: Fixtures.h264)
    func realSPS(_ fixture: H264Fixture) throws {
        let sps = try H264SPS(nalUnit: fixture.sps)
        #expect(sps.width == fixture.width)
        #expect(sps.height == fixture.height)
        let fps = try #require(sps.frameRate)
        #expect(abs(fps - fixture.frameRate) < 1e-9)
        #expect(sps.profileName == fixture.profileName)
        #expect(sps.levelName == fixture.level)
        #expect(sps.codecString == fixture.codecString)
        #expect(sps.profileIdc == fixture.sps[1])
        #expect(sps.constraintFlags == fixture.sps[2])
        #expect(sps.levelIdc == fixture.sps[3])
    }

    @Test("chroma formats, bit depths and field coding of the real SPSs")
    func chromaAndFields() throws {
        func sps(_ name: String) throws -> H264SPS {
            try H264SPS(nalUnit: try #require(Fixtures.h264.first { $0.name == name }).sps)
        }
        #expect(try sps("h264_cif_gray").chromaFormatIdc == 0)
        #expect(try sps("h264_odd_gray").chromaFormatIdc == 0)
        #expect(try sps("h264_1080p25_high444_cqm").chromaFormatIdc == 3)
        let s422 = try sps("h264_600p50_high422_10")
        #expect(s422.chromaFormatIdc == 2)
        #expect(s422.bitDepthLuma == 10 && s422.bitDepthChroma == 10)
        let interlaced = try sps("h264_1080i25_interlaced")
        #expect(interlaced.frameMbsOnlyFlag == false)
        #expect(interlaced.timeScale == 50 && interlaced.numUnitsInTick == 1)
        #expect(try sps("h264_720p25_high").picOrderCntType == 0)
        #expect(try sps("h264_480p15_baseline").picOrderCntType == 2)
        let hrd = try sps("h264_716p2997_hrd")
        #expect(hrd.timeScale == 60000 && hrd.numUnitsInTick == 1001)
    }

    // Synthetic SPS checked with ffmpeg's trace_headers (which reads it to rbsp_stop_one_bit):
    // High, level 4.0, seq_scaling_matrix_present_flag with lists 0 (16 deltas), 3 (ends early when
    // nextScale reaches 0) and 6 (8x8, 64 deltas); pic_order_cnt_type 1 with a 3-entry cycle;
    // 120x34 map units with frame_mbs_only_flag 0 and mb_adaptive_frame_field_flag; crop bottom 2
    // (CropUnitY 4); VUI with Extended_SAR, overscan, colour description, chroma location and timing
    // 1001/60000.
    static let scalingListsPOCType1 = hex(
        "67640028ada49249249249110242254c51488c41d4c51488c41d4c51488c41d4c51488c41d4c51488c41d4c51488c41d" +
        "4c550a6221638a03c0227efff00040003f5010101a7000003e90000ea60840")

    @Test("scaling lists, pic_order_cnt_type 1, field coding and a full VUI are skipped exactly")
    func syntheticScalingListsAndPOCType1() throws {
        let sps = try H264SPS(nalUnit: Self.scalingListsPOCType1)
        #expect(sps.width == 1920)
        #expect(sps.height == 1080)
        #expect(sps.picOrderCntType == 1)
        #expect(sps.frameMbsOnlyFlag == false)
        #expect(sps.maxNumRefFrames == 4)
        #expect(sps.numUnitsInTick == 1001 && sps.timeScale == 60000)
        #expect(abs(try #require(sps.frameRate) - 30000.0 / 1001.0) < 1e-9)
        #expect(sps.profileName == "High" && sps.levelName == "4.0")
    }

    // Synthetic: High 4:4:4 Predictive, level 5.1, seq_parameter_set_id 3, chroma_format_idc 3 with
    // separate_colour_plane_flag (ChromaArrayType 0: crop unit 1), 14-bit, twelve scaling list flags
    // (lists 1, 7 and 11 present), pic_order_cnt_type 0, 22x18 macroblocks cropped by 1, 2, 3, 4.
    static let separatePlanes = hex(
        "67f4003321273e9084210842108421084202421084210842108421084210842108421084210842108421084210842108" +
        "421084210842108421082421084210842108421084210842108421084210842108421084210842108421084210842108" +
        "421083634230b04aa642a0")

    @Test("separate colour planes: crop unit 1, 12 scaling lists, 14-bit")
    func syntheticSeparatePlanes() throws {
        let sps = try H264SPS(nalUnit: Self.separatePlanes)
        #expect(sps.seqParameterSetId == 3)
        #expect(sps.chromaFormatIdc == 3 && sps.separateColourPlaneFlag)
        #expect(sps.bitDepthLuma == 14 && sps.bitDepthChroma == 14)
        #expect(sps.width == 352 - 3)
        #expect(sps.height == 288 - 7)
        #expect(sps.frameRate == nil)
        #expect(sps.profileName == "High 4:4:4 Predictive")
        #expect(sps.levelName == "5.1")
        #expect(sps.codecString == "avc1.f40033")
    }

    @Test("every truncation of every SPS throws or gives the same result; none traps",
          arguments: Fixtures.h264.map(\.sps) + [scalingListsPOCType1, separatePlanes])
    func truncations(_ bytes: [UInt8]) throws {
        let full = try H264SPS(nalUnit: bytes)
        for length in 0..<bytes.count {
            if let partial = try? H264SPS(nalUnit: Array(bytes.prefix(length))) {
                #expect(partial == full, "prefix of \(length) bytes")
            }
        }
        // Cut inside the fields that matter, parsing must fail.
        #expect(throws: H26xError.self) { try H264SPS(nalUnit: Array(bytes.prefix(5))) }
    }

    @Test("corrupt bytes never trap", arguments: Fixtures.h264.map(\.sps))
    func bitFlips(_ bytes: [UInt8]) {
        for index in 1..<bytes.count {
            for bit in 0..<8 {
                var corrupt = bytes
                corrupt[index] ^= 1 << bit
                _ = try? H264SPS(nalUnit: corrupt)
            }
        }
    }

    @Test("wrong NAL unit type, forbidden bit and empty input are refused with a message")
    func refusals() {
        #expect(throws: H26xError.self) { try H264SPS(nalUnit: []) }
        let pps = Fixtures.h264[0].pps
        let error = #expect(throws: H26xError.self) { try H264SPS(nalUnit: pps) }
        #expect(error?.description.contains("nal_unit_type 8") == true)
        var forbidden = Fixtures.h264[0].sps
        forbidden[0] |= 0x80
        #expect(throws: H26xError.self) { try H264SPS(nalUnit: forbidden) }
        // More than 31 leading zero bits in a ue(v).
        #expect(throws: H26xError.self) { try H264SPS(nalUnit: [0x67, 0x42, 0, 0x1E, 0, 0, 0, 0, 0, 0x80]) }
        // Cropping larger than the picture.
        var r = BitWriterForTests()
        r.bits(8, 66); r.bits(8, 0); r.bits(8, 30); r.ue(0)
        r.ue(0); r.ue(2); r.ue(1); r.bit(0)
        r.ue(0); r.ue(0) // 16x16
        r.bit(1); r.bit(1) // frame_mbs_only, direct_8x8
        r.bit(1); r.ue(5); r.ue(5); r.ue(0); r.ue(0) // crop 20 columns
        r.bit(0)
        let tooMuchCrop = #expect(throws: H26xError.self) { try H264SPS(nalUnit: [0x67] + r.rbsp()) }
        #expect(tooMuchCrop?.description.contains("cropping") == true)
    }

    @Test("emulation prevention bytes are removed before parsing")
    func emulationPrevention() throws {
        // The 720p SPS holds 00 00 03 sequences inside its VUI timing info (time_scale 50).
        let sps = Fixtures.h264[0].sps
        #expect(sps.windowsContain([0, 0, 3]))
        #expect(BitReader.rbsp(fromNALUnit: [0x67, 0, 0, 3, 1, 0, 0, 3, 0, 0, 3], headerLength: 1) == [0, 0, 1, 0, 0, 0, 0])
        #expect(try H264SPS(nalUnit: sps).timeScale == 50)
    }

    @Test("level names: 1b, x.y")
    func levelNames() throws {
        var sps = try H264SPS(nalUnit: Fixtures.h264[2].sps) // Constrained Baseline
        sps.levelIdc = 11
        sps.constraintFlags |= 0x10
        #expect(sps.levelName == "1b")
        sps.levelIdc = 9
        #expect(sps.levelName == "1b")
        sps.levelIdc = 51
        #expect(sps.levelName == "5.1")
        sps.levelIdc = 40
        #expect(sps.levelName == "4.0")
    }
}

extension Array where Element == UInt8 {
    func windowsContain(_ needle: [UInt8]) -> Bool {
        guard count >= needle.count else { return false }
        return (0...(count - needle.count)).contains { Array(self[$0..<($0 + needle.count)]) == needle }
    }
}

/// A tiny RBSP writer for hand-made malformed inputs (the well-formed synthetic fixtures above were
/// written elsewhere and checked with ffmpeg).
struct BitWriterForTests {
    private var bitsWritten: [UInt8] = []
    mutating func bit(_ value: Int) { bitsWritten.append(UInt8(value & 1)) }
    mutating func bits(_ count: Int, _ value: UInt64) {
        for shift in stride(from: count - 1, through: 0, by: -1) { bit(Int((value >> UInt64(shift)) & 1)) }
    }
    mutating func ue(_ value: UInt64) {
        let coded = value + 1
        let length = 64 - coded.leadingZeroBitCount
        bits(length - 1, 0)
        bits(length, coded)
    }
    mutating func rbsp() -> [UInt8] {
        var all = bitsWritten + [1]
        while all.count % 8 != 0 { all.append(0) }
        return stride(from: 0, to: all.count, by: 8).map { start in
            all[start..<(start + 8)].reduce(0) { $0 << 1 | $1 }
        }
    }
}
