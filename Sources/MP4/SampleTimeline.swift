import H26x
import NIOCore

/// Turns a track's presentation timestamps (RTP timestamps already extended to 64 bits by the caller, in the
/// RTP clock) into samples with decode times, durations and composition offsets. Holds back one sample: a
/// sample's duration is the next one's DTS minus its own.
///
/// - Durations come from the stream's clock, never from arrival times, so network jitter does not show,
///   and clock drift is simply followed.
/// - 32-bit wrap is the caller's job (it extends the timestamps); across 2^32 nothing special happens here.
/// - A glitch (a zero step, a duplicate timestamp, a backward step when reordering is not allowed, or a
///   jump of more than `glitchFactor` × the running median duration and more than
///   `minimumGlitchSeconds` either way: a camera clock reset, or a long gap after packet loss) is clamped
///   to the running median duration; the timeline goes on from there. Counted in
///   `statistics.timestampGlitches`, never logged.
/// - B-frames (presentation times not monotonic): decode times are the sorted presentation times delayed
///   by the observed reorder depth k, so that DTS is strictly increasing and PTS ≥ DTS
///   (compositionTimeOffset ≥ 0). The decode time of sample i is the (k+1)-th largest presentation time
///   among samples 0...i, which needs no look-ahead once k is known. To learn k before the first decode
///   time is fixed, `startupLookahead` samples are held at the start; the first sample is then decoded at
///   0 and shown at k × the frame duration (`statistics.presentationShift`). If k grows later, the
///   presentation times from there on move later by the few ticks it takes to keep DTS ≤ PTS.
public struct SampleTimeline: Sendable {
    /// Ticks per second of the decode times and durations this timeline produces (the track's timescale).
    public let timescale: UInt32
    /// Ticks per second of the timestamps pushed in (the RTP clock rate).
    public let clockRate: Int
    /// The RTP timestamp that is time 0 of the file; samples before it are dropped (set by the muxer).
    /// Nil until set; then the first sample pushed defines it.
    public var origin: Int64?
    /// Whether presentation times may go backward (B-frames). When false (audio, H.264 Baseline) every
    /// backward or zero step is a glitch.
    public var allowsReordering = true
    /// Samples held at the start before the first decode time is fixed, to observe the reorder depth.
    /// 1 means no look-ahead beyond the one-sample hold.
    public var startupLookahead = 1
    /// A forward or backward jump larger than this many median durations (and than
    /// `minimumGlitchSeconds`) is a glitch.
    public var glitchFactor: Int64 = 10
    /// Jumps up to this long are real gaps (the previous sample is shown longer), whatever the factor.
    public var minimumGlitchSeconds: Double = 2

    public private(set) var statistics = TimelineStatistics()

    /// The duration assumed before any has been measured, in the timescale.
    private let defaultDuration: UInt32?
    /// Presentation times (timescale ticks from the origin, corrected) of the latest samples in decode
    /// order; the last `pending.count` of them are the pending samples'.
    private var window: [Int64] = []
    /// Samples not released yet, in decode order. Once started, all but the last are released at once.
    private var pending: [Pending] = []
    /// The largest presentation time so far.
    private var maxPresentation: Int64?
    /// Added to every converted timestamp: glitch corrections and presentation shifts.
    private var offset: Int64 = 0
    /// The decode time of the newest sample that has one.
    private var lastDecodeTime: Int64?
    /// Whether decode times are being assigned (the start-up look-ahead is over).
    private var started = false
    /// After `flush()`: the decode time the next sample must start at, so that decode times continue.
    private var anchor: Int64?
    /// After `flush()`: where the previous run's presentation ends; the next run is shown after it.
    private var presentationAnchor: Int64?
    /// The latest durations, for the running median.
    private var recentDurations: [Int64] = []
    private var recentIndex = 0
    private var cachedMedian: Int64?

    private struct Pending {
        var presentation: Int64
        var decode: Int64?
        var isSync: Bool
        var data: ByteBuffer
        var frontRoom: SampleFrontRoom?
    }

    private static let windowSize = 64
    private static let medianSamples = 31

    /// - Parameters:
    ///   - timescale: ticks per second of the output (the track's timescale).
    ///   - clockRate: ticks per second of the timestamps pushed in (the RTP clock).
    ///   - defaultDuration: the duration to assume until one is measured, in the timescale
    ///     (e.g. 90000 / fps, or 1024 for AAC); else guessed from the first steps, or 1/25 s.
    public init(timescale: UInt32, clockRate: Int, defaultDuration: UInt32? = nil) {
        precondition(timescale > 0 && clockRate > 0, "SampleTimeline needs a positive timescale and clock rate")
        self.timescale = timescale
        self.clockRate = clockRate
        self.defaultDuration = defaultDuration.flatMap { $0 > 0 ? $0 : nil }
    }

    /// The running median of the latest durations (in the timescale): what a glitch is clamped to and what
    /// the last sample gets on `flush()`.
    public var medianDuration: Int64 {
        if let cachedMedian { return cachedMedian }
        if !recentDurations.isEmpty { return Self.median(recentDurations) }
        if let defaultDuration { return Int64(defaultDuration) }
        // Nothing measured yet: the steps between the sorted presentation times seen so far.
        let sorted = window.sorted()
        var steps: [Int64] = []
        if sorted.count > 1 {
            for index in 1..<sorted.count where sorted[index] > sorted[index - 1] {
                steps.append(sorted[index] - sorted[index - 1])
            }
        }
        if !steps.isEmpty { return Self.median(steps) }
        return max(1, Int64(timescale) / 25)
    }

    /// Feeds one sample in decode order (the order it arrived in). Returns the samples whose duration is
    /// now known: usually the previous one.
    public mutating func push(timestamp: Int64, isSync: Bool, data: ByteBuffer, frontRoom: SampleFrontRoom? = nil) -> [TimedSample] {
        if origin == nil { origin = timestamp }
        var presentation = convert(timestamp &- origin!) &+ offset

        if let maxPresentation {
            let median = medianDuration
            let threshold = max(glitchFactor * median, Int64((minimumGlitchSeconds * Double(timescale)).rounded()))
            let duplicate = window.contains(presentation)
            let backward = !allowsReordering && presentation <= maxPresentation
            if presentation > maxPresentation + threshold || presentation < maxPresentation - threshold
                || duplicate || backward {
                let corrected = maxPresentation + median
                offset += corrected - presentation
                presentation = corrected
                statistics.timestampGlitches += 1
            }
        }
        if presentation < 0 {
            // Before the origin: before the first keyframe, or a leading picture of an open GOP whose
            // references are not in the file.
            statistics.droppedBeforeOrigin += 1
            return []
        }

        if allowsReordering {
            var later = 0
            for earlier in window where earlier > presentation { later += 1 }
            statistics.reorderDepth = max(statistics.reorderDepth, later)
        }
        window.append(presentation)
        let keep = max(Self.windowSize, pending.count + 1, statistics.reorderDepth + 2)
        if window.count > keep { window.removeFirst(window.count - keep) }
        maxPresentation = max(maxPresentation ?? presentation, presentation)
        pending.append(Pending(presentation: presentation, decode: nil, isSync: isSync, data: data, frontRoom: frontRoom))

        if started {
            assignDecodeTimeToNewest()
        } else {
            guard pending.count >= max(1, startupLookahead) else { return [] }
            start()
        }
        return release()
    }

    /// Releases what is held back; the last sample gets the median duration. Decode times continue after
    /// it: the next sample pushed is decoded where this one ends and presented after the last one shown
    /// (or later, where its own timestamp says), after a new start-up look-ahead.
    public mutating func flush() -> [TimedSample] {
        guard !pending.isEmpty else { return [] }
        if !started { start() }
        var released = release()
        if let last = pending.first, let decode = last.decode {
            let duration = medianDuration
            released.append(timed(last, decode: decode, duration: duration))
            anchor = decode + duration
            presentationAnchor = (maxPresentation ?? last.presentation) + duration
        }
        pending.removeAll()
        window.removeAll()
        started = false
        return released
    }

    // MARK: - Decode times

    /// Start-up: with the reorder depth k observed over the held samples, sample j is decoded at the
    /// (j − k)-th smallest presentation time (before it, one median duration apart), then everything moves
    /// so the first decode time is 0 (or where the previous run ended, after a flush).
    private mutating func start() {
        let depth = statistics.reorderDepth
        let sorted = pending.map(\.presentation).sorted()
        let median = medianDuration
        for index in pending.indices {
            pending[index].decode = index >= depth
                ? sorted[index - depth]
                : sorted[0] - Int64(depth - index) * median
        }
        let first = pending[0].decode!
        let target: Int64
        if let anchor {
            // After a flush: continue where the previous run ended (in decode and in presentation order,
            // so that no picture overlaps the previous run's last ones), or later if the stream paused.
            let earliest = pending.map(\.presentation).min() ?? first
            target = first + max(0, anchor - first, (presentationAnchor ?? earliest) - earliest)
        } else {
            target = max(first, 0)
            statistics.presentationShift += target - first
        }
        shiftPending(by: target - first, decodeToo: true)
        lastDecodeTime = pending[pending.count - 1].decode
        anchor = nil
        presentationAnchor = nil
        started = true
    }

    /// The newest sample's decode time: the (k+1)-th largest presentation time so far. When k has just
    /// grown that can fall at or before the previous decode time; then the pending samples' presentation
    /// moves later until it does not.
    private mutating func assignDecodeTimeToNewest() {
        let depth = statistics.reorderDepth
        var target = decodeTimeCandidate(depth: depth)
        if let last = lastDecodeTime, target <= last {
            let shift = last + medianDuration - target
            shiftPending(by: shift, decodeToo: false)
            statistics.presentationShift += shift
            target = decodeTimeCandidate(depth: depth)
            if target <= last { target = last + 1 }
        }
        pending[pending.count - 1].decode = target
        lastDecodeTime = target
    }

    private func decodeTimeCandidate(depth: Int) -> Int64 {
        let sorted = window.sorted(by: >)
        if depth < sorted.count { return sorted[depth] }
        return (sorted.last ?? 0) - Int64(depth + 1 - sorted.count) * medianDuration
    }

    /// Moves the pending samples' presentation times (and, before start, their decode times) by `shift`,
    /// and every later sample with them.
    private mutating func shiftPending(by shift: Int64, decodeToo: Bool) {
        guard shift != 0 else { return }
        offset += shift
        for index in pending.indices {
            pending[index].presentation += shift
            if decodeToo, let decode = pending[index].decode { pending[index].decode = decode + shift }
        }
        let tail = min(pending.count, window.count)
        for index in (window.count - tail)..<window.count { window[index] += shift }
        maxPresentation = window.max()
    }

    /// Releases every pending sample whose successor has a decode time.
    private mutating func release() -> [TimedSample] {
        guard pending.count > 1 else { return [] }
        var released: [TimedSample] = []
        released.reserveCapacity(pending.count - 1)
        for index in 0..<(pending.count - 1) {
            guard let decode = pending[index].decode, let next = pending[index + 1].decode else { break }
            let duration = next - decode
            recordDuration(duration)
            released.append(timed(pending[index], decode: decode, duration: duration))
        }
        pending.removeFirst(released.count)
        return released
    }

    private mutating func timed(_ sample: Pending, decode: Int64, duration: Int64) -> TimedSample {
        statistics.samples += 1
        let offset = sample.presentation - decode
        return TimedSample(
            decodeTime: UInt64(max(0, decode)),
            sample: MP4Sample(
                data: sample.data, duration: UInt32(clamping: max(1, duration)),
                compositionTimeOffset: Int32(clamping: offset), isSync: sample.isSync, frontRoom: sample.frontRoom))
    }

    private mutating func recordDuration(_ duration: Int64) {
        guard duration > 0 else { return }
        if recentDurations.count < Self.medianSamples {
            recentDurations.append(duration)
        } else {
            recentDurations[recentIndex] = duration
            recentIndex = (recentIndex + 1) % Self.medianSamples
        }
        cachedMedian = Self.median(recentDurations)
    }

    private static func median(_ values: [Int64]) -> Int64 {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    /// RTP clock ticks to timescale ticks, rounded to the nearest (exact when the two are equal).
    private func convert(_ ticks: Int64) -> Int64 {
        let rate = Int64(clockRate)
        let scale = Int64(timescale)
        if rate == scale { return ticks }
        let (product, overflow) = ticks.multipliedReportingOverflow(by: scale)
        if overflow { return Int64((Double(ticks) * Double(scale) / Double(rate)).rounded()) }
        let half = rate / 2
        let shifted = product >= 0 ? product + half : product - half
        return shifted / rate
    }
}
