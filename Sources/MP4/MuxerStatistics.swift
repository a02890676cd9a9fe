/// What a `FragmentedMP4Muxer` has written so far.
public struct MuxerStatistics: Sendable, Equatable {
    /// Video samples written in fragments.
    public var videoFrames: Int = 0
    /// Audio samples written in fragments.
    public var audioFrames: Int = 0
    /// Fragments (moof + mdat) emitted.
    public var fragments: Int = 0
    /// Of those, written around the picture's bytes where they were, with no copy (`writesInPlace`).
    public var fragmentsInPlace: Int = 0
    /// Bytes emitted: initialization segments and fragments.
    public var bytes: Int = 0
    /// The end of the media written, in seconds of file time (the later of the video and audio ends).
    public var durationSeconds: Double = 0
    /// Video access units dropped because no keyframe had come yet (at the start, after a format change).
    public var droppedBeforeKeyframe: Int = 0
    /// Audio frames dropped: before the first video keyframe, before the audio origin, or without an
    /// audio track.
    public var droppedAudioFrames: Int = 0
    /// Timestamp glitches clamped by the video and audio timelines (see `SampleTimeline`).
    public var timestampGlitches: Int = 0
    /// The video's observed reorder depth (0 without B-frames).
    public var reorderDepth: Int = 0
    /// Access units with nothing left to store once access unit delimiters and the parameter sets already
    /// in the sample entry are taken out (a camera sending SPS/PPS on their own timestamp): not samples.
    public var skippedEmptyUnits: Int = 0
    /// Initialization segments emitted (1 + format changes).
    public var initializationSegments: Int = 0

    public init() {}
}
