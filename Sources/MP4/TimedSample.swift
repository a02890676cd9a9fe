/// A sample with its decode time: what `SampleTimeline` releases and a track run is made of.
public struct TimedSample: Sendable {
    /// The sample's decode time in the track's timescale, counted from the file's time 0 (tfdt of the
    /// run it starts, ISO/IEC 14496-12 §8.8.12).
    public var decodeTime: UInt64
    public var sample: MP4Sample

    public init(decodeTime: UInt64, sample: MP4Sample) {
        self.decodeTime = decodeTime
        self.sample = sample
    }

    /// decodeTime + duration: where the next sample's decode time starts.
    public var endTime: UInt64 { decodeTime + UInt64(sample.duration) }

    /// Presentation time in the track's timescale (decode time + composition offset).
    public var presentationTime: Int64 { Int64(decodeTime) + Int64(sample.compositionTimeOffset) }
}
