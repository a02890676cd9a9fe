import NIOCore

/// Joins fragments of several recorded files into one continuous fragmented MP4 without re-encoding: each
/// fragment is read back (``FragmentReader``) and written again with a new `mfhd` sequence number (from 1)
/// and a new `tfdt` (ISO/IEC 14496-12 §8.8.5, §8.8.12), so that the output's time runs on without the gaps
/// between files. Samples at or after the end time are left out; audio before a file's first video sample,
/// or overlapping audio already written, too. Pure.
///
/// Use: ``beginFile()`` before each file's first fragment (the caller starts each file at a keyframe), then
/// ``rewrite(_:until:)`` for its fragments in order.
public struct ExportTimeline: Sendable {
    public let tracks: [FragmentedMP4Layout.Track]
    private var sequenceNumber: UInt32 = 1
    /// Output seconds where the current file's origin lands.
    private var fileOutputStart = 0.0
    /// The current file's origin: the media time (s) of its first video sample written.
    private var fileOrigin: Double?
    /// Output seconds of video written so far.
    public private(set) var duration = 0.0
    /// The next decode time each track may use (its timescale), so decode times never go back.
    private var trackEnd: [UInt32: UInt64] = [:]
    /// A sample was left out for being at or after the end time: nothing later is wanted.
    public private(set) var reachedEnd = false
    public private(set) var fragmentsWritten = 0

    public init(tracks: [FragmentedMP4Layout.Track]) {
        self.tracks = tracks
    }

    public mutating func beginFile() {
        fileOutputStart = duration
        fileOrigin = nil
    }

    /// The fragment with the new numbering and times, nil when none of its samples is kept. `until`: media
    /// seconds (this file's clock) from which samples are dropped.
    public mutating func rewrite(_ fragment: FragmentReader, until end: Double? = nil) -> ByteBuffer? {
        let videoID = tracks.first { $0.handler == "vide" }?.trackID
        let scales = Dictionary(tracks.map { ($0.trackID, Double($0.timescale)) }) { first, _ in first }
        if fileOrigin == nil {
            guard let video = fragment.runs.first(where: { $0.trackID == videoID && !$0.samples.isEmpty }),
                  let scale = scales[video.trackID] else { return nil }
            fileOrigin = Double(video.baseMediaDecodeTime) / scale
        }
        guard let origin = fileOrigin else { return nil }
        var runs: [(trackID: UInt32, baseMediaDecodeTime: UInt64, samples: [MP4Sample])] = []
        var videoEnd: Double?
        for run in fragment.runs {
            guard let scale = scales[run.trackID] else { continue }
            var time = run.baseMediaDecodeTime
            var kept: [MP4Sample] = []
            var base: UInt64?
            let floor = trackEnd[run.trackID] ?? 0
            for sample in run.samples {
                let seconds = Double(time) / scale
                time += UInt64(sample.duration)
                if let end, seconds >= end - 1e-9 {
                    reachedEnd = true
                    break
                }
                if seconds < origin - 1e-9 { continue }
                let outputTicks = UInt64(((fileOutputStart + seconds - origin) * scale).rounded())
                if base == nil {
                    if run.trackID != videoID, outputTicks + UInt64(sample.duration / 2) < floor { continue }
                    base = max(outputTicks, floor)
                }
                kept.append(sample)
            }
            guard let base, !kept.isEmpty else { continue }
            let total = kept.reduce(UInt64(0)) { $0 + UInt64($1.duration) }
            trackEnd[run.trackID] = base + total
            if run.trackID == videoID { videoEnd = Double(base + total) / scale }
            runs.append((run.trackID, base, kept))
        }
        guard !runs.isEmpty else { return nil }
        if let videoEnd { duration = max(duration, videoEnd) }
        let bytes = MP4Boxes.fragment(sequenceNumber: sequenceNumber, runs: runs)
        sequenceNumber &+= 1
        fragmentsWritten += 1
        return bytes
    }
}
