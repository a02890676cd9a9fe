import Testing
@testable import AAC

@Suite("AudioCodec")
struct AudioCodecTests {
    @Test("rtpmap encoding names, in any case", arguments: [
        ("MPEG4-GENERIC", AudioCodec.aac), ("mpeg4-generic", .aac), ("PCMU", .pcmu), ("pcma", .pcma),
        ("opus", .opus), ("OPUS", .opus), ("MP4A-LATM", .other), ("G726-32", .other), (" PCMU ", .pcmu),
    ])
    func names(_ name: String, _ codec: AudioCodec) {
        #expect(AudioCodec(encodingName: name, payloadType: 96) == codec)
    }

    @Test("without an rtpmap, the RFC 3551 static payload types")
    func staticPayloadTypes() {
        #expect(AudioCodec(encodingName: nil, payloadType: 0) == .pcmu)
        #expect(AudioCodec(encodingName: nil, payloadType: 8) == .pcma)
        #expect(AudioCodec(encodingName: "", payloadType: 8) == .pcma)
        #expect(AudioCodec(encodingName: nil, payloadType: 97) == .other)
        #expect(AudioCodec(encodingName: nil, payloadType: 3) == .other) // GSM
        // A name wins over the payload type.
        #expect(AudioCodec(encodingName: "PCMA", payloadType: 0) == .pcma)
    }

    @Test("display names")
    func displayNames() {
        #expect(AudioCodec.aac.displayName == "AAC")
        #expect(AudioCodec.pcmu.displayName == "G.711 µ-law")
        #expect(AudioCodec.pcma.displayName == "G.711 A-law")
        #expect(AudioCodec.opus.displayName == "Opus")
        #expect(AudioCodec.displayName(encodingName: "G726-32", payloadType: 96) == "G726-32")
        #expect(AudioCodec.displayName(encodingName: nil, payloadType: 3) == "payload type 3")
        #expect(AudioCodec.displayName(encodingName: "pcmu", payloadType: 0) == "G.711 µ-law")
    }

    @Test("Codable as its raw value")
    func codable() throws {
        #expect(AudioCodec(rawValue: "aac") == .aac)
        #expect(AudioCodec.pcma.rawValue == "pcma")
    }

    @Test("AudioFormat has a codec string for AAC only")
    func formatCodecString() throws {
        let config = try AudioSpecificConfig(hex: "1190")
        #expect(AudioFormat(codec: .aac, sampleRate: 48000, channels: 2, config: config).codecString == "mp4a.40.2")
        #expect(AudioFormat(codec: .aac, sampleRate: 48000, channels: 2, config: nil).codecString == nil)
        #expect(AudioFormat(codec: .pcmu, sampleRate: 8000, channels: 1, config: nil).codecString == nil)
    }
}
