import AAC
import H26x
import NIOCore

/// Sample entries (ISO/IEC 14496-12 §8.5.2): `avc1` + `avcC`, `hvc1` + `hvcC` (ISO/IEC 14496-15) and
/// `mp4a` + `esds` (ISO/IEC 14496-14).
extension MP4Boxes {
    /// ISO/IEC 14496-12 §12.1.3 VisualSampleEntry with the codec's configuration box:
    /// ISO/IEC 14496-15 §5.4.2 `avc1` with `avcC` (§5.3.3.1), §8.4.1 `hvc1` with `hvcC` (§8.3.3.1).
    static func writeVisualSampleEntry(into buffer: inout ByteBuffer, _ format: VideoFormat) {
        let entryType = format.codec == .h264 ? FourCC("avc1") : FourCC("hvc1")
        let configType = format.codec == .h264 ? FourCC("avcC") : FourCC("hvcC")
        buffer.writeBox(entryType) { entry in
            writeSampleEntryHeader(into: &entry)
            entry.writeInteger(UInt16(0))            // pre_defined
            entry.writeInteger(UInt16(0))            // reserved
            entry.writeZeros(4 * 3)                  // pre_defined
            entry.writeInteger(UInt16(clamping: format.width))
            entry.writeInteger(UInt16(clamping: format.height))
            entry.writeInteger(UInt32(0x0048_0000))  // horizresolution 72 dpi
            entry.writeInteger(UInt32(0x0048_0000))  // vertresolution 72 dpi
            entry.writeInteger(UInt32(0))            // reserved
            entry.writeInteger(UInt16(1))            // frame_count
            entry.writeZeros(32)                     // compressorname: empty Pascal string
            entry.writeInteger(UInt16(0x0018))       // depth: colour, no alpha
            entry.writeInteger(Int16(-1))            // pre_defined
            entry.writeBox(configType) { $0.writeBytes(format.decoderConfigurationRecord) }
        }
    }

    /// ISO/IEC 14496-14 §5.6.1 MP4AudioSampleEntry `mp4a` (an ISO/IEC 14496-12 §12.2.3 AudioSampleEntry)
    /// with its `esds`.
    static func writeAudioSampleEntry(into buffer: inout ByteBuffer, _ format: AudioFormat) {
        let configuredChannels = format.config?.channelConfiguration ?? 0
        let channels = format.channels > 0 ? format.channels : (configuredChannels > 0 ? configuredChannels : 2)
        buffer.writeBox(FourCC("mp4a")) { entry in
            writeSampleEntryHeader(into: &entry)
            entry.writeZeros(4 * 2)                  // reserved
            entry.writeInteger(UInt16(clamping: channels))  // channelcount
            entry.writeInteger(UInt16(16))           // samplesize
            entry.writeInteger(UInt16(0))            // pre_defined
            entry.writeInteger(UInt16(0))            // reserved
            // samplerate is 16.16 fixed point; rates above 65535 Hz do not fit and are written as 0
            // (decoders take the rate from the AudioSpecificConfig).
            let rate = format.sampleRate <= 0xFFFF ? UInt32(format.sampleRate) << 16 : 0
            entry.writeInteger(rate)
            writeElementaryStreamDescriptor(into: &entry, format)
        }
    }

    /// ISO/IEC 14496-12 §8.5.2.2 SampleEntry: reserved u(8)[6], data_reference_index u(16) = 1.
    static func writeSampleEntryHeader(into buffer: inout ByteBuffer) {
        buffer.writeZeros(6)
        buffer.writeInteger(UInt16(1))
    }

    /// ISO/IEC 14496-14 §5.6.1 ESDBox `esds` holding an ISO/IEC 14496-1 §7.2.6.5 ES_Descriptor.
    static func writeElementaryStreamDescriptor(into buffer: inout ByteBuffer, _ format: AudioFormat) {
        buffer.writeFullBox(FourCC("esds"), version: 0, flags: 0) { box in
            box.writeBytes(elementaryStreamDescriptor(format))
        }
    }

    /// ISO/IEC 14496-1 §7.2.6.5 ES_Descriptor (tag 0x03) for AAC:
    /// ```
    /// ES_ID u(16) = 0 (ISO/IEC 14496-14 §3.1.2: set to 0 when stored in a file)
    /// streamDependenceFlag u(1) = 0, URL_Flag u(1) = 0, OCRstreamFlag u(1) = 0, streamPriority u(5) = 0
    /// DecoderConfigDescriptor (tag 0x04, §7.2.6.6):
    ///   objectTypeIndication u(8) = 0x40 (Audio ISO/IEC 14496-3)
    ///   streamType u(6) = 0x05 (AudioStream), upStream u(1) = 0, reserved u(1) = 1
    ///   bufferSizeDB u(24), maxBitrate u(32), avgBitrate u(32)
    ///   DecoderSpecificInfo (tag 0x05, §7.2.6.7) = the AudioSpecificConfig (ISO/IEC 14496-3 §1.6.2.1)
    /// SLConfigDescriptor (tag 0x06, §7.3.2.3.1): predefined = 2 (reserved for use in MP4 files)
    /// ```
    static func elementaryStreamDescriptor(_ format: AudioFormat) -> [UInt8] {
        let config = format.config?.bytes ?? []
        let channels = max(1, format.channels)
        // 6144 bits per channel is the largest raw_data_block an AAC decoder must buffer (ISO/IEC 14496-3
        // §4.5.3.2), the usual bufferSizeDB.
        let bufferSize = UInt32(clamping: 6144 / 8 * channels)
        var decoderConfig: [UInt8] = [0x40, (0x05 << 2) | 0x01]
        decoderConfig += [UInt8(truncatingIfNeeded: bufferSize >> 16), UInt8(truncatingIfNeeded: bufferSize >> 8),
                          UInt8(truncatingIfNeeded: bufferSize)]
        decoderConfig += [0, 0, 0, 0]                 // maxBitrate: unknown
        decoderConfig += [0, 0, 0, 0]                 // avgBitrate: unknown (variable)
        decoderConfig += descriptor(tag: 0x05, config)
        var es: [UInt8] = [0, 0, 0]                   // ES_ID, flags and streamPriority
        es += descriptor(tag: 0x04, decoderConfig)
        es += descriptor(tag: 0x06, [0x02])
        return descriptor(tag: 0x03, es)
    }

    /// ISO/IEC 14496-1 §8.3.3 expandable class size: a tag byte, then the payload length in 7-bit groups,
    /// most significant first, each byte but the last with its top bit set.
    static func descriptor(tag: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var sizeBytes: [UInt8] = [UInt8(payload.count & 0x7F)]
        var rest = payload.count >> 7
        while rest > 0 {
            sizeBytes.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        return [tag] + sizeBytes + payload
    }
}
