/// ADTS headers (ISO/IEC 14496-3 §1.A.2.2 adts_fixed_header and adts_variable_header) for raw AUs,
/// for debugging and tests: ffprobe, ffplay and GStreamer's aacparse read a file of ADTS frames (.aac).
public enum ADTS {
    /// The length of a header without CRC (protection_absent = 1).
    public static let headerLength = 7
    /// The largest raw AU one ADTS frame can carry: aac_frame_length is 13 bits and includes the header.
    public static let maximumPayloadLength = (1 << 13) - 1 - headerLength

    /// A 7-byte header, without CRC, for one raw AU of `payloadLength` bytes.
    ///
    /// ADTS can only describe AAC Main, LC, SSR and LTP (profile_ObjectType = audioObjectType − 1) with a
    /// sampling frequency from Table 1.18 and channelConfiguration 0...7, so: with explicit SBR/PS
    /// signalling the core object type is written (decoders find SBR implicitly); other object types
    /// are written as LC; an explicit frequency as the nearest indexed one; channel configurations
    /// above 7 as 0. Payloads longer than ``maximumPayloadLength`` do not fit: aac_frame_length is
    /// then written as its maximum, 8191, and the result is not a valid frame.
    public static func header(for config: AudioSpecificConfig, payloadLength: Int) -> [UInt8] {
        let objectType = (1...4).contains(config.coreAudioObjectType) ? config.coreAudioObjectType : 2
        let frequencyIndex: Int
        if config.samplingFrequencyIndex < AudioSpecificConfig.samplingFrequencies.count {
            frequencyIndex = config.samplingFrequencyIndex
        } else {
            frequencyIndex = nearestFrequencyIndex(config.samplingFrequency)
        }
        let channels = config.channelConfiguration <= 7 ? config.channelConfiguration : 0
        let frameLength = min(max(payloadLength, 0) + headerLength, (1 << 13) - 1)
        var writer = BitWriter()
        // adts_fixed_header()
        writer.write(0xFFF, bits: 12)            // syncword
        writer.write(0, bits: 1)                 // ID: 0 = MPEG-4
        writer.write(0, bits: 2)                 // layer
        writer.write(1, bits: 1)                 // protection_absent: no CRC
        writer.write(objectType - 1, bits: 2)    // profile_ObjectType
        writer.write(frequencyIndex, bits: 4)    // sampling_frequency_index
        writer.write(0, bits: 1)                 // private_bit
        writer.write(channels, bits: 3)          // channel_configuration
        writer.write(0, bits: 1)                 // original_copy
        writer.write(0, bits: 1)                 // home
        // adts_variable_header()
        writer.write(0, bits: 1)                 // copyright_identification_bit
        writer.write(0, bits: 1)                 // copyright_identification_start
        writer.write(frameLength, bits: 13)      // aac_frame_length, header included
        writer.write(0x7FF, bits: 11)            // adts_buffer_fullness: variable bit rate
        writer.write(0, bits: 2)                 // number_of_raw_data_blocks_in_frame: one block
        return writer.bytes
    }

    private static func nearestFrequencyIndex(_ frequency: Int) -> Int {
        let table = AudioSpecificConfig.samplingFrequencies
        var best = 0
        for index in table.indices where abs(table[index] - frequency) < abs(table[best] - frequency) {
            best = index
        }
        return best
    }
}
