import MP4
import NIOCore
import Testing

@Suite("Export time rewriting")
struct ExportTimelineTests {
    let tracks = [
        FragmentedMP4Layout.Track(trackID: 1, timescale: 90_000, handler: "vide", sampleDescription: [1]),
        FragmentedMP4Layout.Track(trackID: 2, timescale: 48_000, handler: "soun", sampleDescription: [2]),
    ]

    /// One fragment: 25 video frames of 40 ms from `videoTime` (ticks), the first a keyframe; audio of 1024 samples
    /// from `audioTime` for the same second.
    func fragment(sequence: UInt32, videoTime: UInt64, audioTime: UInt64?, frames: Int = 25) throws -> FragmentReader {
        let video = (0..<frames).map { MP4Sample(data: ByteBuffer(bytes: [UInt8(truncatingIfNeeded: $0), 0xAA]), duration: 3600, isSync: $0 == 0) }
        var runs: [(trackID: UInt32, baseMediaDecodeTime: UInt64, samples: [MP4Sample])] = [(1, videoTime, video)]
        if let audioTime {
            let audio = (0..<47).map { _ in MP4Sample(data: ByteBuffer(bytes: [0x21, 0x10]), duration: 1024, isSync: true) }
            runs.append((2, audioTime, audio))
        }
        return try FragmentReader(MP4Boxes.fragment(sequenceNumber: sequence, runs: runs))
    }

    func decodeTime(_ bytes: ByteBuffer, track: UInt32) throws -> UInt64? {
        try FragmentReader(bytes).runs.first { $0.trackID == track }?.baseMediaDecodeTime
    }

    @Test("fragments read back as written: sequence, times, samples, keyframe flags")
    func readBack() throws {
        let reader = try fragment(sequence: 7, videoTime: 180_000, audioTime: 96_000)
        #expect(reader.sequenceNumber == 7)
        #expect(reader.runs.map(\.trackID) == [1, 2])
        #expect(reader.runs[0].baseMediaDecodeTime == 180_000)
        #expect(reader.runs[0].samples.count == 25)
        #expect(reader.runs[0].samples.map(\.isSync) == [true] + Array(repeating: false, count: 24))
        #expect(Array(reader.runs[0].samples[3].data.readableBytesView) == [3, 0xAA])
        #expect(reader.runs[1].samples.count == 47)
    }

    @Test("two files with a gap become one timeline: tfdt continuous, sequence numbers from 1")
    func continuous() throws {
        var timeline = ExportTimeline(tracks: tracks)
        var out: [ByteBuffer] = []
        // File 1 starts its video at 2 s (the export's first keyframe), audio already at 1.9 s.
        timeline.beginFile()
        for (number, second) in [2, 3].enumerated() {
            let bytes = timeline.rewrite(try fragment(sequence: UInt32(10 + number), videoTime: UInt64(second) * 90_000,
                                                      audioTime: UInt64(Double(second) * 48_000 - (number == 0 ? 4800 : 0))))
            out.append(try #require(bytes))
        }
        // File 2 (after a gap) starts at its own 0.
        timeline.beginFile()
        for second in [0, 1] {
            out.append(try #require(timeline.rewrite(try fragment(sequence: UInt32(1 + second), videoTime: UInt64(second) * 90_000,
                                                                  audioTime: UInt64(second) * 48_000))))
        }
        #expect(try out.map { try FragmentReader($0).sequenceNumber } == [1, 2, 3, 4])
        #expect(try out.map { try decodeTime($0, track: 1) } == [0, 90_000, 180_000, 270_000])
        // Audio before the first video frame is left out: the first audio frame kept starts within one frame of 0.
        let firstAudio = try #require(try FragmentReader(out[0]).runs.first { $0.trackID == 2 })
        #expect(firstAudio.baseMediaDecodeTime < 1024)
        #expect(firstAudio.samples.count < 47)
        // Audio never goes back in time.
        var previousEnd: UInt64 = 0
        for bytes in out {
            guard let run = try FragmentReader(bytes).runs.first(where: { $0.trackID == 2 }) else { continue }
            #expect(run.baseMediaDecodeTime >= previousEnd)
            previousEnd = run.baseMediaDecodeTime + run.samples.reduce(0) { $0 + UInt64($1.duration) }
        }
        #expect(abs(timeline.duration - 4.0) < 1e-9)
        #expect(!timeline.reachedEnd)
    }

    @Test("the end time cuts inside a fragment and says the end is reached")
    func endCut() throws {
        var timeline = ExportTimeline(tracks: tracks)
        timeline.beginFile()
        _ = timeline.rewrite(try fragment(sequence: 1, videoTime: 0, audioTime: 0), until: 1.5)
        #expect(!timeline.reachedEnd)
        let cut = try #require(timeline.rewrite(try fragment(sequence: 2, videoTime: 90_000, audioTime: 48_000), until: 1.5))
        #expect(timeline.reachedEnd)
        let video = try #require(try FragmentReader(cut).runs.first { $0.trackID == 1 })
        #expect(video.samples.count == 13)   // 1.00 … 1.48 s
        #expect(abs(timeline.duration - 1.52) < 1e-9)
        // Nothing at all before the end: nil.
        var other = ExportTimeline(tracks: tracks)
        other.beginFile()
        _ = other.rewrite(try fragment(sequence: 1, videoTime: 0, audioTime: nil), until: 1.0)
        #expect(other.rewrite(try fragment(sequence: 2, videoTime: 90_000, audioTime: nil), until: 1.0) == nil)
    }

    @Test("a file whose first fragment has no video waits for video")
    func noVideoFirst() throws {
        var timeline = ExportTimeline(tracks: tracks)
        timeline.beginFile()
        let audioOnly = try FragmentReader(MP4Boxes.fragment(sequenceNumber: 1, runs: [(2, 0, [MP4Sample(data: ByteBuffer(bytes: [1]), duration: 1024, isSync: true)])]))
        #expect(timeline.rewrite(audioOnly) == nil)
        #expect(timeline.rewrite(try fragment(sequence: 2, videoTime: 45_000, audioTime: nil)) != nil)
    }
}
