import AAC
import H26x
@testable import MP4
import NIOCore
import Testing

/// Feeds `frames` video frames at 25 fps (keyframe every `gop`), after `leading` non-keyframes.
private func feedVideo(
    _ muxer: inout FragmentedMP4Muxer, into collected: inout Collected, frames: Range<Int>, gop: Int = 10,
    base: Int64 = 0, onFrame: (Int, inout FragmentedMP4Muxer, inout Collected) -> Void = { _, _, _ in }
) {
    for frame in frames {
        collected.add(muxer.appendVideo(TestFormats.unit(keyframe: frame % gop == 0, fill: UInt8(truncatingIfNeeded: frame)),
                                         timestamp: base + Int64(frame) * 3600))
        onFrame(frame, &muxer, &collected)
    }
}

/// tfdt[n+1] = tfdt[n] + the sum of run n's durations, for one track across all fragments.
private func expectContinuous(_ runs: [ParsedTrackFragment], sourceLocation: SourceLocation = #_sourceLocation) {
    for (previous, next) in zip(runs, runs.dropFirst()) {
        let end = previous.baseMediaDecodeTime + previous.samples.reduce(0) { $0 + UInt64($1.duration) }
        #expect(next.baseMediaDecodeTime == end, "track \(previous.trackID): tfdt \(next.baseMediaDecodeTime) after a run ending at \(end)",
                sourceLocation: sourceLocation)
    }
}

@Suite("Fragmented MP4 muxer")
struct FragmentedMP4MuxerTests {
    @Test("starts at the first keyframe with the init segment; live mode emits each frame when the next comes")
    func everyFrame() throws {
        var muxer = try FragmentedMP4Muxer(video: TestFormats.h264(), policy: .everyFrame)
        var collected = Collected()
        for frame in 0..<3 {
            #expect(muxer.appendVideo(TestFormats.unit(keyframe: false), timestamp: Int64(frame) * 3600).isEmpty)
        }
        #expect(muxer.statistics.droppedBeforeKeyframe == 3)
        let first = muxer.appendVideo(TestFormats.unit(keyframe: true), timestamp: 3 * 3600)
        collected.add(first)
        #expect(collected.kinds == ["init"])
        #expect(collected.initSegments.first?.mimeType == "video/mp4; codecs=\"avc1.4d400d\"")
        for frame in 4..<25 {
            let outputs = muxer.appendVideo(TestFormats.unit(keyframe: frame % 10 == 3), timestamp: Int64(frame) * 3600)
            #expect(outputs.count == 1, "one fragment per frame, one frame late")
            collected.add(outputs)
        }
        collected.add(muxer.finish())
        #expect(muxer.finish().isEmpty)
        #expect(muxer.appendVideo(TestFormats.unit(keyframe: true), timestamp: 999_999).isEmpty)
        #expect(collected.fragments.count == 22)
        #expect(collected.fragments.map(\.info.sequenceNumber) == (1...22).map { UInt32($0) })
        #expect(collected.fragments.map(\.info.startsWithKeyframe) == (0..<22).map { $0 % 10 == 0 })
        #expect(collected.fragments.allSatisfy { $0.info.videoSamples == 1 && $0.info.audioSamples == 0 })
        #expect(collected.fragments[5].info.startTime == 0.2)
        #expect(collected.fragments[5].info.duration == 0.04)
        let runs = try collected.trackFragments().map { try #require($0[1]) }
        #expect(runs.first?.baseMediaDecodeTime == 0)
        expectContinuous(runs)
        #expect(runs.map { $0.samples[0].flags } == (0..<22).map { $0 % 10 == 0 ? 0x0200_0000 : 0x0101_0000 })
        // The whole output parses as one file: init segment then fragments.
        #expect(try Box.parse(collected.file).map(\.type) == ["ftyp", "moov"] + Array(repeating: ["moof", "mdat"], count: 22).flatMap { $0 })
        #expect(muxer.statistics.videoFrames == 22)
        #expect(muxer.statistics.fragments == 22)
        #expect(muxer.statistics.bytes == collected.file.count)
        #expect(abs(muxer.statistics.durationSeconds - 22 * 0.04) < 1e-9)
    }

    @Test("everyKeyframe: one fragment per GOP, each starting with its keyframe")
    func everyKeyframe() throws {
        var muxer = try FragmentedMP4Muxer(video: TestFormats.h264(), policy: .everyKeyframe)
        var collected = Collected()
        feedVideo(&muxer, into: &collected, frames: 0..<35)
        #expect(collected.fragments.count == 3, "GOPs 0, 10, 20 are complete once the next keyframe's successor comes")
        collected.add(muxer.finish())
        #expect(collected.fragments.map(\.info.videoSamples) == [10, 10, 10, 5])
        #expect(collected.fragments.allSatisfy { $0.info.startsWithKeyframe })
        #expect(collected.fragments.map(\.info.startTime) == [0, 0.4, 0.8, 1.2])
        let runs = try collected.trackFragments().map { try #require($0[1]) }
        expectContinuous(runs)
        for run in runs {
            #expect(run.samples.map(\.flags) == [0x0200_0000] + Array(repeating: 0x0101_0000, count: run.samples.count - 1))
        }
    }

    @Test("duration policy: cut at the first keyframe at least N seconds in")
    func durationPolicy() throws {
        var muxer = try FragmentedMP4Muxer(video: TestFormats.h264(), policy: .duration(seconds: 1))
        var collected = Collected()
        feedVideo(&muxer, into: &collected, frames: 0..<100)
        collected.add(muxer.finish())
        // Keyframes every 0.4 s: cuts at 1.2 s, 2.4 s, 3.6 s.
        #expect(collected.fragments.map(\.info.videoSamples) == [30, 30, 30, 10])
        #expect(collected.fragments.map(\.info.startTime) == [0, 1.2, 2.4, 3.6])
        expectContinuous(try collected.trackFragments().map { try #require($0[1]) })
        #expect(throws: MP4Error.self) { try FragmentedMP4Muxer(video: TestFormats.h264(), policy: .duration(seconds: -1)) }
    }

    @Test("live audio rides along in the next video fragment as track 2; audio tfdt is continuous")
    func liveAudio() throws {
        let audioBase: Int64 = 4_294_960_000   // crosses 2^32 on the way
        var muxer = try FragmentedMP4Muxer(video: TestFormats.h264(), audio: TestFormats.aac(), policy: .everyFrame)
        var collected = Collected()
        // Audio before the first keyframe is dropped.
        #expect(muxer.appendAudio(ByteBuffer(bytes: [1, 2, 3]), timestamp: audioBase - 5000).isEmpty)
        muxer.setAudioOrigin(audioBase)
        var audioFrame = 0
        feedVideo(&muxer, into: &collected, frames: 0..<50) { frame, muxer, collected in
            // 48 kHz audio keeps pace: all frames up to this video time.
            while Int64(audioFrame) * 1024 * 90000 <= Int64(frame) * 3600 * 48000 {
                collected.add(muxer.appendAudio(ByteBuffer(bytes: [0xAA, UInt8(truncatingIfNeeded: audioFrame)]),
                                                timestamp: audioBase + Int64(audioFrame) * 1024))
                audioFrame += 1
            }
        }
        collected.add(muxer.finish())
        #expect(collected.initSegments.first?.mimeType == "video/mp4; codecs=\"avc1.4d400d,mp4a.40.2\"")
        let fragments = try collected.trackFragments()
        let audioRuns = fragments.compactMap { $0[2] }
        #expect(audioRuns.first?.baseMediaDecodeTime == 0)
        expectContinuous(audioRuns)
        expectContinuous(fragments.compactMap { $0[1] })
        #expect(audioRuns.reduce(0) { $0 + $1.samples.count } == audioFrame)
        #expect(audioRuns.allSatisfy { $0.samples.allSatisfy { $0.duration == 1024 && $0.flags == 0x0200_0000 } })
        #expect(muxer.statistics.audioFrames == audioFrame)
        #expect(muxer.statistics.droppedAudioFrames == 1)
        // In every fragment the video traf comes first.
        for fragment in collected.fragments {
            let moof = try #require(try Box.parse(fragment.bytes).first)
            let ids = try moof.children("traf").map { try ParsedTrackFragment($0).trackID }
            #expect(ids == ids.sorted())
        }
    }

    @Test("file mode: each fragment carries the audio that starts before its video ends")
    func fileAudio() throws {
        var muxer = try FragmentedMP4Muxer(video: TestFormats.h264(), audio: TestFormats.aac(rate: 16000, channels: 1),
                                           policy: .everyKeyframe)
        var collected = Collected()
        muxer.setAudioOrigin(0)
        var audioFrame = 0
        feedVideo(&muxer, into: &collected, frames: 0..<40) { frame, muxer, collected in
            while Int64(audioFrame) * 1024 * 90000 <= Int64(frame) * 3600 * 16000 {
                collected.add(muxer.appendAudio(ByteBuffer(bytes: [1]), timestamp: Int64(audioFrame) * 1024))
                audioFrame += 1
            }
        }
        collected.add(muxer.finish())
        let fragments = try collected.trackFragments()
        #expect(fragments.count == 4)
        for (index, fragment) in fragments.enumerated().dropLast() {
            let video = try #require(fragment[1])
            let audio = try #require(fragment[2])
            let videoEnd = Double(video.baseMediaDecodeTime + video.samples.reduce(0) { $0 + UInt64($1.duration) }) / 90000
            let audioEnd = Double(audio.baseMediaDecodeTime + audio.samples.reduce(0) { $0 + UInt64($1.duration) }) / 16000
            let frame = 1024.0 / 16000
            #expect(audioEnd - frame < videoEnd, "fragment \(index): audio starting after the video's end waits")
            // What the audio timeline has released (it holds one frame back) up to the video's end goes in.
            #expect(audioEnd >= videoEnd - 2 * frame, "fragment \(index): audio should reach the video's end")
        }
        expectContinuous(fragments.compactMap { $0[2] })
        #expect(fragments.compactMap { $0[2] }.reduce(0) { $0 + $1.samples.count } == audioFrame)
    }

    @Test("HE-AAC: the timescale is the output rate, timestamps may clock at the core rate")
    func heAAC() throws {
        // AOT 5 (SBR), 24 kHz core, stereo, 48 kHz extension, then AOT 2: 0x2B 0x11 0x88 0x00.
        let config = try AudioSpecificConfig(bytes: [0x2B, 0x11, 0x88, 0x00])
        #expect(config.samplingFrequency == 24000 && config.outputSamplingFrequency == 48000)
        let format = AudioFormat(codec: .aac, sampleRate: 48000, channels: 2, config: config)
        var muxer = try FragmentedMP4Muxer(video: TestFormats.h264(), audio: format, audioClockRate: 24000, policy: .everyKeyframe)
        var collected = Collected()
        muxer.setAudioOrigin(100)
        feedVideo(&muxer, into: &collected, frames: 0..<10) { frame, muxer, collected in
            collected.add(muxer.appendAudio(ByteBuffer(bytes: [1]), timestamp: 100 + Int64(frame) * 1024))
        }
        collected.add(muxer.finish())
        let moov = try #require(try Box.parse(collected.initSegments[0].bytes).last)
        var mdhd = try #require(moov.children("trak")[1].find("mdhd")).fields()
        mdhd.skip(8)
        #expect(mdhd.u32() == 48000)
        let audio = try collected.trackFragments().compactMap { $0[2] }
        #expect(audio.flatMap(\.samples).map(\.duration) == Array(repeating: 2048, count: 10))
        #expect(throws: MP4Error.self) { try FragmentedMP4Muxer(video: TestFormats.h264(), audio: format, audioClockRate: 0, policy: .everyFrame) }
    }

    @Test("without an audio origin the first audio frame is placed at the latest video time")
    func audioArrivalAlignment() throws {
        var muxer = try FragmentedMP4Muxer(video: TestFormats.h264(), audio: TestFormats.aac(), policy: .everyKeyframe)
        var collected = Collected()
        feedVideo(&muxer, into: &collected, frames: 0..<6)   // latest video at 0.2 s
        for frame in 0..<10 { collected.add(muxer.appendAudio(ByteBuffer(bytes: [1]), timestamp: 777 + Int64(frame) * 1024)) }
        collected.add(muxer.finish())
        let audio = try #require(try collected.trackFragments().compactMap { $0[2] }.first)
        #expect(audio.baseMediaDecodeTime == 9600)   // 0.2 s at 48 kHz
    }

    @Test("format change: the fragment closes, a second init segment follows, decode times keep growing")
    func formatChange() throws {
        let first = try TestFormats.h264()
        var second = try VideoStream.fixture("h264_bframes.h264", codec: .h264).format
        second.width = 640
        second.height = 480
        var muxer = try FragmentedMP4Muxer(video: first, policy: .everyKeyframe)
        var collected = Collected()
        feedVideo(&muxer, into: &collected, frames: 0..<15)
        #expect(try muxer.changeVideoFormat(first).isEmpty, "the same format is no change")
        let outputs = try muxer.changeVideoFormat(second)
        collected.add(outputs)
        #expect(collected.kinds == ["init", "fragment", "fragment", "init"])
        #expect(collected.fragments.map(\.info.videoSamples) == [10, 5])
        // Frames of the new format wait for its keyframe.
        collected.add(muxer.appendVideo(TestFormats.unit(keyframe: false), timestamp: 15 * 3600))
        #expect(muxer.statistics.droppedBeforeKeyframe == 1)
        feedVideo(&muxer, into: &collected, frames: 16..<30, gop: 16)
        collected.add(muxer.finish())
        #expect(collected.kinds == ["init", "fragment", "fragment", "init", "fragment"])
        #expect(collected.initSegments.count == 2)
        #expect(collected.initSegments[1].mimeType.contains(second.codecString))
        let moov = try #require(try Box.parse(collected.initSegments[1].bytes).last)
        var tkhd = try #require(moov.find("tkhd")).fields()
        tkhd.skip(5 * 4 + 8 + 4 * 2 + 36)   // times, track_ID, duration, reserved, layer…volume, matrix
        #expect(tkhd.u32() == 640 << 16)
        #expect(try #require(moov.find("avcC")).payload == second.decoderConfigurationRecord)
        let runs = try collected.trackFragments().map { try #require($0[1]) }
        #expect(runs.map(\.baseMediaDecodeTime) == [0, 36000, 57600])
        #expect(runs[2].baseMediaDecodeTime >= runs[1].baseMediaDecodeTime + 5 * 3600)
        #expect(collected.fragments.map(\.info.sequenceNumber) == [1, 2, 3])
        #expect(muxer.statistics.initializationSegments == 2)
    }

    @Test("a format change before the first keyframe only swaps the format")
    func formatChangeBeforeStart() throws {
        var second = try TestFormats.h264()
        second.width = 1280
        var muxer = try FragmentedMP4Muxer(video: TestFormats.h264(), policy: .everyFrame)
        #expect(try muxer.changeVideoFormat(second).isEmpty)
        var collected = Collected()
        collected.add(muxer.appendVideo(TestFormats.unit(keyframe: true), timestamp: 0))
        let moov = try #require(try Box.parse(collected.initSegments[0].bytes).last)
        var avc1 = try #require(moov.find("avc1")).fields(fullBox: false)
        avc1.skip(24)
        #expect(avc1.u16() == 1280)
        var broken = second
        broken.decoderConfigurationRecord = []
        #expect(throws: MP4Error.self) { try muxer.changeVideoFormat(broken) }
    }

    @Test("samples: 4-byte lengths, no AUDs, no copies of the sample entry's parameter sets")
    func sampleData() throws {
        let format = try TestFormats.h264()
        let sps = format.parameterSets[0]
        var otherPPS = format.parameterSets[1]
        otherPPS.append(0x80)
        let slice: [UInt8] = [0x65, 0x88, 0x84, 0x00]
        let unit = AccessUnit(codec: .h264, nalUnits: [[0x09, 0xF0], sps, otherPPS, format.parameterSets[1], slice].map { ByteBuffer(bytes: $0) },
                              isKeyframe: true, rtpTimestamp: 0)
        let data = FragmentedMP4Muxer.sampleData(unit, format: format).0.bytes
        var expected: [UInt8] = [0, 0, 0, UInt8(otherPPS.count)] + otherPPS
        expected += [0, 0, 0, 4] + slice
        #expect(data == expected)

        // A unit of nothing but the known parameter sets is no sample.
        var muxer = try FragmentedMP4Muxer(video: format, policy: .everyFrame)
        _ = muxer.appendVideo(TestFormats.unit(keyframe: true), timestamp: 0)
        let parameterSetsOnly = AccessUnit(codec: .h264, nalUnits: format.parameterSets.map { ByteBuffer(bytes: $0) },
                                           isKeyframe: false, rtpTimestamp: 0)
        #expect(muxer.appendVideo(parameterSetsOnly, timestamp: 3600).isEmpty)
        #expect(muxer.statistics.skippedEmptyUnits == 1)

        let hevc = try VideoStream.fixture("h265_main.h265", codec: .h265)
        let key = try #require(hevc.units.first)
        let hevcData = FragmentedMP4Muxer.sampleData(key, format: hevc.format).0.bytes
        // The first unit carries VPS, SPS, PPS, (SEI) and slices; only non-parameter-set units remain.
        var reader = FieldReader(hevcData)
        while reader.remaining > 0 {
            let size = Int(reader.u32())
            let type = (reader.bytes[reader.index] >> 1) & 0x3F
            #expect(!(32...35).contains(type))
            reader.skip(size)
        }
    }

    @Test("B-frames through the muxer: composition offsets in the trun, DTS continuous")
    func bFrames() throws {
        let stream = try VideoStream.fixture("h264_bframes.h264", codec: .h264)
        let pts = try Fixture.integers("h264_bframes.pts")
        var muxer = try FragmentedMP4Muxer(video: stream.format, policy: .everyFrame)
        var collected = Collected()
        for (unit, time) in zip(stream.units, pts) { collected.add(muxer.appendVideo(unit, timestamp: time + 10_000)) }
        collected.add(muxer.finish())
        let runs = try collected.trackFragments().map { try #require($0[1]) }
        #expect(runs.count == 100)
        expectContinuous(runs)
        #expect(runs.allSatisfy { $0.trunFlags & 0x800 != 0 || $0.samples[0].compositionOffset == 0 })
        #expect(runs.allSatisfy { $0.samples[0].compositionOffset >= 0 })
        #expect(muxer.statistics.reorderDepth == 1)
        // Presentation order is the encoder's.
        let presented = runs.map { Int64($0.baseMediaDecodeTime) + Int64($0.samples[0].compositionOffset) }
        #expect(presented.indices.sorted { presented[$0] < presented[$1] } == pts.indices.sorted { pts[$0] < pts[$1] })
    }

    @Test("H.264 Baseline and pic_order_cnt_type 2 cannot reorder; High with POC type 0 and H.265 can")
    func reorderingAllowed() throws {
        // x264 without B-frames writes pic_order_cnt_type 2: output order is decode order.
        #expect(!FragmentedMP4Muxer.allowsReordering(try TestFormats.h264()))
        var format = try VideoStream.fixture("h264_bframes.h264", codec: .h264).format
        #expect(FragmentedMP4Muxer.allowsReordering(format))
        format.profileName = "Constrained Baseline"
        #expect(!FragmentedMP4Muxer.allowsReordering(format))
        #expect(FragmentedMP4Muxer.allowsReordering(try VideoStream.fixture("h265_main.h265", codec: .h265).format))
    }
}
