import NIOCore

/// One movie fragment (`moof` + `mdat`, ISO/IEC 14496-12 §8.8.4–§8.8.8) read back into its runs and samples,
/// so that it can be written again with ``MP4Boxes/fragment(sequenceNumber:runs:)`` under a new sequence
/// number and new decode times (export), or with fewer samples (an export ending mid-fragment). Pure.
///
/// Reads what common writers put in a `traf`: `tfhd` with or without base_data_offset and defaults, `tfdt`
/// version 0 or 1, any number of `trun`s with any optional fields.
public struct FragmentReader: Sendable {
    public struct Run: Sendable {
        public var trackID: UInt32
        public var baseMediaDecodeTime: UInt64
        public var samples: [MP4Sample]
    }

    public var sequenceNumber: UInt32
    public var runs: [Run]

    /// `bytes`: exactly one moof followed by its mdat (sample data is referenced, not copied).
    public init(_ bytes: ByteBuffer) throws(MP4Error) {
        let start = bytes.readerIndex
        let end = bytes.writerIndex
        guard let moof = FragmentedMP4Layout.boxHeader(bytes, at: start, limit: end), moof.type == "moof" else {
            throw MP4Error("a fragment starts with a moof box")
        }
        var sequenceNumber: UInt32 = 0
        var runs: [Run] = []
        for child in try FragmentedMP4Layout.children(bytes, from: start + moof.headerSize, to: start + moof.size) {
            if child.type == "mfhd" {
                sequenceNumber = bytes.getInteger(at: child.start + 12, as: UInt32.self) ?? 0
            } else if child.type == "traf" {
                runs += try Self.parseTrackFragment(bytes, child.start, child.size, moofStart: start, end: end)
            }
        }
        self.sequenceNumber = sequenceNumber
        self.runs = runs
    }

    private static func parseTrackFragment(_ bytes: ByteBuffer, _ trafStart: Int, _ trafSize: Int, moofStart: Int, end: Int) throws(MP4Error) -> [Run] {
        var trackID: UInt32 = 0
        var baseDataOffset = moofStart
        var defaultDuration: UInt32 = 0, defaultSize: UInt32 = 0, defaultFlags: UInt32 = 0
        var decodeTime: UInt64 = 0
        var runs: [Run] = []
        // The next run's data starts where the previous one ended, unless it gives a data_offset.
        var nextData: Int?
        for box in try FragmentedMP4Layout.children(bytes, from: trafStart + 8, to: trafStart + trafSize) {
            var index = box.start + 8
            guard let versionFlags = bytes.getInteger(at: index, as: UInt32.self) else { throw MP4Error("a traf box is cut short") }
            let version = versionFlags >> 24
            let flags = versionFlags & 0xFF_FFFF
            index += 4
            func read32() throws(MP4Error) -> UInt32 {
                guard index + 4 <= box.start + box.size, let value = bytes.getInteger(at: index, as: UInt32.self) else {
                    throw MP4Error("a \(box.type) box is shorter than its flags say")
                }
                index += 4
                return value
            }
            switch box.type {
            case "tfhd":  // §8.8.7
                trackID = try read32()
                if flags & 0x01 != 0 {
                    let high = UInt64(try read32()), low = UInt64(try read32())
                    baseDataOffset = moofStart + Int(truncatingIfNeeded: (high << 32) | low)
                }
                if flags & 0x02 != 0 { _ = try read32() }  // sample_description_index
                if flags & 0x08 != 0 { defaultDuration = try read32() }
                if flags & 0x10 != 0 { defaultSize = try read32() }
                if flags & 0x20 != 0 { defaultFlags = try read32() }
            case "tfdt":  // §8.8.12
                if version == 1 {
                    let high = UInt64(try read32()), low = UInt64(try read32())
                    decodeTime = (high << 32) | low
                } else {
                    decodeTime = UInt64(try read32())
                }
            case "trun":  // §8.8.8
                let count = Int(try read32())
                var dataPosition = nextData ?? baseDataOffset
                if flags & 0x01 != 0 { dataPosition = baseDataOffset + Int(Int32(bitPattern: try read32())) }
                var firstFlags: UInt32?
                if flags & 0x04 != 0 { firstFlags = try read32() }
                var samples: [MP4Sample] = []
                samples.reserveCapacity(count)
                var runTime = decodeTime
                for number in 0..<count {
                    let duration = flags & 0x100 != 0 ? try read32() : defaultDuration
                    let size = flags & 0x200 != 0 ? try read32() : defaultSize
                    var sampleFlags = flags & 0x400 != 0 ? try read32() : defaultFlags
                    if number == 0, let firstFlags { sampleFlags = firstFlags }
                    let offset = flags & 0x800 != 0 ? Int32(bitPattern: try read32()) : 0
                    guard dataPosition >= moofStart, dataPosition + Int(size) <= end,
                          let data = bytes.getSlice(at: dataPosition, length: Int(size)) else {
                        throw MP4Error("a sample of track \(trackID) lies outside its fragment")
                    }
                    dataPosition += Int(size)
                    runTime += UInt64(duration)
                    // §8.8.3.1: sample_is_non_sync_sample is bit 16.
                    samples.append(MP4Sample(data: data, duration: duration, compositionTimeOffset: offset,
                                             isSync: sampleFlags & 0x0001_0000 == 0))
                }
                nextData = dataPosition
                runs.append(Run(trackID: trackID, baseMediaDecodeTime: decodeTime, samples: samples))
                decodeTime = runTime
            default:
                break
            }
        }
        return runs
    }
}
