import NIOCore

/// Movie fragments (ISO/IEC 14496-12 §8.8.4–§8.8.12, §8.1.1): one `moof` followed by the `mdat` that holds
/// its samples, as Media Source Extensions' ISO BMFF byte stream format expects ("media segment").
extension MP4Boxes {
    /// ISO/IEC 14496-12 §8.8.7.1 tfhd flag: base data offset is the start of the enclosing moof.
    static let defaultBaseIsMoof: UInt32 = 0x02_0000
    /// ISO/IEC 14496-12 §8.8.8.1 trun flags.
    static let dataOffsetPresent: UInt32 = 0x00_0001
    static let sampleDurationPresent: UInt32 = 0x00_0100
    static let sampleSizePresent: UInt32 = 0x00_0200
    static let sampleFlagsPresent: UInt32 = 0x00_0400
    static let sampleCompositionTimeOffsetsPresent: UInt32 = 0x00_0800

    static func writeFragment(
        sequenceNumber: UInt32, runs: [(trackID: UInt32, baseMediaDecodeTime: UInt64, samples: [MP4Sample])],
        headroom: Int = 0
    ) -> ByteBuffer {
        let sortedRuns = runs.enumerated()
            .sorted { ($0.element.trackID, $0.offset) < ($1.element.trackID, $1.offset) }
            .map(\.element)
            .filter { !$0.samples.isEmpty }
        var payloadSize = 0
        var sampleCount = 0
        for run in sortedRuns {
            sampleCount += run.samples.count
            for sample in run.samples { payloadSize += sample.data.readableBytes }
        }
        // A payload that does not fit a 32-bit box size takes the 64-bit largesize form (§4.2).
        let mdatHeaderSize = payloadSize + 8 > Int(UInt32.max) ? 16 : 8
        var buffer = ByteBufferAllocator().buffer(capacity: headroom + 64 + 80 * sortedRuns.count + 16 * sampleCount + payloadSize + mdatHeaderSize)
        if headroom > 0 {
            buffer.moveWriterIndex(to: headroom)
            buffer.moveReaderIndex(to: headroom)
        }

        let moofStart = buffer.writerIndex
        // Where each run's data_offset field is, and where its samples start within the mdat payload.
        var dataOffsetFields: [(position: Int, payloadOffset: Int)] = []
        buffer.writeBox(FourCC("moof")) { moof in
            // §8.8.5 MovieFragmentHeaderBox
            moof.writeFullBox(FourCC("mfhd"), version: 0, flags: 0) { $0.writeInteger(sequenceNumber) }
            var payloadOffset = 0
            for run in sortedRuns {
                let field = writeTrackFragment(into: &moof, run)
                dataOffsetFields.append((field, payloadOffset))
                for sample in run.samples { payloadOffset += sample.data.readableBytes }
            }
        }
        let moofSize = buffer.writerIndex - moofStart
        for field in dataOffsetFields {
            // Relative to the first byte of the moof (default-base-is-moof).
            let offset = moofSize + mdatHeaderSize + field.payloadOffset
            buffer.setInteger(Int32(truncatingIfNeeded: offset), at: field.position)
        }

        // §8.1.1 MediaDataBox
        if mdatHeaderSize == 16 {
            buffer.writeInteger(UInt32(1))
            buffer.writeInteger(FourCC("mdat").rawValue)
            buffer.writeInteger(UInt64(payloadSize + 16))
        } else {
            buffer.writeInteger(UInt32(payloadSize + 8))
            buffer.writeInteger(FourCC("mdat").rawValue)
        }
        for run in sortedRuns {
            for sample in run.samples { buffer.writeImmutableBuffer(sample.data) }
        }
        return buffer
    }

    /// ISO/IEC 14496-12 §8.8.6 TrackFragmentBox for one run. Returns the writer position of the trun's
    /// data_offset field, to be patched once the moof's size is known.
    static func writeTrackFragment(
        into buffer: inout ByteBuffer, _ run: (trackID: UInt32, baseMediaDecodeTime: UInt64, samples: [MP4Sample])
    ) -> Int {
        var dataOffsetPosition = 0
        buffer.writeBox(FourCC("traf")) { traf in
            // §8.8.7 TrackFragmentHeaderBox: only default-base-is-moof; every sample carries its own values.
            traf.writeFullBox(FourCC("tfhd"), version: 0, flags: defaultBaseIsMoof) { $0.writeInteger(run.trackID) }
            // §8.8.12 TrackFragmentBaseMediaDecodeTimeBox, version 1 (64-bit).
            traf.writeFullBox(FourCC("tfdt"), version: 1, flags: 0) { $0.writeInteger(run.baseMediaDecodeTime) }
            // §8.8.8 TrackRunBox. Version 1 makes the composition offsets signed; it is used only when one
            // is negative. The offsets are left out when all are 0.
            let hasOffsets = run.samples.contains { $0.compositionTimeOffset != 0 }
            let hasNegative = run.samples.contains { $0.compositionTimeOffset < 0 }
            var flags = dataOffsetPresent | sampleDurationPresent | sampleSizePresent | sampleFlagsPresent
            if hasOffsets { flags |= sampleCompositionTimeOffsetsPresent }
            traf.writeFullBox(FourCC("trun"), version: hasNegative ? 1 : 0, flags: flags) { trun in
                trun.writeInteger(UInt32(run.samples.count))   // sample_count
                dataOffsetPosition = trun.writerIndex
                trun.writeInteger(Int32(0))                     // data_offset, patched by the caller
                for sample in run.samples {
                    trun.writeInteger(sample.duration)
                    trun.writeInteger(UInt32(truncatingIfNeeded: sample.data.readableBytes))
                    trun.writeInteger(sample.sampleFlags)
                    if hasOffsets { trun.writeInteger(sample.compositionTimeOffset) }
                }
            }
        }
        return dataOffsetPosition
    }
}
