import AAC
import H26x
@testable import MP4
import NIOCore
import Testing

/// Every full box the writers produce, with the version and flags it must have.
private let expectedFullBoxes: [String: (version: UInt8, flags: UInt32)] = [
    "mvhd": (0, 0), "tkhd": (0, 3), "mdhd": (0, 0), "hdlr": (0, 0), "vmhd": (0, 1), "smhd": (0, 0),
    "dref": (0, 0), "url ": (0, 1), "stsd": (0, 0), "stts": (0, 0), "stsc": (0, 0), "stsz": (0, 0),
    "stco": (0, 0), "trex": (0, 0), "esds": (0, 0), "mfhd": (0, 0), "tfhd": (0, 0x02_0000), "tfdt": (1, 0),
]

@Suite("Initialization segment")
struct InitializationSegmentTests {
    @Test("ftyp + moov, sizes add up, every full box has its version and flags")
    func structure() throws {
        let format = try TestFormats.h264()
        let video = try MP4Track(trackID: 1, media: .video(format))
        let audio = try MP4Track(trackID: 2, media: .audio(TestFormats.aac()))
        let bytes = MP4Boxes.initializationSegment(tracks: [audio, video]).bytes
        let boxes = try Box.parse(bytes)
        #expect(boxes.map(\.type) == ["ftyp", "moov"])
        #expect(boxes.reduce(0) { $0 + $1.size } == bytes.count)
        let moov = boxes[1]
        #expect(moov.children.map(\.type) == ["mvhd", "trak", "trak", "mvex"])
        var seen = Set<String>()
        for box in moov.all {
            guard let expected = expectedFullBoxes[box.type] else { continue }
            seen.insert(box.type)
            #expect(box.version == expected.version, "\(box.type) version")
            #expect(box.flags == expected.flags, "\(box.type) flags")
        }
        #expect(seen.count == 15, "full boxes seen: \(seen.sorted())")
        // Tracks in trackID order, whatever order they were given in.
        let ids = try moov.children("trak").map { trak -> UInt32 in
            var reader = try #require(trak.child("tkhd")).fields()
            reader.skip(8)
            return reader.u32()
        }
        #expect(ids == [1, 2])
    }

    @Test("ftyp brands: iso5 major, iso6, mp41, and avc1 or hvc1")
    func brands() throws {
        for (codec, brand) in [(VideoCodec.h264, "avc1"), (.h265, "hvc1")] {
            var format = try TestFormats.h264()
            format.codec = codec
            let bytes = MP4Boxes.initializationSegment(tracks: [try MP4Track(trackID: 1, media: .video(format))]).bytes
            let ftyp = try #require(try Box.parse(bytes).first)
            var reader = ftyp.fields(fullBox: false)
            #expect(reader.fourCC() == "iso5")
            _ = reader.u32()
            var compatible: [String] = []
            while reader.remaining > 0 { compatible.append(reader.fourCC()) }
            #expect(compatible == ["iso5", "iso6", "mp41", brand])
        }
    }

    @Test("mvhd and tkhd: durations 0, unity matrix, 16.16 size, enabled|in_movie, audio volume 1.0")
    func headers() throws {
        let format = try TestFormats.h264()
        let tracks = [try MP4Track(trackID: 1, media: .video(format)), try MP4Track(trackID: 2, media: .audio(TestFormats.aac()))]
        let moov = try #require(try Box.parse(MP4Boxes.initializationSegment(tracks: tracks)).last)
        var mvhd = try #require(moov.child("mvhd")).fields()
        mvhd.skip(8)
        #expect(mvhd.u32() == 1000)              // timescale
        #expect(mvhd.u32() == 0)                 // duration
        #expect(mvhd.u32() == 0x0001_0000)       // rate
        #expect(mvhd.u16() == 0x0100)            // volume
        mvhd.skip(10)
        #expect((0..<9).map { _ in mvhd.u32() } == [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x4000_0000])
        mvhd.skip(24)
        #expect(mvhd.u32() == 3)                 // next_track_ID

        let traks = moov.children("trak")
        for (index, trak) in traks.enumerated() {
            let tkhd = try #require(trak.child("tkhd"))
            #expect(tkhd.flags == 0x3)
            var reader = tkhd.fields()
            reader.skip(8)
            #expect(reader.u32() == UInt32(index + 1))
            reader.skip(4)
            #expect(reader.u32() == 0)           // duration
            reader.skip(8 + 4)
            #expect(reader.u16() == (index == 0 ? 0 : 0x0100))   // volume
            reader.skip(2)
            #expect((0..<9).map { _ in reader.u32() } == [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x4000_0000])
            #expect(reader.u32() == (index == 0 ? 320 << 16 : 0))
            #expect(reader.u32() == (index == 0 ? 240 << 16 : 0))
            #expect(reader.remaining == 0)
        }
    }

    @Test("mdhd timescale and language \"und\", hdlr types, empty sample tables, trex per track")
    func mediaBoxes() throws {
        let tracks = [try MP4Track(trackID: 1, media: .video(TestFormats.h264())),
                      try MP4Track(trackID: 2, media: .audio(TestFormats.aac(rate: 44100, channels: 1)))]
        let moov = try #require(try Box.parse(MP4Boxes.initializationSegment(tracks: tracks)).last)
        let traks = moov.children("trak")
        for (trak, (scale, handler)) in zip(traks, [(UInt32(90000), "vide"), (44100, "soun")]) {
            var mdhd = try #require(trak.find("mdhd")).fields()
            mdhd.skip(8)
            #expect(mdhd.u32() == scale)
            #expect(mdhd.u32() == 0)
            let language = mdhd.u16()
            let letters = [(language >> 10) & 0x1F, (language >> 5) & 0x1F, language & 0x1F].map { Character(UnicodeScalar(UInt8($0) + 0x60)) }
            #expect(String(letters) == "und")
            #expect(language == 0x55C4)
            var hdlr = try #require(trak.find("hdlr")).fields()
            hdlr.skip(4)
            #expect(hdlr.fourCC() == handler)
            for table in ["stts", "stsc", "stco"] {
                var reader = try #require(trak.find(table)).fields()
                #expect(reader.u32() == 0, "\(table) entry_count")
            }
            var stsz = try #require(trak.find("stsz")).fields()
            #expect(stsz.u32() == 0 && stsz.u32() == 0)
            let dref = try #require(trak.find("dref"))
            #expect(dref.children.map(\.type) == ["url "])
        }
        #expect(traks[0].find("vmhd") != nil && traks[0].find("smhd") == nil)
        #expect(traks[1].find("smhd") != nil && traks[1].find("vmhd") == nil)
        let trex = try #require(moov.child("mvex")).children("trex")
        #expect(trex.count == 2)
        for (index, box) in trex.enumerated() {
            var reader = box.fields()
            #expect(reader.u32() == UInt32(index + 1))
            #expect(reader.u32() == 1)
            #expect(reader.remaining == 12)
        }
    }

    @Test("avc1 sample entry carries the avcC record, width and height")
    func avcC() throws {
        let format = try TestFormats.h264()
        let moov = try #require(try Box.parse(MP4Boxes.initializationSegment(tracks: [try MP4Track(trackID: 1, media: .video(format))])).last)
        let avc1 = try #require(moov.find("avc1"))
        var reader = avc1.fields(fullBox: false)
        reader.skip(6)
        #expect(reader.u16() == 1)               // data_reference_index
        reader.skip(16)
        #expect(reader.u16() == 320)
        #expect(reader.u16() == 240)
        #expect(reader.u32() == 0x0048_0000)
        #expect(reader.u32() == 0x0048_0000)
        reader.skip(4)
        #expect(reader.u16() == 1)               // frame_count
        reader.skip(32)
        #expect(reader.u16() == 0x18)
        #expect(reader.i16() == -1)
        let avcC = try #require(avc1.child("avcC"))
        #expect(avcC.payload == format.decoderConfigurationRecord)
        #expect(avcC.payload[0] == 1 && avcC.payload[4] & 3 == 3)   // version 1, 4-byte lengths
    }

    @Test("hvc1 sample entry carries the hvcC record")
    func hvcC() throws {
        let stream = try VideoStream.fixture("h265_main.h265", codec: .h265)
        let moov = try #require(try Box.parse(MP4Boxes.initializationSegment(tracks: [try MP4Track(trackID: 1, media: .video(stream.format))])).last)
        let hvc1 = try #require(moov.find("hvc1"))
        #expect(try #require(hvc1.child("hvcC")).payload == stream.format.decoderConfigurationRecord)
        #expect(moov.find("avc1") == nil)
    }

    @Test("mp4a + esds: ES_Descriptor, objectTypeIndication 0x40, audio stream, AudioSpecificConfig, SL predefined 2")
    func esds() throws {
        let format = try TestFormats.aac(rate: 16000, channels: 1)
        let moov = try #require(try Box.parse(MP4Boxes.initializationSegment(tracks: [try MP4Track(trackID: 2, media: .audio(format))])).last)
        let mp4a = try #require(moov.find("mp4a"))
        var entry = mp4a.fields(fullBox: false)
        entry.skip(6)
        #expect(entry.u16() == 1)
        entry.skip(8)
        #expect(entry.u16() == 1)                // channelcount
        #expect(entry.u16() == 16)               // samplesize
        entry.skip(4)
        #expect(entry.u32() == 16000 << 16)      // samplerate 16.16
        #expect(mp4a.children.map(\.type) == ["esds"])

        var reader = try #require(mp4a.child("esds")).fields()
        #expect(reader.u8() == 0x03)
        let esSize = reader.descriptorSize()
        #expect(esSize == reader.remaining)
        #expect(reader.u16() == 0)               // ES_ID
        #expect(reader.u8() == 0)                // no dependence, URL or OCR
        #expect(reader.u8() == 0x04)
        let decoderConfigEnd = reader.descriptorSize() + reader.index
        #expect(reader.u8() == 0x40)             // Audio ISO/IEC 14496-3
        let streamByte = reader.u8()
        #expect(streamByte >> 2 == 0x05 && streamByte & 0x2 == 0 && streamByte & 1 == 1)
        #expect(reader.u24() == 768)             // bufferSizeDB: 6144 bits, 1 channel
        reader.skip(8)
        #expect(reader.u8() == 0x05)
        let ascSize = reader.descriptorSize()
        #expect(reader.take(ascSize) == format.config?.bytes)
        #expect(reader.index == decoderConfigEnd)
        #expect(reader.u8() == 0x06)
        #expect(reader.descriptorSize() == 1)
        #expect(reader.u8() == 0x02)
        #expect(reader.remaining == 0)
    }

    @Test("descriptor sizes above 127 take the expandable form")
    func descriptorSizes() {
        #expect(MP4Boxes.descriptor(tag: 5, [1, 2]) == [5, 2, 1, 2])
        let long = MP4Boxes.descriptor(tag: 5, [UInt8](repeating: 7, count: 200))
        #expect(Array(long.prefix(3)) == [5, 0x81, 0x48])
        #expect(long.count == 203)
        var reader = FieldReader(long, at: 1)
        #expect(reader.descriptorSize() == 200)
    }
}

@Suite("Codec strings and tracks")
struct TrackTests {
    @Test("MIME types with RFC 6381 codecs, in track order")
    func mimeTypes() throws {
        let h264 = try TestFormats.h264()
        let h265 = try VideoStream.fixture("h265_main.h265", codec: .h265).format
        let video = try MP4Track(trackID: 1, media: .video(h264))
        let audio = try MP4Track(trackID: 2, media: .audio(TestFormats.aac()))
        #expect(MP4Boxes.mimeType(tracks: [audio, video]) == "video/mp4; codecs=\"\(h264.codecString),mp4a.40.2\"")
        #expect(h264.codecString == "avc1.4d400d")
        #expect(MP4Boxes.mimeType(tracks: [video]) == "video/mp4; codecs=\"avc1.4d400d\"")
        #expect(MP4Boxes.mimeType(tracks: [audio]) == "audio/mp4; codecs=\"mp4a.40.2\"")
        let hevc = try MP4Track(trackID: 1, media: .video(h265))
        #expect(MP4Boxes.mimeType(tracks: [hevc]).hasPrefix("video/mp4; codecs=\"hvc1.1.6.L"))
    }

    @Test("default timescales: 90000 for video, the sample rate for audio")
    func timescales() throws {
        #expect(try MP4Track(trackID: 1, media: .video(TestFormats.h264())).timescale == 90000)
        #expect(try MP4Track(trackID: 2, media: .audio(TestFormats.aac(rate: 44100))).timescale == 44100)
        #expect(try MP4Track(trackID: 2, media: .audio(TestFormats.aac()), timescale: 1000).timescale == 1000)
    }

    @Test("refuses what it cannot write, saying why")
    func refusals() throws {
        let pcmu = AudioFormat(codec: .pcmu, sampleRate: 8000, channels: 1, config: nil)
        #expect(throws: MP4Error.self) { try MP4Track(trackID: 2, media: .audio(pcmu)) }
        do {
            _ = try MP4Track(trackID: 2, media: .audio(pcmu))
        } catch {
            #expect(error.description.contains("only AAC"))
        }
        let noConfig = AudioFormat(codec: .aac, sampleRate: 48000, channels: 2, config: nil)
        #expect(throws: MP4Error.self) { try MP4Track(trackID: 2, media: .audio(noConfig)) }
        var empty = try TestFormats.h264()
        empty.decoderConfigurationRecord = []
        #expect(throws: MP4Error.self) { try MP4Track(trackID: 1, media: .video(empty)) }
        #expect(throws: MP4Error.self) { try MP4Track(trackID: 0, media: .video(TestFormats.h264())) }
        #expect(throws: MP4Error.self) { try MP4Track(trackID: 1, media: .video(TestFormats.h264()), timescale: 0) }
        #expect(throws: MP4Error.self) { try FragmentedMP4Muxer(video: TestFormats.h264(), audio: pcmu, policy: .everyFrame) }
    }
}

@Suite("Fragments")
struct FragmentTests {
    private func sample(_ bytes: [UInt8], duration: UInt32 = 3600, offset: Int32 = 0, sync: Bool = false) -> MP4Sample {
        MP4Sample(data: ByteBuffer(bytes: bytes), duration: duration, compositionTimeOffset: offset, isSync: sync)
    }

    @Test("moof + mdat: runs in trackID order, data_offset points at each run's first byte in mdat")
    func layout() throws {
        let audioSamples = [sample([0xA1, 0xA2, 0xA3], duration: 1024, sync: true), sample([0xA4], duration: 1024, sync: true)]
        let videoSamples = [sample([1, 2, 3, 4, 5], sync: true), sample([6, 7], offset: 7200), sample([8, 9, 10])]
        let bytes = MP4Boxes.fragment(sequenceNumber: 7, runs: [
            (trackID: 2, baseMediaDecodeTime: 48000, samples: audioSamples),
            (trackID: 3, baseMediaDecodeTime: 0, samples: []),
            (trackID: 1, baseMediaDecodeTime: 1 << 33, samples: videoSamples),
        ]).bytes
        let boxes = try Box.parse(bytes)
        #expect(boxes.map(\.type) == ["moof", "mdat"])
        #expect(boxes[0].size + boxes[1].size == bytes.count)
        let moof = boxes[0]
        #expect(moof.children.map(\.type) == ["mfhd", "traf", "traf"])
        var mfhd = try #require(moof.child("mfhd")).fields()
        #expect(mfhd.u32() == 7)
        let runs = try moof.children("traf").map(ParsedTrackFragment.init)
        #expect(runs.map(\.trackID) == [1, 2])
        #expect(runs[0].baseMediaDecodeTime == 1 << 33)
        #expect(runs[1].baseMediaDecodeTime == 48000)
        for (run, samples) in zip(runs, [videoSamples, audioSamples]) {
            #expect(run.tfhdFlags == 0x02_0000)
            #expect(run.tfdtVersion == 1)
            let start = moof.offset + Int(run.dataOffset)
            var position = start
            for (parsed, original) in zip(run.samples, samples) {
                #expect(Int(parsed.size) == original.data.readableBytes)
                #expect(Array(bytes[position..<(position + Int(parsed.size))]) == original.data.bytes)
                #expect(parsed.duration == original.duration)
                #expect(parsed.compositionOffset == original.compositionTimeOffset)
                position += Int(parsed.size)
            }
        }
        #expect(moof.offset + Int(runs[0].dataOffset) == boxes[1].offset + 8)
        #expect(Array(bytes[(boxes[1].offset + 8)...]) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0xA1, 0xA2, 0xA3, 0xA4])
        // Video has composition offsets; audio has none, so its trun leaves them out.
        #expect(runs[0].trunFlags == 0x000F01 && runs[0].trunVersion == 0)
        #expect(runs[1].trunFlags == 0x000701 && runs[1].trunVersion == 0)
    }

    @Test("sample flags: sync depends_on=2; non-sync depends_on=1 | is_non_sync")
    func sampleFlags() throws {
        let bytes = MP4Boxes.fragment(sequenceNumber: 1, runs: [
            (trackID: 1, baseMediaDecodeTime: 0, samples: [sample([1], sync: true), sample([2]), sample([3], sync: true)]),
        ])
        let moof = try #require(try Box.parse(bytes).first)
        let run = try ParsedTrackFragment(try #require(moof.child("traf")))
        #expect(run.samples.map(\.flags) == [0x0200_0000, 0x0101_0000, 0x0200_0000])
        #expect(SampleFlags.sync == 0x0200_0000 && SampleFlags.nonSync == 0x0101_0000)
    }

    @Test("a negative composition offset makes the trun version 1 (signed)")
    func negativeOffsets() throws {
        let bytes = MP4Boxes.fragment(sequenceNumber: 1, runs: [
            (trackID: 1, baseMediaDecodeTime: 0, samples: [sample([1], offset: 3600, sync: true), sample([2], offset: -3600)]),
        ])
        let moof = try #require(try Box.parse(bytes).first)
        let run = try ParsedTrackFragment(try #require(moof.child("traf")))
        #expect(run.trunVersion == 1)
        #expect(run.samples.map(\.compositionOffset) == [3600, -3600])
    }

    @Test("a fragment with no samples is an empty moof and mdat")
    func empty() throws {
        let boxes = try Box.parse(MP4Boxes.fragment(sequenceNumber: 1, runs: []))
        #expect(boxes.map(\.type) == ["moof", "mdat"])
        #expect(boxes[0].children.map(\.type) == ["mfhd"])
        #expect(boxes[1].size == 8)
    }
}
