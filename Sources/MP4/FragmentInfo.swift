/// What one emitted fragment (moof + mdat) holds: for GOP caches, file indexes and logs.
public struct FragmentInfo: Sendable, Equatable {
    /// mfhd sequence_number (ISO/IEC 14496-12 §8.8.5), from 1, increasing across format changes.
    public var sequenceNumber: UInt32
    /// The first video sample is a sync sample: a player can start here.
    public var startsWithKeyframe: Bool
    /// Seconds, video decode time of the first sample (file time); the audio's when there is no video.
    public var startTime: Double
    /// Seconds of video in the fragment (of audio when it has no video).
    public var duration: Double
    public var videoSamples: Int
    public var audioSamples: Int

    public init(sequenceNumber: UInt32, startsWithKeyframe: Bool, startTime: Double, duration: Double,
                videoSamples: Int, audioSamples: Int) {
        self.sequenceNumber = sequenceNumber
        self.startsWithKeyframe = startsWithKeyframe
        self.startTime = startTime
        self.duration = duration
        self.videoSamples = videoSamples
        self.audioSamples = audioSamples
    }
}
