import AAC
import H26x
import NIOCore

/// The whole muxer: tracks, timelines and fragmentation policy. The recorder and the live viewers use it.
///
/// Video is track 1 (timescale 90000, the RTP clock), audio track 2 (timescale = the sample rate). Output
/// starts at the first video keyframe with the initialization segment; fragments follow as the policy
/// says. Samples are held back one frame by the timelines (a duration is known when the next sample
/// arrives). Audio rides in the video fragments as a second `traf`: every audio frame released so far in
/// live mode, the frames that start before the fragment's video ends otherwise.
public struct FragmentedMP4Muxer: Sendable {
    public enum FragmentPolicy: Sendable, Equatable {
        /// Live: one moof+mdat per video access unit (audio frames ride along in it).
        case everyFrame
        /// Files: one fragment per GOP.
        case everyKeyframe
        /// Files: cut at the first keyframe at least N s after the fragment start.
        case duration(seconds: Double)
    }

    public enum Output: Sendable {
        /// The init segment and its MIME type with codecs. Emitted first, and again after a format change.
        case initializationSegment(ByteBuffer, mimeType: String)
        case fragment(ByteBuffer, FragmentInfo)
    }

    public static let videoTrackID: UInt32 = 1
    public static let audioTrackID: UInt32 = 2

    public let policy: FragmentPolicy
    /// Written in front of every fragment (a transport's header): ``FragmentPrefix``.
    public var fragmentPrefix: FragmentPrefix?
    /// A fragment of one video sample is written around the picture's bytes where the depacketizer put them,
    /// its header in the room left in front of them (``SampleFrontRoom``): no copy of the picture. For the live
    /// muxer (one per stream; a second muxer of the same units finds the room taken and copies).
    public var writesInPlace = false
    public private(set) var videoFormat: VideoFormat
    public let audioFormat: AudioFormat?
    public private(set) var statistics = MuxerStatistics()

    private var videoTrack: MP4Track
    private let audioTrack: MP4Track?
    private var videoTimeline: SampleTimeline
    private var audioTimeline: SampleTimeline?
    /// The first keyframe's timestamp: the file's time 0.
    private var videoOrigin: Int64?
    /// The latest video timestamp pushed (to place audio when no audio origin is given).
    private var latestVideoTimestamp: Int64?
    private var audioPushed = false
    /// After a format change, frames wait for a keyframe of the new format.
    private var awaitingKeyframe = true
    private var finished = false
    /// Video samples of the fragment being built.
    private var videoRun: [TimedSample] = []
    /// Audio samples released by the timeline and not yet written.
    private var audioQueue: [TimedSample] = []
    /// The video's presentation shift (B-frames) in audio ticks, added to audio decode times so that both
    /// tracks stay in sync. Fixed when the first fragment is written.
    private var audioShift: UInt64?
    private var sequenceNumber: UInt32 = 1

    /// - Parameters:
    ///   - audioClockRate: the RTP clock rate of the audio timestamps (the SDP rtpmap rate) when it is not
    ///     `audio.sampleRate` (HE-AAC streams may clock at the core rate while the output rate is double).
    /// - Throws: `MP4Error` when the video format has no decoder configuration or the audio is not AAC
    ///   with an AudioSpecificConfig (leave `audio` nil to record video only).
    public init(video: VideoFormat, audio: AudioFormat? = nil, audioClockRate: Int? = nil, policy: FragmentPolicy) throws(MP4Error) {
        if case .duration(let seconds) = policy, !(seconds >= 0 && seconds.isFinite) {
            throw MP4Error("a fragment duration of \(seconds) s is not usable; give a positive number of seconds")
        }
        if let audioClockRate, audioClockRate <= 0 {
            throw MP4Error("an audio clock rate of \(audioClockRate) Hz is not usable; give the SDP rtpmap rate")
        }
        self.policy = policy
        videoFormat = video
        audioFormat = audio
        videoTrack = try MP4Track(trackID: Self.videoTrackID, media: .video(video))
        videoTimeline = Self.makeVideoTimeline(video)
        if let audio {
            let track = try MP4Track(trackID: Self.audioTrackID, media: .audio(audio))
            audioTrack = track
            audioTimeline = Self.makeAudioTimeline(audio, timescale: track.timescale, clockRate: audioClockRate ?? audio.sampleRate)
        } else {
            audioTrack = nil
            audioTimeline = nil
        }
    }

    /// The tracks of the current initialization segment.
    public var tracks: [MP4Track] {
        [videoTrack] + (audioTrack.map { [$0] } ?? [])
    }

    /// The MIME type with codecs of the current initialization segment.
    public var mimeType: String { MP4Boxes.mimeType(tracks: tracks) }

    /// The time-0 timestamps. If not called, time 0 is the first video keyframe's timestamp, and for audio
    /// the audio timestamp given by `setAudioOrigin` (the caller maps clocks via RTCP sender reports).
    /// Without it the first audio frame is placed at the latest video frame's time (arrival alignment).
    /// Ignored once audio frames have been taken.
    public mutating func setAudioOrigin(_ audioTimestamp: Int64) {
        guard !audioPushed, audioTimeline != nil else { return }
        audioTimeline?.origin = audioTimestamp
    }

    /// Video: frames before the first keyframe are dropped (the file starts at a keyframe).
    public mutating func appendVideo(_ unit: AccessUnit, timestamp: Int64) -> [Output] {
        guard !finished else { return [] }
        var outputs: [Output] = []
        if awaitingKeyframe {
            guard unit.isKeyframe else {
                statistics.droppedBeforeKeyframe += 1
                return []
            }
            awaitingKeyframe = false
            if videoOrigin == nil {
                videoOrigin = timestamp
                videoTimeline.origin = timestamp
                outputs.append(initializationSegment())
            }
        }
        latestVideoTimestamp = timestamp
        let (data, frontRoom) = Self.sampleData(unit, format: videoFormat)
        guard data.readableBytes > 0 else {
            statistics.skippedEmptyUnits += 1
            return outputs
        }
        for sample in videoTimeline.push(timestamp: timestamp, isSync: unit.isKeyframe, data: data,
                                         frontRoom: writesInPlace ? frontRoom : nil) {
            outputs += take(video: sample)
        }
        updateTimelineStatistics()
        return outputs
    }

    /// Audio frames before the audio origin, or before the first video keyframe's time, are dropped.
    public mutating func appendAudio(_ data: ByteBuffer, timestamp: Int64) -> [Output] {
        guard !finished, audioTimeline != nil, let videoOrigin, let latestVideoTimestamp else {
            statistics.droppedAudioFrames += 1
            return []
        }
        if audioTimeline!.origin == nil {
            // No origin given: this frame is taken to be captured when the latest video frame was.
            let elapsed = Double(latestVideoTimestamp - videoOrigin) / Double(videoTimeline.clockRate)
            audioTimeline!.origin = timestamp - Int64((elapsed * Double(audioTimeline!.clockRate)).rounded())
        }
        audioPushed = true
        let before = audioTimeline!.statistics.droppedBeforeOrigin
        let released = audioTimeline!.push(timestamp: timestamp, isSync: true, data: data)
        statistics.droppedAudioFrames += audioTimeline!.statistics.droppedBeforeOrigin - before
        audioQueue += released
        updateTimelineStatistics()
        return []
    }

    /// New parameter sets (resolution change): closes the current fragment, emits a new init segment; decode
    /// times continue (tfdt keeps growing) so a player that re-inits keeps its timeline. Frames after it
    /// are dropped until a keyframe of the new format. The same format again changes nothing.
    public mutating func changeVideoFormat(_ format: VideoFormat) throws(MP4Error) -> [Output] {
        let track = try MP4Track(trackID: Self.videoTrackID, media: .video(format))
        guard format != videoFormat, !finished else { return [] }
        guard videoOrigin != nil else {
            // Nothing written yet: the first keyframe brings the init segment with the new format.
            videoFormat = format
            videoTrack = track
            videoTimeline = Self.makeVideoTimeline(format)
            return []
        }
        var outputs: [Output] = []
        for sample in videoTimeline.flush() { outputs += take(video: sample) }
        outputs += closeFragment(allAudio: policy == .everyFrame)
        videoFormat = format
        videoTrack = track
        Self.configureReordering(&videoTimeline, for: format)
        awaitingKeyframe = true
        outputs.append(initializationSegment())
        updateTimelineStatistics()
        return outputs
    }

    /// End of stream: releases held samples and the last fragment. After this, the bytes written form a
    /// valid file. Later calls return nothing.
    public mutating func finish() -> [Output] {
        guard !finished else { return [] }
        finished = true
        guard videoOrigin != nil else { return [] }
        var outputs: [Output] = []
        // Audio first, so that the last video fragment takes all of it.
        if audioTimeline != nil { audioQueue += audioTimeline!.flush() }
        for sample in videoTimeline.flush() { outputs += take(video: sample) }
        outputs += closeFragment(allAudio: true)
        updateTimelineStatistics()
        return outputs
    }

    // MARK: - Fragments

    /// One released video sample: cuts the fragment before it when the policy says so.
    private mutating func take(video sample: TimedSample) -> [Output] {
        var outputs: [Output] = []
        switch policy {
        case .everyFrame:
            videoRun.append(sample)
            outputs += closeFragment(allAudio: true)
        case .everyKeyframe:
            if sample.sample.isSync && !videoRun.isEmpty { outputs += closeFragment(allAudio: false) }
            videoRun.append(sample)
        case .duration(let seconds):
            if sample.sample.isSync, let first = videoRun.first,
               Double(sample.decodeTime - first.decodeTime) >= seconds * Double(videoTrack.timescale) {
                outputs += closeFragment(allAudio: false)
            }
            videoRun.append(sample)
        }
        return outputs
    }

    /// Writes the pending video run and the audio that goes with it (all of it, or what starts before the
    /// video ends) as one fragment.
    private mutating func closeFragment(allAudio: Bool) -> [Output] {
        let audioTimescale = Double(audioTrack?.timescale ?? 1)
        let videoTimescale = Double(videoTrack.timescale)
        if audioShift == nil {
            let shift = max(0, videoTimeline.statistics.presentationShift)
            audioShift = UInt64((Double(shift) / videoTimescale * audioTimescale).rounded())
        }
        let shift = audioShift ?? 0
        var audioCount = audioQueue.count
        if !allAudio {
            let videoEnd = Double(videoRun.last?.endTime ?? 0) / videoTimescale
            audioCount = audioQueue.firstIndex { Double($0.decodeTime + shift) / audioTimescale >= videoEnd }
                ?? audioQueue.count
        }
        let audio = Array(audioQueue.prefix(audioCount))
        guard !videoRun.isEmpty || !audio.isEmpty else { return [] }
        audioQueue.removeFirst(audioCount)

        var runs: [(trackID: UInt32, baseMediaDecodeTime: UInt64, samples: [MP4Sample])] = []
        if let first = videoRun.first {
            runs.append((Self.videoTrackID, first.decodeTime, videoRun.map(\.sample)))
        }
        if let first = audio.first {
            runs.append((Self.audioTrackID, first.decodeTime + shift, audio.map(\.sample)))
        }
        var inPlace: ByteBuffer?
        if writesInPlace, runs.count == 1, runs[0].trackID == Self.videoTrackID {
            inPlace = MP4Boxes.writeFragmentInPlace(sequenceNumber: sequenceNumber, run: runs[0], prefix: fragmentPrefix)
        }
        if inPlace != nil { statistics.fragmentsInPlace += 1 }
        let bytes = inPlace ?? MP4Boxes.fragment(sequenceNumber: sequenceNumber, runs: runs, prefix: fragmentPrefix)

        let videoDuration = videoRun.reduce(0.0) { $0 + Double($1.sample.duration) } / videoTimescale
        let audioDuration = audio.reduce(0.0) { $0 + Double($1.sample.duration) } / audioTimescale
        let info = FragmentInfo(
            sequenceNumber: sequenceNumber,
            startsWithKeyframe: videoRun.first?.sample.isSync ?? false,
            startTime: videoRun.first.map { Double($0.decodeTime) / videoTimescale }
                ?? Double(audio[0].decodeTime + shift) / audioTimescale,
            duration: videoRun.isEmpty ? audioDuration : videoDuration,
            videoSamples: videoRun.count,
            audioSamples: audio.count)
        statistics.fragments += 1
        statistics.videoFrames += videoRun.count
        statistics.audioFrames += audio.count
        statistics.bytes += bytes.readableBytes
        if let last = videoRun.last {
            statistics.durationSeconds = max(statistics.durationSeconds, Double(last.endTime) / videoTimescale)
        }
        if let last = audio.last {
            statistics.durationSeconds = max(statistics.durationSeconds, Double(last.endTime + shift) / audioTimescale)
        }
        sequenceNumber &+= 1
        videoRun.removeAll(keepingCapacity: true)
        return [.fragment(bytes, info)]
    }

    private mutating func initializationSegment() -> Output {
        let bytes = MP4Boxes.initializationSegment(tracks: tracks)
        statistics.bytes += bytes.readableBytes
        statistics.initializationSegments += 1
        return .initializationSegment(bytes, mimeType: mimeType)
    }

    private mutating func updateTimelineStatistics() {
        statistics.timestampGlitches = videoTimeline.statistics.timestampGlitches
            + (audioTimeline?.statistics.timestampGlitches ?? 0)
        statistics.reorderDepth = videoTimeline.statistics.reorderDepth
    }

    // MARK: - Setup

    /// H.264/H.265 over RTP use a 90 kHz clock (RFC 6184 §5.1, RFC 7798 §4.1), the track's timescale too.
    private static func makeVideoTimeline(_ format: VideoFormat) -> SampleTimeline {
        let frameDuration = format.frameRate.flatMap { $0 > 0 && $0 <= 1000 ? UInt32((90_000 / $0).rounded()) : nil }
        var timeline = SampleTimeline(timescale: 90_000, clockRate: 90_000, defaultDuration: frameDuration)
        configureReordering(&timeline, for: format)
        return timeline
    }

    /// Streams that can reorder hold enough pictures at their start to see a B-frame pyramid before the
    /// first decode time is fixed (8: a GOP-8 pyramid needs 4); the others start at once.
    private static func configureReordering(_ timeline: inout SampleTimeline, for format: VideoFormat) {
        timeline.allowsReordering = allowsReordering(format)
        timeline.startupLookahead = timeline.allowsReordering ? 8 : 1
    }

    /// The audio timescale is the output sample rate; one AAC frame lasts frameLength samples of the core
    /// sampling frequency (twice as many output samples with SBR's doubled rate).
    private static func makeAudioTimeline(_ format: AudioFormat, timescale: UInt32, clockRate: Int) -> SampleTimeline {
        var frame: UInt32?
        if let config = format.config, config.samplingFrequency > 0 {
            frame = UInt32((Double(config.frameLength) * Double(timescale) / Double(config.samplingFrequency)).rounded())
        }
        var timeline = SampleTimeline(timescale: timescale, clockRate: clockRate, defaultDuration: frame)
        timeline.allowsReordering = false
        return timeline
    }

    /// Pictures can be presented out of decode order unless the stream says they cannot: H.264 Baseline
    /// profiles have no B slices, and pic_order_cnt_type 2 (ITU-T H.264 §8.2.1.3) makes output order the
    /// decode order.
    static func allowsReordering(_ format: VideoFormat) -> Bool {
        guard format.codec == .h264 else { return true }
        if format.profileName.contains("Baseline") { return false }
        if let sps = format.parameterSets.first(where: { ($0.first ?? 0) & 0x1F == 7 }),
           let parsed = try? H264SPS(nalUnit: sps), parsed.picOrderCntType == 2 {
            return false
        }
        return true
    }

    /// The access unit as MP4 sample data: 4-byte NAL unit lengths (ISO/IEC 14496-15 §5.3.2, the avcC /
    /// hvcC lengthSizeMinusOne is 3), without access unit delimiters and without parameter sets that are
    /// already in the sample entry (for `hvc1`, ISO/IEC 14496-15 §8.4.1 wants them there only). The unit's own
    /// sample bytes when nothing is left out (no copy), with their front room; a copy otherwise (a keyframe
    /// that repeats its parameter sets: once per GOP).
    static func sampleData(_ unit: AccessUnit, format: VideoFormat) -> (ByteBuffer, SampleFrontRoom?) {
        func keeps(_ nal: ByteBuffer) -> Bool {
            guard nal.readableBytes > 0 else { return false }
            let first = nal.getInteger(at: nal.readerIndex, as: UInt8.self)!
            let type = unit.codec == .h264 ? first & 0x1F : (first >> 1) & 0x3F
            let isDelimiter = unit.codec == .h264 ? type == 9 : type == 35
            let isParameterSet = unit.codec == .h264 ? (type == 7 || type == 8) : (32...34).contains(type)
            if isDelimiter { return false }
            return !(isParameterSet && format.parameterSets.contains(where: { nal.readableBytesView.elementsEqual($0) }))
        }
        // Every frame but a keyframe that repeats its parameter sets keeps all: no array, no copy.
        if let bytes = unit.sampleBytes, unit.nalUnits.allSatisfy(keeps) {
            return (bytes, unit.frontRoom)
        }
        var filtered = unit
        filtered.nalUnits = unit.nalUnits.filter(keeps)
        return (filtered.avcc(), nil)
    }
}
