import NIOCore

/// ISO/IEC 14496-3 §1.6.2.1 AudioSpecificConfig: the few bytes that tell an MPEG-4 audio decoder what
/// it is decoding. RTP carries it hex-encoded in the fmtp `config=` parameter (RFC 3640 §4.1); MP4
/// carries it as the DecoderSpecificInfo of the `esds` box (ISO/IEC 14496-1 §7.2.6.7).
///
/// Parsed: audioObjectType (with the escape value 31), samplingFrequencyIndex (with the explicit
/// 24-bit frequency of index 0xF), channelConfiguration, the explicit SBR/PS signalling of object
/// types 5 and 29 (§1.6.5.2 hierarchical) and the backward-compatible sync extension (0x2B7, 0x548),
/// GASpecificConfig (§4.4.1) with its program_config_element (§4.4.1.1) when channelConfiguration is
/// 0, and the frameLengthFlag of ELDSpecificConfig. Other object types' specific configs are not read;
/// their frame length is taken as 1024.
public struct AudioSpecificConfig: Sendable, Equatable {
    /// §1.5.1.1 Table 1.1 audioObjectType as first signalled: 2 = AAC LC, 5 = SBR (HE-AAC),
    /// 29 = PS (HE-AAC v2), 23 = AAC LD, 39 = AAC ELD ...
    public var audioObjectType: Int
    /// §1.6.3.3 samplingFrequencyIndex: 0...12 index Table 1.18, or 15 (0xF) for an explicit frequency.
    public var samplingFrequencyIndex: Int
    /// The (core) sampling frequency in Hz: from Table 1.18, or the explicit 24-bit samplingFrequency.
    public var samplingFrequency: Int
    /// §1.6.3.4 Table 1.19 channelConfiguration: 1 = mono, 2 = stereo ... 7 = 7.1; 0 = described by a
    /// program_config_element.
    public var channelConfiguration: Int
    /// Samples per access unit at `samplingFrequency`: 1024, or 960 with GASpecificConfig's
    /// frameLengthFlag (§4.5.1.1); 512/480 for AAC LD and ELD.
    public var frameLength: Int
    /// The raw config, as it goes into esds' DecoderSpecificInfo.
    public var bytes: [UInt8]

    /// The object type of the core coder: `audioObjectType`, except with the explicit SBR/PS signalling
    /// (object types 5 and 29), where it is the type that follows (usually 2, AAC LC).
    public var coreAudioObjectType: Int
    /// §1.6.5.2 sbrPresentFlag: spectral band replication is signalled (explicitly or by the
    /// backward-compatible sync extension). Streams may also use SBR without saying so (implicit
    /// signalling); a decoder finds out from the first frame.
    public var sbrPresent: Bool
    /// §1.6.5.2 psPresentFlag: parametric stereo is signalled (output is stereo from a mono core).
    public var psPresent: Bool
    /// The SBR output sampling frequency (extensionSamplingFrequencyIndex or the explicit
    /// extensionSamplingFrequency), when SBR is signalled.
    public var extensionSamplingFrequency: Int?
    /// Decoded channels: from Table 1.19 (7 → 8 channels for 7.1, 11 → 7, 12 and 14 → 8, 13 → 24),
    /// counted from the program_config_element when channelConfiguration is 0, and 2 with parametric stereo.
    public var channelCount: Int

    /// Parses the raw config (trailing padding bits and bytes are ignored).
    /// - Throws: `AACError` when the bytes are empty, truncated or use reserved values.
    public init(bytes: [UInt8]) throws(AACError) {
        guard !bytes.isEmpty else {
            throw AACError("the AudioSpecificConfig is empty: the camera's SDP config= parameter carries no bytes")
        }
        var reader = BitReader(bytes: bytes, context: "AudioSpecificConfig \(Self.hexString(bytes))")
        self.bytes = bytes
        audioObjectType = try Self.readAudioObjectType(&reader)
        guard audioObjectType != 0 else {
            throw AACError("AudioSpecificConfig \(Self.hexString(bytes)) has audioObjectType 0 (null object): it describes no audio; check the camera's config= parameter")
        }
        (samplingFrequencyIndex, samplingFrequency) = try Self.readSamplingFrequency(&reader, "samplingFrequencyIndex")
        channelConfiguration = try reader.int(4, "channelConfiguration")
        guard let count = Self.channelCount(forConfiguration: channelConfiguration) else {
            throw AACError("AudioSpecificConfig \(Self.hexString(bytes)) has channelConfiguration \(channelConfiguration), a reserved value (ISO/IEC 14496-3 Table 1.19); the config is damaged or from a newer standard")
        }
        channelCount = count
        sbrPresent = false
        psPresent = false
        extensionSamplingFrequency = nil
        frameLength = 1024

        // §1.6.2.1: explicit (hierarchical) SBR and PS signalling.
        var extensionObjectType = 0
        if audioObjectType == 5 || audioObjectType == 29 {
            extensionObjectType = 5
            sbrPresent = true
            psPresent = audioObjectType == 29
            extensionSamplingFrequency = try Self.readSamplingFrequency(&reader, "extensionSamplingFrequencyIndex").frequency
            coreAudioObjectType = try Self.readAudioObjectType(&reader)
            if coreAudioObjectType == 22 {
                try reader.skip(4, "extensionChannelConfiguration")
            }
        } else {
            coreAudioObjectType = audioObjectType
        }

        var parsedToEnd = false
        switch coreAudioObjectType {
        case 1, 2, 3, 4, 6, 7, 17, 19, 20, 21, 22, 23:
            try parseGASpecificConfig(&reader)
            parsedToEnd = true
            // §1.6.2.1 epConfig of the error-resilient object types. Configs 2 and 3 carry an
            // ErrorProtectionSpecificConfig that is not read here; nothing after it is read either.
            if [17, 19, 20, 21, 22, 23].contains(coreAudioObjectType) {
                let epConfig = try reader.int(2, "epConfig")
                parsedToEnd = epConfig < 2
            }
        case 39:
            // §4.4.1.2 ELDSpecificConfig starts with frameLengthFlag: 480 or 512 samples.
            frameLength = try reader.flag("frameLengthFlag") ? 480 : 512
        default:
            break
        }

        // §1.6.2.1 backward-compatible signalling of SBR and PS after the object type's own config.
        if parsedToEnd, extensionObjectType != 5 {
            parseSyncExtension(&reader)
        }
        if psPresent && channelConfiguration == 1 {
            channelCount = 2
        }
    }

    /// Parses the fmtp `config=` value (RFC 3640 §4.1: the hexadecimal AudioSpecificConfig).
    /// Upper and lower case are both accepted, and spaces around it are ignored.
    /// - Throws: `AACError` when the value is not hexadecimal or the config does not parse.
    public init(hex: String) throws(AACError) {
        try self.init(bytes: try Self.bytes(fromHex: hex))
    }

    /// A config for AAC LC (or AAC Main, SSR, LTP: object types 1...4) from a sample rate and channel
    /// configuration, for tests and for cameras whose fmtp lacks config=. Rates not in ISO/IEC 14496-3
    /// Table 1.18 are written as an explicit 24-bit frequency; frameLengthFlag is 0 (1024 samples).
    /// - Throws: `AACError` for other object types, a rate outside 1...16777215 Hz, or a channel
    ///   configuration that is not 1...7 or 11...14.
    public init(audioObjectType: Int, samplingFrequency: Int, channelConfiguration: Int) throws(AACError) {
        guard (1...4).contains(audioObjectType) else {
            throw AACError("cannot build an AudioSpecificConfig for audio object type \(audioObjectType): only AAC Main, LC, SSR and LTP (1...4) are supported; use the camera's own config= value")
        }
        guard (1...0xFF_FFFF).contains(samplingFrequency) else {
            throw AACError("cannot build an AudioSpecificConfig for \(samplingFrequency) Hz: the rate must be 1 to 16777215 Hz")
        }
        guard (1...7).contains(channelConfiguration) || (11...14).contains(channelConfiguration) else {
            throw AACError("cannot build an AudioSpecificConfig with channelConfiguration \(channelConfiguration): use 1 (mono) to 7 (7.1) or 11...14 (ISO/IEC 14496-3 Table 1.19)")
        }
        var writer = BitWriter()
        writer.write(audioObjectType, bits: 5)
        if let index = Self.samplingFrequencies.firstIndex(of: samplingFrequency) {
            writer.write(index, bits: 4)
        } else {
            writer.write(0xF, bits: 4)
            writer.write(samplingFrequency, bits: 24)
        }
        writer.write(channelConfiguration, bits: 4)
        writer.write(0, bits: 3) // GASpecificConfig: frameLengthFlag, dependsOnCoreCoder, extensionFlag
        try self.init(bytes: writer.bytes)
    }

    /// RFC 6381 §3.3 codecs parameter: "mp4a.40." and the audioObjectType in decimal ("mp4a.40.2").
    public var codecString: String {
        "mp4a.40.\(audioObjectType)"
    }

    /// The config as lower-case hexadecimal, as the fmtp `config=` parameter carries it.
    public var hex: String {
        Self.hexString(bytes)
    }

    /// The rate the decoder outputs: the SBR rate when SBR is signalled, else `samplingFrequency`.
    public var outputSamplingFrequency: Int {
        extensionSamplingFrequency ?? samplingFrequency
    }

    /// A name for people: "AAC LC", "HE-AAC", "HE-AAC v2", "AAC ELD" ...
    public var objectTypeName: String {
        if psPresent { return "HE-AAC v2" }
        if sbrPresent && coreAudioObjectType == 2 { return "HE-AAC" }
        return Self.objectTypeNames[coreAudioObjectType] ?? "MPEG-4 audio object type \(coreAudioObjectType)"
    }

    /// §4.4.1 GASpecificConfig.
    private mutating func parseGASpecificConfig(_ reader: inout BitReader) throws(AACError) {
        let frameLengthFlag = try reader.flag("frameLengthFlag")
        if coreAudioObjectType == 23 {
            frameLength = frameLengthFlag ? 480 : 512 // AAC LD (§4.5.1.1)
        } else {
            frameLength = frameLengthFlag ? 960 : 1024
        }
        if try reader.flag("dependsOnCoreCoder") {
            try reader.skip(14, "coreCoderDelay")
        }
        let extensionFlag = try reader.flag("extensionFlag")
        if channelConfiguration == 0 {
            channelCount = try Self.parseProgramConfigElement(&reader)
        }
        if coreAudioObjectType == 6 || coreAudioObjectType == 20 {
            try reader.skip(3, "layerNr")
        }
        if extensionFlag {
            if coreAudioObjectType == 22 {
                try reader.skip(5, "numOfSubFrame")
                try reader.skip(11, "layer_length")
            }
            if [17, 19, 20, 23].contains(coreAudioObjectType) {
                try reader.skip(3, "aacSectionDataResilienceFlag, aacScalefactorDataResilienceFlag, aacSpectralDataResilienceFlag")
            }
            try reader.skip(1, "extensionFlag3")
        }
    }

    /// §4.4.1.1 program_config_element: returns the number of channels it describes (each single
    /// channel element counts 1, each channel pair 2, each LFE 1).
    private static func parseProgramConfigElement(_ reader: inout BitReader) throws(AACError) -> Int {
        try reader.skip(4 + 2 + 4, "element_instance_tag, object_type, sampling_frequency_index")
        let front = try reader.int(4, "num_front_channel_elements")
        let side = try reader.int(4, "num_side_channel_elements")
        let back = try reader.int(4, "num_back_channel_elements")
        let lfe = try reader.int(2, "num_lfe_channel_elements")
        let assocData = try reader.int(3, "num_assoc_data_elements")
        let validCC = try reader.int(4, "num_valid_cc_elements")
        if try reader.flag("mono_mixdown_present") { try reader.skip(4, "mono_mixdown_element_number") }
        if try reader.flag("stereo_mixdown_present") { try reader.skip(4, "stereo_mixdown_element_number") }
        if try reader.flag("matrix_mixdown_idx_present") { try reader.skip(3, "matrix_mixdown_idx, pseudo_surround_enable") }
        var channels = lfe
        for _ in 0..<(front + side + back) {
            channels += try reader.flag("front/side/back_element_is_cpe") ? 2 : 1
            try reader.skip(4, "front/side/back_element_tag_select")
        }
        try reader.skip(4 * lfe + 4 * assocData + 5 * validCC, "lfe, assoc_data and valid_cc element tags")
        reader.alignToByte() // byte_alignment() relative to the start of the AudioSpecificConfig
        let commentBytes = try reader.int(8, "comment_field_bytes")
        try reader.skip(8 * commentBytes, "comment_field_data")
        guard channels > 0 else {
            throw AACError("\(reader.context) has a program_config_element with no channels; the config is damaged")
        }
        return channels
    }

    /// §1.6.2.1 syncExtensionType 0x2B7 (SBR) and 0x548 (PS) after the object type's config. A
    /// damaged or cut-short extension is ignored: the core config is still usable.
    private mutating func parseSyncExtension(_ reader: inout BitReader) {
        guard reader.bitsLeft >= 16 else { return }
        var copy = reader
        do throws(AACError) {
            guard try copy.int(11, "syncExtensionType") == 0x2B7 else { return }
            let extensionObjectType = try Self.readAudioObjectType(&copy)
            guard extensionObjectType == 5 || extensionObjectType == 22 else { return }
            guard try copy.flag("sbrPresentFlag") else { return }
            let rate = try Self.readSamplingFrequency(&copy, "extensionSamplingFrequencyIndex").frequency
            var ps = false
            if extensionObjectType == 5, copy.bitsLeft >= 12, try copy.int(11, "syncExtensionType") == 0x548 {
                ps = try copy.flag("psPresentFlag")
            }
            sbrPresent = true
            psPresent = ps
            extensionSamplingFrequency = rate
            reader = copy
        } catch {
            return
        }
    }

    /// §1.6.2.1 GetAudioObjectType(): 5 bits, and 6 more (+32) after the escape value 31.
    private static func readAudioObjectType(_ reader: inout BitReader) throws(AACError) -> Int {
        let type = try reader.int(5, "audioObjectType")
        guard type == 31 else { return type }
        return 32 + (try reader.int(6, "audioObjectTypeExt"))
    }

    /// A 4-bit sampling frequency index and, for 0xF, the explicit 24-bit frequency.
    private static func readSamplingFrequency(_ reader: inout BitReader, _ element: StaticString) throws(AACError) -> (index: Int, frequency: Int) {
        let index = try reader.int(4, element)
        if index == 0xF {
            let frequency = try reader.int(24, "samplingFrequency")
            guard frequency > 0 else {
                throw AACError("\(reader.context) gives an explicit sampling frequency of 0 Hz; the config is damaged")
            }
            return (index, frequency)
        }
        guard index < samplingFrequencies.count else {
            throw AACError("\(reader.context) has \(element) \(index), a reserved value (ISO/IEC 14496-3 Table 1.18); the config is damaged")
        }
        return (index, samplingFrequencies[index])
    }
}
