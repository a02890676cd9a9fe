import Testing
@testable import H26x

@Suite("Decoder configuration records (ISO/IEC 14496-15 §5.3.3.1, §8.3.3.1)")
struct DecoderConfigurationRecordTests {
    @Test("avcC is byte-for-byte what ffmpeg writes", arguments: Fixtures.h264)
    func avcC(_ fixture: H264Fixture) throws {
        let record = try AVCDecoderConfigurationRecord(sps: fixture.sps, pps: [fixture.pps])
        #expect(record.bytes == fixture.avcC)
        #expect(record.codecString == fixture.codecString)
    }

    @Test("hvcC is byte-for-byte what ffmpeg writes", arguments: Fixtures.h265)
    func hvcC(_ fixture: H265Fixture) throws {
        let record = try HEVCDecoderConfigurationRecord(vps: fixture.vps, sps: fixture.sps, pps: fixture.pps)
        #expect(record.bytes == fixture.hvcC)
        #expect(record.codecString == fixture.codecString)
    }

    @Test("avcC with two PPSs and a Baseline SPS has no high-profile extension")
    func avcCTwoPPS() throws {
        let baseline = Fixtures.h264[2]
        let second: [UInt8] = [0x68, 0x4E, 0x38, 0x80] // pic_parameter_set_id 1
        let record = try AVCDecoderConfigurationRecord(sps: baseline.sps, pps: [baseline.pps, second])
        let expected = [1, 0x42, 0xC0, 0x16, 0xFF, 0xE1, 0, UInt8(baseline.sps.count)] + baseline.sps
            + [2, 0, UInt8(baseline.pps.count)] + baseline.pps + [0, 4] + second
        #expect(record.bytes == expected)
    }

    @Test("hvcC with the synthetic three-sub-layer 4:2:2 10-bit SPS")
    func hvcCSynthetic() throws {
        let record = try HEVCDecoderConfigurationRecord(vps: H265SPSTests.vps, sps: H265SPSTests.sps, pps: H265SPSTests.pps)
        let bytes = record.bytes
        #expect(bytes[0] == 1)
        #expect(bytes[1] == 0x02) // space 0, main tier, Main 10
        #expect(Array(bytes[2..<6]) == [0x20, 0, 0, 0])
        #expect(Array(bytes[6..<12]) == [0x90, 0, 0, 0, 0, 0])
        #expect(bytes[12] == 123)
        #expect(bytes[16] == 0xFC | 2) // chromaFormat 4:2:2
        #expect(bytes[17] == 0xF8 | 2 && bytes[18] == 0xF8 | 2)
        #expect(bytes[21] == (3 << 3) | 0x03) // three temporal layers, not nested, 4-byte lengths
        #expect(bytes[22] == 3)
        #expect(bytes[23] == 0x80 | 32)
    }

    @Test("hvcC carries min_spatial_segmentation_idc and the PPS's parallelism type")
    func hvcCParallelism() throws {
        let wavefront = try HEVCDecoderConfigurationRecord(vps: H265SPSTests.vps, sps: H265SPSTests.spsWithHRD, pps: H265SPSTests.ppsWavefront)
        #expect(Array(wavefront.bytes[13...15]) == [0xF0, 200, 0xFC | 3])
        let slices = try HEVCDecoderConfigurationRecord(vps: H265SPSTests.vps, sps: H265SPSTests.spsWithHRD, pps: H265SPSTests.pps)
        #expect(Array(slices.bytes[13...15]) == [0xF0, 200, 0xFC | 1])
        // Without a restriction in the SPS the parallelism type is unknown (0), whatever the PPS says.
        let unknown = try HEVCDecoderConfigurationRecord(vps: H265SPSTests.vps, sps: H265SPSTests.sps, pps: H265SPSTests.ppsWavefront)
        #expect(Array(unknown.bytes[13...15]) == [0xF0, 0, 0xFC])
        #expect(HEVCDecoderConfigurationRecord.parallelismType(pps: [0x44, 0x01]) == nil)
    }

    @Test("records refuse missing or mistyped parameter sets with a message")
    func refusals() {
        let h264 = Fixtures.h264[0]
        let noPPS = #expect(throws: H26xError.self) { try AVCDecoderConfigurationRecord(sps: h264.sps, pps: []) }
        #expect(noPPS?.description.contains("PPS") == true)
        #expect(throws: H26xError.self) { try AVCDecoderConfigurationRecord(sps: h264.pps, pps: [h264.pps]) }
        #expect(throws: H26xError.self) { try AVCDecoderConfigurationRecord(sps: h264.sps, pps: [h264.sps]) }
        #expect(throws: H26xError.self) { try AVCDecoderConfigurationRecord(sps: h264.sps, pps: [[]]) }
        let h265 = Fixtures.h265[0]
        #expect(throws: H26xError.self) { try HEVCDecoderConfigurationRecord(vps: h265.sps, sps: h265.sps, pps: h265.pps) }
        #expect(throws: H26xError.self) { try HEVCDecoderConfigurationRecord(vps: h265.vps, sps: h265.vps, pps: h265.pps) }
        #expect(throws: H26xError.self) { try HEVCDecoderConfigurationRecord(vps: h265.vps, sps: h265.sps, pps: h265.vps) }
        #expect(throws: H26xError.self) { try HEVCDecoderConfigurationRecord(vps: [0x40], sps: h265.sps, pps: h265.pps) }
    }

    @Test("VideoFormat from parameter sets", arguments: Fixtures.h264)
    func videoFormatH264(_ fixture: H264Fixture) throws {
        let format = try VideoFormat(h264SPS: fixture.sps, pps: [fixture.pps])
        #expect(format.codec == .h264)
        #expect(format.width == fixture.width && format.height == fixture.height)
        #expect(format.profileName == fixture.profileName)
        #expect(format.level == fixture.level)
        #expect(format.codecString == fixture.codecString)
        #expect(format.decoderConfigurationRecord == fixture.avcC)
        #expect(format.parameterSets == [fixture.sps, fixture.pps])
    }

    @Test("VideoFormat from H.265 parameter sets", arguments: Fixtures.h265)
    func videoFormatH265(_ fixture: H265Fixture) throws {
        let format = try VideoFormat(h265VPS: fixture.vps, sps: fixture.sps, pps: [fixture.pps])
        #expect(format.codec == .h265)
        #expect(format.width == fixture.width && format.height == fixture.height)
        #expect(format.frameRate.map { abs($0 - fixture.frameRate) < 1e-9 } == true)
        #expect(format.profileName == fixture.profileName)
        #expect(format.level == fixture.level)
        #expect(format.codecString == fixture.codecString)
        #expect(format.decoderConfigurationRecord == fixture.hvcC)
        #expect(format.parameterSets == [fixture.vps, fixture.sps, fixture.pps])
    }
}
