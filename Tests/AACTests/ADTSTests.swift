import Testing
@testable import AAC

@Suite("ADTS headers (ISO/IEC 14496-3 §1.A.2)")
struct ADTSTests {
    @Test("fields of a 48 kHz stereo AAC LC header")
    func fields() throws {
        let config = try AudioSpecificConfig(hex: "1190")
        let header = ADTS.header(for: config, payloadLength: 100)
        // FFF1: syncword, MPEG-4, layer 0, no CRC. 0x4C: profile 1 (LC), index 3 (48 kHz), private 0,
        // channel configuration's high bit 0. 0x80 0x0D 0x7F: its low bits 10, then aac_frame_length
        // 107 (0x006B) across three bytes, then buffer fullness 0x7FF and one raw data block.
        #expect(header == [0xFF, 0xF1, 0x4C, 0x80, 0x0D, 0x7F, 0xFC])
        #expect(header.count == ADTS.headerLength)
    }

    @Test("explicit SBR writes the core object type and rate; odd rates and big frames are clamped")
    func clamps() throws {
        let heAAC = try AudioSpecificConfig(hex: "2b118800")
        let header = ADTS.header(for: heAAC, payloadLength: 10)
        #expect(header[2] >> 6 == 1)              // profile_ObjectType: LC
        #expect((header[2] >> 2) & 0x0F == 6)     // 24 kHz core
        let odd = try AudioSpecificConfig(hex: "1780181c88") // 12345 Hz
        #expect((ADTS.header(for: odd, payloadLength: 10)[2] >> 2) & 0x0F == 9) // 12000 Hz
        let big = ADTS.header(for: heAAC, payloadLength: 100_000)
        let frameLength = Int(big[3] & 0x03) << 11 | Int(big[4]) << 3 | Int(big[5]) >> 5
        #expect(frameLength == 8191)
        #expect(ADTS.maximumPayloadLength == 8184)
    }
}
