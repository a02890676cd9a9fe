import Testing
@testable import AAC

@Suite("AudioSpecificConfig (ISO/IEC 14496-3 §1.6.2.1)")
struct AudioSpecificConfigTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        var hex: String
        var objectType: Int
        var index: Int
        var frequency: Int
        var channelConfiguration: Int
        var channels: Int
        var frameLength = 1024
        var testDescription: String { hex }
    }

    @Test("configs cameras and encoders send", arguments: [
        Expected(hex: "1190", objectType: 2, index: 3, frequency: 48000, channelConfiguration: 2, channels: 2),
        Expected(hex: "1210", objectType: 2, index: 4, frequency: 44100, channelConfiguration: 2, channels: 2),
        Expected(hex: "1408", objectType: 2, index: 8, frequency: 16000, channelConfiguration: 1, channels: 1),
        Expected(hex: "1588", objectType: 2, index: 11, frequency: 8000, channelConfiguration: 1, channels: 1),
        // GStreamer's rtpmp4gpay caps (from avenc_aac): 16 kHz mono and 48 kHz stereo, with ffmpeg's
        // sync extension 0x2B7 saying sbrPresentFlag = 0.
        Expected(hex: "140856e500", objectType: 2, index: 8, frequency: 16000, channelConfiguration: 1, channels: 1),
        Expected(hex: "119056e500", objectType: 2, index: 3, frequency: 48000, channelConfiguration: 2, channels: 2),
        // ffmpeg's RTP muxer SDP, upper case.
        Expected(hex: "121056E500", objectType: 2, index: 4, frequency: 44100, channelConfiguration: 2, channels: 2),
        // frameLengthFlag = 1: 00010 0011 0010 1 0 0.
        Expected(hex: "1194", objectType: 2, index: 3, frequency: 48000, channelConfiguration: 2, channels: 2, frameLength: 960),
    ])
    func realConfigs(_ expected: Expected) throws {
        let config = try AudioSpecificConfig(hex: expected.hex)
        #expect(config.audioObjectType == expected.objectType)
        #expect(config.coreAudioObjectType == expected.objectType)
        #expect(config.samplingFrequencyIndex == expected.index)
        #expect(config.samplingFrequency == expected.frequency)
        #expect(config.outputSamplingFrequency == expected.frequency)
        #expect(config.channelConfiguration == expected.channelConfiguration)
        #expect(config.channelCount == expected.channels)
        #expect(config.frameLength == expected.frameLength)
        #expect(config.bytes == hexBytes(expected.hex))
        #expect(config.hex == expected.hex.lowercased())
        #expect(config.codecString == "mp4a.40.2")
        #expect(config.objectTypeName == "AAC LC")
        #expect(!config.sbrPresent && !config.psPresent && config.extensionSamplingFrequency == nil)
    }

    @Test("an explicit 24-bit sampling frequency (index 0xF)")
    func explicitFrequency() throws {
        // 00010 1111 000000000011000000111001 0001 000: AAC LC, 12345 Hz, mono.
        let config = try AudioSpecificConfig(hex: "1780181c88")
        #expect(config.audioObjectType == 2)
        #expect(config.samplingFrequencyIndex == 15)
        #expect(config.samplingFrequency == 12345)
        #expect(config.channelConfiguration == 1)
        #expect(config.frameLength == 1024)
    }

    @Test("the audio object type escape (31): AAC ELD with frameLengthFlag, USAC")
    func objectTypeEscape() throws {
        // 11111 000111 (32 + 7 = 39, ELD) 0011 (48 kHz) 0001 (mono), ELDSpecificConfig frameLengthFlag 1.
        let eld = try AudioSpecificConfig(hex: "f8e63000")
        #expect(eld.audioObjectType == 39)
        #expect(eld.samplingFrequency == 48000)
        #expect(eld.channelCount == 1)
        #expect(eld.frameLength == 480)
        #expect(eld.codecString == "mp4a.40.39")
        #expect(eld.objectTypeName == "AAC ELD")
        // 11111 001010 (32 + 10 = 42, USAC) 0011 0010: its UsacConfig is not read.
        let usac = try AudioSpecificConfig(hex: "f94640")
        #expect(usac.audioObjectType == 42)
        #expect(usac.samplingFrequency == 48000)
        #expect(usac.channelCount == 2)
        #expect(usac.codecString == "mp4a.40.42")
    }

    @Test("explicit SBR and PS signalling (object types 5 and 29)")
    func explicitSBR() throws {
        // 00101 0110 (24 kHz) 0010 0011 (48 kHz) 00010 000.
        let heAAC = try AudioSpecificConfig(hex: "2b118800")
        #expect(heAAC.audioObjectType == 5)
        #expect(heAAC.coreAudioObjectType == 2)
        #expect(heAAC.samplingFrequency == 24000)
        #expect(heAAC.extensionSamplingFrequency == 48000)
        #expect(heAAC.outputSamplingFrequency == 48000)
        #expect(heAAC.sbrPresent && !heAAC.psPresent)
        #expect(heAAC.channelCount == 2)
        #expect(heAAC.frameLength == 1024)
        #expect(heAAC.codecString == "mp4a.40.5")
        #expect(heAAC.objectTypeName == "HE-AAC")
        // 11101 0110 0001 0011 00010 000: HE-AAC v2, mono core, stereo out.
        let v2 = try AudioSpecificConfig(hex: "eb098800")
        #expect(v2.audioObjectType == 29)
        #expect(v2.sbrPresent && v2.psPresent)
        #expect(v2.channelConfiguration == 1)
        #expect(v2.channelCount == 2)
        #expect(v2.codecString == "mp4a.40.29")
        #expect(v2.objectTypeName == "HE-AAC v2")
    }

    @Test("backward-compatible SBR/PS signalling (syncExtensionType 0x2B7 and 0x548)")
    func backwardCompatibleSBR() throws {
        // AAC LC 24 kHz stereo, then 0x2B7, object type 5, sbrPresentFlag 1, 48 kHz.
        let sbr = try AudioSpecificConfig(hex: "131056e598")
        #expect(sbr.audioObjectType == 2)
        #expect(sbr.sbrPresent && !sbr.psPresent)
        #expect(sbr.samplingFrequency == 24000)
        #expect(sbr.outputSamplingFrequency == 48000)
        #expect(sbr.codecString == "mp4a.40.2")
        #expect(sbr.objectTypeName == "HE-AAC")
        // Mono, then 0x2B7 … 0x548 psPresentFlag 1.
        let ps = try AudioSpecificConfig(hex: "130856e59d4880")
        #expect(ps.sbrPresent && ps.psPresent)
        #expect(ps.channelCount == 2)
        // A damaged extension leaves the core config usable.
        let cut = try AudioSpecificConfig(hex: "131056e5")
        #expect(!cut.sbrPresent)
        #expect(cut.samplingFrequency == 24000)
    }

    @Test("channelConfiguration 0: channels counted from the program_config_element")
    func programConfigElement() throws {
        // 5.1: front SCE + CPE, back CPE, one LFE; byte-aligned, no comment.
        let config = try AudioSpecificConfig(hex: "118004c8050001190000")
        #expect(config.channelConfiguration == 0)
        #expect(config.channelCount == 6)
        #expect(config.samplingFrequency == 48000)
    }

    @Test("every proper prefix of a multi-byte config is rejected as truncated", arguments: [
        "1780181c88", "118004c8050001190000", "f94640", "2b118800",
    ])
    func truncated(_ hex: String) throws {
        let bytes = hexBytes(hex)
        for length in 0..<bytes.count {
            #expect(throws: AACError.self, "length \(length)") {
                try AudioSpecificConfig(bytes: Array(bytes.prefix(length)))
            }
        }
        _ = try AudioSpecificConfig(bytes: bytes)
    }

    @Test("garbage is rejected with a message that says what is wrong", arguments: [
        ("", "empty"),
        ("   ", "empty"),
        ("119", "odd number"),
        ("11g0", "not hexadecimal"),
        ("0x1190", "not hexadecimal"),
        ("0190", "audioObjectType 0"),
        ("1690", "reserved value"),           // samplingFrequencyIndex 13
        ("11c0", "channelConfiguration 8"),   // reserved
        ("1780000008", "0 Hz"),
        ("11", "truncated"),
        ("f8", "truncated"),                  // escape without audioObjectTypeExt
    ])
    func garbage(_ hex: String, _ message: String) {
        #expect {
            try AudioSpecificConfig(hex: hex)
        } throws: { error in
            (error as? AACError)?.description.contains(message) == true
        }
    }

    @Test("hex tolerates case and surrounding spaces")
    func hexCase() throws {
        #expect(try AudioSpecificConfig(hex: " 121056E500 ") == AudioSpecificConfig(hex: "121056e500"))
        #expect(try AudioSpecificConfig(hex: "121056E500").hex == "121056e500")
    }

    @Test("building an AAC LC config from a rate and channel count", arguments: [
        (48000, 2, "1190"), (44100, 2, "1210"), (16000, 1, "1408"), (8000, 1, "1588"), (12345, 1, "1780181c88"),
    ])
    func build(_ rate: Int, _ channels: Int, _ hex: String) throws {
        let config = try AudioSpecificConfig(audioObjectType: 2, samplingFrequency: rate, channelConfiguration: channels)
        #expect(config.hex == hex)
        #expect(config.samplingFrequency == rate)
        #expect(config.channelConfiguration == channels)
    }

    @Test("building rejects what AAC LC cannot say")
    func buildRejects() {
        #expect(throws: AACError.self) { try AudioSpecificConfig(audioObjectType: 5, samplingFrequency: 48000, channelConfiguration: 2) }
        #expect(throws: AACError.self) { try AudioSpecificConfig(audioObjectType: 2, samplingFrequency: 0, channelConfiguration: 2) }
        #expect(throws: AACError.self) { try AudioSpecificConfig(audioObjectType: 2, samplingFrequency: 1 << 24, channelConfiguration: 2) }
        #expect(throws: AACError.self) { try AudioSpecificConfig(audioObjectType: 2, samplingFrequency: 48000, channelConfiguration: 0) }
        #expect(throws: AACError.self) { try AudioSpecificConfig(audioObjectType: 2, samplingFrequency: 48000, channelConfiguration: 8) }
    }

    @Test("random bytes never trap, and what parses is plausible")
    func randomBytes() {
        var generator = SplitMix64(state: 3640)
        var parsed = 0
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...12, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            guard let config = try? AudioSpecificConfig(bytes: bytes) else { continue }
            parsed += 1
            #expect(config.audioObjectType > 0)
            #expect(config.samplingFrequency > 0)
            #expect(config.channelCount >= 0)
            #expect([480, 512, 960, 1024].contains(config.frameLength))
            #expect(config.bytes == bytes)
        }
        #expect(parsed > 1000) // most 2-byte patterns are valid configs; the checks above did run
    }
}
