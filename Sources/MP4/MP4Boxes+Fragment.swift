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

    typealias Run = (trackID: UInt32, baseMediaDecodeTime: UInt64, samples: [MP4Sample])

    static func writeFragment(sequenceNumber: UInt32, runs: [Run], prefix: FragmentPrefix? = nil) -> ByteBuffer {
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
        let room = prefix?.maxBytes ?? 0
        var buffer = ByteBufferAllocator().buffer(capacity: room + 80 + 80 * sortedRuns.count + 16 * sampleCount + payloadSize)
        buffer.moveWriterIndex(to: room)
        buffer.moveReaderIndex(to: room)
        writeFragmentHeader(into: &buffer, sequenceNumber: sequenceNumber, runs: sortedRuns, payloadSize: payloadSize)
        for run in sortedRuns {
            for sample in run.samples { buffer.writeImmutableBuffer(sample.data) }
        }
        prefix?.apply(to: &buffer)
        return buffer
    }

    /// The fragment of one video sample written around the sample's bytes where they are: its header goes
    /// into the free room in front of them (``SampleFrontRoom``), so the picture is not copied. nil when the
    /// sample has no such room, the room is too small, or another muxer claimed it first: then
    /// ``writeFragment(sequenceNumber:runs:prefix:)`` copies, as it always did.
    static func writeFragmentInPlace(sequenceNumber: UInt32, run: Run, prefix: FragmentPrefix?) -> ByteBuffer? {
        guard run.samples.count == 1, let room = run.samples[0].frontRoom else { return nil }
        var data = run.samples[0].data
        // The room is the bytes before the sample's own start, nothing the sample's other readers look at.
        guard data.readerIndex == room.bytes else { return nil }
        let prefixRoom = prefix?.maxBytes ?? 0
        var header = ByteBufferAllocator().buffer(capacity: prefixRoom + 160)
        header.moveWriterIndex(to: prefixRoom)
        header.moveReaderIndex(to: prefixRoom)
        writeFragmentHeader(into: &header, sequenceNumber: sequenceNumber, runs: [run], payloadSize: data.readableBytes)
        prefix?.apply(to: &header, fragmentLength: header.readableBytes + data.readableBytes)
        guard header.readableBytes <= room.bytes, room.claim() else { return nil }
        data.prependIntoClaimedFrontRoom(header)
        return data
    }

    /// moof, then the mdat's header, for `runs` (sorted, none empty) whose samples' bytes follow.
    private static func writeFragmentHeader(into buffer: inout ByteBuffer, sequenceNumber: UInt32, runs: [Run], payloadSize: Int) {
        // A payload that does not fit a 32-bit box size takes the 64-bit largesize form (§4.2).
        let mdatHeaderSize = payloadSize + 8 > Int(UInt32.max) ? 16 : 8
        let moofStart = buffer.writerIndex
        // Where each run's data_offset field is, and where its samples start within the mdat payload.
        var dataOffsetFields: [(position: Int, payloadOffset: Int)] = []
        buffer.writeBox(FourCC("moof")) { moof in
            // §8.8.5 MovieFragmentHeaderBox
            moof.writeFullBox(FourCC("mfhd"), version: 0, flags: 0) { $0.writeInteger(sequenceNumber) }
            var payloadOffset = 0
            for run in runs {
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
    }

    /// ISO/IEC 14496-12 §8.8.6 TrackFragmentBox for one run. Returns the writer position of the trun's
    /// data_offset field, to be patched once the moof's size is known.
    static func writeTrackFragment(into buffer: inout ByteBuffer, _ run: Run) -> Int {
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

extension ByteBuffer {
    /// Puts `header` just in front of the reader index and moves the reader index back over it, without the
    /// copy-on-write a shared storage would take: only for room claimed through ``SampleFrontRoom``, which no
    /// other value sharing this storage reads or writes (their bytes all lie after it).
    fileprivate mutating func prependIntoClaimedFrontRoom(_ header: ByteBuffer) {
        let count = header.readableBytes
        precondition(count <= readerIndex, "the header (\(count) bytes) does not fit the front room (\(readerIndex))")
        let start = readerIndex - count
        withVeryUnsafeBytes { storage in
            let target = UnsafeMutableRawPointer(mutating: storage.baseAddress!) + start
            header.withUnsafeReadableBytes { target.copyMemory(from: $0.baseAddress!, byteCount: count) }
        }
        moveReaderIndex(to: start)
    }
}
