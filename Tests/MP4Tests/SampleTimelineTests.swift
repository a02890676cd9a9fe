@testable import MP4
import NIOCore
import Testing

/// Pushes `timestamps` (with sync flags) through a timeline and returns everything released, flush
/// included, and the timeline.
private func run(
    _ timestamps: [Int64], sync: [Bool]? = nil, timeline: SampleTimeline = SampleTimeline(timescale: 90000, clockRate: 90000)
) -> (samples: [TimedSample], timeline: SampleTimeline) {
    var timeline = timeline
    var out: [TimedSample] = []
    for (index, timestamp) in timestamps.enumerated() {
        let data = ByteBuffer(bytes: withUnsafeBytes(of: UInt32(index).bigEndian, Array.init))
        out += timeline.push(timestamp: timestamp, isSync: sync?[index] ?? (index == 0), data: data)
    }
    out += timeline.flush()
    return (out, timeline)
}

/// The index each sample was pushed with (its data).
private func index(_ sample: TimedSample) -> Int {
    Int(sample.sample.data.getInteger(at: sample.sample.data.readerIndex, as: UInt32.self)!)
}

/// Decode times strictly increasing, each the previous plus its duration; PTS ≥ DTS.
private func expectWellFormed(_ samples: [TimedSample], sourceLocation: SourceLocation = #_sourceLocation) {
    for (previous, next) in zip(samples, samples.dropFirst()) {
        #expect(next.decodeTime == previous.endTime, "decode times must continue", sourceLocation: sourceLocation)
        #expect(next.decodeTime > previous.decodeTime, sourceLocation: sourceLocation)
    }
    for sample in samples {
        #expect(sample.sample.compositionTimeOffset >= 0, "PTS < DTS at \(sample.decodeTime)", sourceLocation: sourceLocation)
        #expect(sample.sample.duration > 0, sourceLocation: sourceLocation)
    }
}

@Suite("Sample timeline")
struct SampleTimelineTests {
    @Test("constant 25 fps: decode times from 0, 3600 apart, no offsets, one sample held back")
    func constantRate() {
        var timeline = SampleTimeline(timescale: 90000, clockRate: 90000)
        let start: Int64 = 1_234_567
        #expect(timeline.push(timestamp: start, isSync: true, data: ByteBuffer()).isEmpty)
        for frame in 1..<10 {
            let released = timeline.push(timestamp: start + Int64(frame) * 3600, isSync: false, data: ByteBuffer())
            #expect(released.count == 1)
            #expect(released.first?.decodeTime == UInt64(frame - 1) * 3600)
            #expect(released.first?.sample.duration == 3600)
            #expect(released.first?.sample.compositionTimeOffset == 0)
        }
        let last = timeline.flush()
        #expect(last.map(\.decodeTime) == [9 * 3600])
        #expect(last.first?.sample.duration == 3600)
        #expect(timeline.origin == start)
        #expect(timeline.statistics.samples == 10)
        #expect(timeline.statistics.timestampGlitches == 0)
        #expect(timeline.statistics.reorderDepth == 0)
        #expect(timeline.flush().isEmpty)
    }

    @Test("jitter in the camera's timestamps: durations follow the clock, nothing is a glitch")
    func jitter() {
        var generator = SystemRandomNumberGenerator()
        var timestamps: [Int64] = []
        for frame in 0..<200 { timestamps.append(Int64(frame) * 3600 + Int64.random(in: -900...900, using: &generator)) }
        timestamps[0] = 0
        let (samples, timeline) = run(timestamps)
        #expect(samples.count == 200)
        expectWellFormed(samples)
        for (sample, (now, next)) in zip(samples, zip(timestamps, timestamps.dropFirst())) {
            #expect(Int64(sample.sample.duration) == next - now)
            #expect(sample.decodeTime == UInt64(now))
        }
        #expect(timeline.statistics.timestampGlitches == 0)
    }

    @Test("extended timestamps across 2^32 continue without a jump")
    func wrap() {
        let start = Int64(UInt32.max) - 5 * 3600 + 1
        let timestamps = (0..<20).map { start + Int64($0) * 3600 }
        #expect(timestamps.contains { $0 > Int64(UInt32.max) } && timestamps.contains { $0 < Int64(UInt32.max) })
        let (samples, timeline) = run(timestamps)
        #expect(samples.map(\.decodeTime) == (0..<20).map { UInt64($0) * 3600 })
        #expect(timeline.statistics.timestampGlitches == 0)
    }

    @Test("a forward clock jump is clamped to the median duration; the timeline goes on from there")
    func forwardGlitch() {
        var timestamps = (0..<10).map { Int64($0) * 3600 }
        timestamps += (10..<20).map { Int64($0) * 3600 + 90000 * 100 }  // +100 s from frame 10 on
        let (samples, timeline) = run(timestamps)
        #expect(samples.count == 20)
        #expect(samples.map(\.decodeTime) == (0..<20).map { UInt64($0) * 3600 })
        #expect(timeline.statistics.timestampGlitches == 1)
        expectWellFormed(samples)
    }

    @Test("a backward clock reset is clamped too")
    func backwardGlitch() {
        var timestamps = (0..<10).map { 5_000_000 + Int64($0) * 3600 }
        timestamps += (0..<10).map { Int64($0) * 3600 }   // the camera's clock restarts at 0
        let (samples, timeline) = run(timestamps)
        #expect(samples.map(\.decodeTime) == (0..<20).map { UInt64($0) * 3600 })
        #expect(timeline.statistics.timestampGlitches == 1)
        #expect(timeline.statistics.droppedBeforeOrigin == 0)
    }

    @Test("a single wild timestamp costs one clamped step each way, and nothing more")
    func outlier() {
        var timestamps = (0..<20).map { Int64($0) * 3600 }
        timestamps[10] = 987_654_321
        let (samples, timeline) = run(timestamps)
        #expect(samples.count == 20)
        expectWellFormed(samples)
        #expect(timeline.statistics.timestampGlitches == 2)
        // Frame 10 is placed one median after frame 9, frame 11 one median after it: back in step.
        #expect(samples.map(\.decodeTime) == (0..<20).map { UInt64($0) * 3600 })
    }

    @Test("a duplicate timestamp and a zero or backward step without reordering are glitches")
    func zeroAndBackwardSteps() {
        var timeline = SampleTimeline(timescale: 90000, clockRate: 90000)
        timeline.allowsReordering = false
        let timestamps: [Int64] = [0, 3600, 7200, 7200, 10800, 9000, 18000]
        let (samples, result) = run(timestamps, timeline: timeline)
        #expect(samples.count == 7)
        expectWellFormed(samples)
        #expect(result.statistics.timestampGlitches == 2)
        // The duplicate moves everything after it one frame later; the step back of 1800 is clamped to
        // +3600, so the last frame (raw step +9000 from 9000) lands 9000 after the clamped one.
        #expect(samples.map(\.decodeTime) == [0, 3600, 7200, 10800, 14400, 18000, 27000])

        // With reordering allowed, a duplicate is still a glitch.
        let (_, reordering) = run([0, 3600, 3600, 7200])
        #expect(reordering.statistics.timestampGlitches == 1)
    }

    @Test("a real gap (lost frames) is not a glitch: the previous frame lasts longer")
    func gap() {
        let timestamps: [Int64] = [0, 3600, 7200, 18000, 21600, 21600 + 90000, 21600 + 93600]
        let (samples, timeline) = run(timestamps)
        #expect(samples.map(\.sample.duration) == [3600, 3600, 10800, 3600, 90000, 3600, 3600])
        #expect(timeline.statistics.timestampGlitches == 0)
    }

    @Test("samples before the origin are dropped")
    func origin() {
        var timeline = SampleTimeline(timescale: 48000, clockRate: 48000)
        timeline.allowsReordering = false
        timeline.origin = 10_000
        var out: [TimedSample] = []
        for frame in 0..<12 { out += timeline.push(timestamp: 10_000 + Int64(frame - 2) * 1024 + 512, isSync: true, data: ByteBuffer()) }
        out += timeline.flush()
        #expect(timeline.statistics.droppedBeforeOrigin == 2)
        #expect(out.count == 10)
        #expect(out.first?.decodeTime == 512)
        #expect(out.map(\.sample.duration) == Array(repeating: 1024, count: 10))
    }

    @Test("clock rate and timescale may differ: ticks are converted and rounded")
    func conversion() {
        let timeline = SampleTimeline(timescale: 1000, clockRate: 90000)
        let (samples, _) = run((0..<10).map { Int64($0) * 3000 }, timeline: timeline)   // 30 fps
        #expect(samples.map(\.decodeTime) == [0, 33, 67, 100, 133, 167, 200, 233, 267, 300])
        #expect(samples.reduce(0) { $0 + Int($1.sample.duration) } == 300 + 33)
    }

    @Test("B-frames I P B B (PTS 0,3,1,2 × 3600): DTS monotonic, offsets ≥ 0, right presentation order")
    func bFrames() {
        var timeline = SampleTimeline(timescale: 90000, clockRate: 90000)
        timeline.startupLookahead = 8
        var timestamps: [Int64] = []
        for gop in 0..<3 { timestamps += [0, 3, 1, 2].map { Int64(gop * 4 + $0) * 3600 } }
        let sync = (0..<12).map { $0 % 4 == 0 }
        let (samples, result) = run(timestamps, sync: sync, timeline: timeline)
        #expect(samples.count == 12)
        expectWellFormed(samples)
        #expect(result.statistics.reorderDepth == 1)
        #expect(result.statistics.timestampGlitches == 0)
        #expect(samples.map(\.decodeTime) == (0..<12).map { UInt64($0) * 3600 })
        #expect(samples.map(\.sample.compositionTimeOffset) == [1, 3, 0, 0, 1, 3, 0, 0, 1, 3, 0, 0].map { $0 * 3600 })
        // Presentation order is the input's, shifted by one frame (the reorder delay).
        #expect(result.statistics.presentationShift == 3600)
        for sample in samples {
            #expect(sample.presentationTime == timestamps[index(sample)] + 3600)
        }
        #expect(samples.map { $0.sample.isSync } == sync)
    }

    @Test("B-frames noticed only when they come (no look-ahead): still DTS ≤ PTS and the right order")
    func bFramesWithoutLookahead() {
        var timestamps: [Int64] = []
        for gop in 0..<5 { timestamps += [0, 3, 1, 2].map { Int64(gop * 4 + $0) * 3600 } }
        let (samples, timeline) = run(timestamps, sync: (0..<20).map { $0 % 4 == 0 })
        #expect(samples.count == 20)
        expectWellFormed(samples)
        #expect(timeline.statistics.reorderDepth == 1)
        let order = samples.sorted { $0.presentationTime < $1.presentationTime }.map(index)
        let expected = (0..<20).sorted { timestamps[$0] < timestamps[$1] }
        #expect(order == expected)
        // After the shift, frames are again one duration apart in presentation.
        let presented = samples.map(\.presentationTime).sorted()
        #expect(zip(presented.dropFirst(4), presented.dropFirst(5)).allSatisfy { $1 - $0 == 3600 })
    }

    @Test("B-pyramid from the x264 fixture (I P B b b): depth 2, order and DTS ≤ PTS")
    func pyramid() throws {
        let timestamps = try Fixture.integers("h264_bpyramid.pts").map { $0 + 1_000_000 }
        var timeline = SampleTimeline(timescale: 90000, clockRate: 90000)
        timeline.startupLookahead = 8
        let (samples, result) = run(timestamps, timeline: timeline)
        #expect(samples.count == timestamps.count)
        expectWellFormed(samples)
        #expect(result.statistics.reorderDepth == 2)
        let order = samples.sorted { $0.presentationTime < $1.presentationTime }.map(index)
        #expect(order == timestamps.indices.sorted { timestamps[$0] < timestamps[$1] })
        #expect(result.statistics.presentationShift == 7200)
        #expect(samples.allSatisfy { $0.sample.duration == 3600 })
    }

    @Test("after flush, decode times continue where the last sample ended")
    func flushAndContinue() {
        var timeline = SampleTimeline(timescale: 90000, clockRate: 90000)
        var out: [TimedSample] = []
        for frame in 0..<5 { out += timeline.push(timestamp: Int64(frame) * 3600, isSync: frame == 0, data: ByteBuffer()) }
        out += timeline.flush()
        #expect(out.last?.endTime == 5 * 3600)
        for frame in 5..<10 { out += timeline.push(timestamp: Int64(frame) * 3600, isSync: frame == 5, data: ByteBuffer()) }
        out += timeline.flush()
        expectWellFormed(out)
        #expect(out.map(\.decodeTime) == (0..<10).map { UInt64($0) * 3600 })
    }

    @Test("after flush, a run of B-frames is not shown before the previous run ends, nor the reverse")
    func flushWithBFrames() {
        var timeline = SampleTimeline(timescale: 90000, clockRate: 90000)
        timeline.startupLookahead = 8
        var out: [TimedSample] = []
        // I P B B ×2, then, after a flush, plain frames that continue the clock.
        for (index, step) in [0, 3, 1, 2, 4, 7, 5, 6].enumerated() {
            out += timeline.push(timestamp: Int64(step) * 3600, isSync: index % 4 == 0, data: ByteBuffer())
        }
        out += timeline.flush()
        let firstRunEnd = out.map { $0.presentationTime + Int64($0.sample.duration) }.max()!
        let firstCount = out.count
        for frame in 8..<12 { out += timeline.push(timestamp: Int64(frame) * 3600, isSync: frame == 8, data: ByteBuffer()) }
        out += timeline.flush()
        expectWellFormed(Array(out[firstCount...]))
        #expect(out[firstCount].decodeTime >= out[firstCount - 1].endTime)
        #expect(out[firstCount...].map(\.presentationTime).min()! >= firstRunEnd)
        #expect(out[firstCount...].map(\.presentationTime).min()! == firstRunEnd, "and no gap either")
    }

    @Test("default duration: the lone sample of a flush gets it")
    func defaultDuration() {
        var timeline = SampleTimeline(timescale: 48000, clockRate: 48000, defaultDuration: 1024)
        _ = timeline.push(timestamp: 77, isSync: true, data: ByteBuffer())
        let out = timeline.flush()
        #expect(out.map(\.sample.duration) == [1024])
        var bare = SampleTimeline(timescale: 90000, clockRate: 90000)
        _ = bare.push(timestamp: 77, isSync: true, data: ByteBuffer())
        #expect(bare.flush().map(\.sample.duration) == [3600])
    }
}
