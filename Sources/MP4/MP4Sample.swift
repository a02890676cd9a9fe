import H26x
import NIOCore

/// One sample of a track run (ISO/IEC 14496-12 §8.8.8 TrackRunBox entry).
public struct MP4Sample: Sendable {
    /// Video: length-prefixed NAL units (`AccessUnit.avcc()`); audio: one raw AAC access unit.
    public var data: ByteBuffer
    /// sample_duration in the track's timescale.
    public var duration: UInt32
    /// sample_composition_time_offset: PTS − DTS, 0 without B-frames.
    public var compositionTimeOffset: Int32
    /// A sync sample (an IDR/IRAP picture; every AAC frame).
    public var isSync: Bool
    /// Free bytes in front of `data` a muxer may claim to write its fragment's header without copying `data`
    /// (``AccessUnit/frontRoom``); nil when `data` has none.
    public var frontRoom: SampleFrontRoom?

    public init(data: ByteBuffer, duration: UInt32, compositionTimeOffset: Int32 = 0, isSync: Bool,
                frontRoom: SampleFrontRoom? = nil) {
        self.data = data
        self.duration = duration
        self.compositionTimeOffset = compositionTimeOffset
        self.isSync = isSync
        self.frontRoom = frontRoom
    }

    /// ISO/IEC 14496-12 §8.8.3.1 sample_flags for this sample: a sync sample depends on no other
    /// (sample_depends_on = 2); any other depends on others (1) and sets sample_is_non_sync_sample.
    public var sampleFlags: UInt32 {
        isSync ? SampleFlags.sync : SampleFlags.nonSync
    }
}
