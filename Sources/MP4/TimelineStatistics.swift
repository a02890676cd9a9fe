/// What a `SampleTimeline` has seen and corrected.
public struct TimelineStatistics: Sendable, Equatable {
    /// Samples released with a decode time and a duration.
    public var samples: Int = 0
    /// Zero or backward steps (where reordering is not possible), duplicate timestamps, and jumps larger
    /// than the glitch threshold, each clamped to the running median duration.
    public var timestampGlitches: Int = 0
    /// The largest number of earlier samples (in decode order) presented after a later one: 0 without
    /// B-frames, 1 for I P B B, 2 or more for hierarchical B-frames.
    public var reorderDepth: Int = 0
    /// Samples before the origin (the file's time 0), dropped.
    public var droppedBeforeOrigin: Int = 0
    /// Ticks by which presentation times were moved later than the stream clock says, so that decode
    /// times stay at or before them: the reorder depth × the frame duration at the start (the first frame
    /// is decoded at 0 and shown at this time), plus a few frames if the reorder depth grows mid-stream.
    public var presentationShift: Int64 = 0

    public init() {}
}
