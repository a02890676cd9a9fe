import NIOCore

/// The structure of a fragmented MP4 file as found on disk: the initialization segment (`ftyp` + `moov`), its
/// tracks, and each complete `moof` + `mdat` pair, with where the file stops being whole. Used to repair a
/// file a crash cut short (keep everything up to ``completeBytes``), to index keyframes, and for playback and
/// export. Pure: it reads the bytes it is given (ISO/IEC 14496-12 §4.2 box headers, §8.8 fragments).
public struct FragmentedMP4Layout: Sendable, Equatable {
    public struct Track: Sendable, Equatable {
        public var trackID: UInt32
        /// mdhd timescale (§8.4.2).
        public var timescale: UInt32
        /// hdlr handler_type (§8.4.3): "vide" or "soun".
        public var handler: String
        /// The whole `stsd` box (§8.5.2): the codec and its parameters. Two files whose `stsd` match can be joined.
        public var sampleDescription: [UInt8]

        public init(trackID: UInt32, timescale: UInt32, handler: String, sampleDescription: [UInt8]) {
            self.trackID = trackID
            self.timescale = timescale
            self.handler = handler
            self.sampleDescription = sampleDescription
        }
    }

    public struct Fragment: Sendable, Equatable {
        /// Offset of the `moof` in the file.
        public var offset: Int
        /// Bytes of `moof` + `mdat` (and any box between them).
        public var length: Int
        public var sequenceNumber: UInt32
        public var startsWithKeyframe: Bool
        /// The video track's `tfdt` (§8.8.12), in its timescale; nil when the fragment has no video.
        public var videoDecodeTime: UInt64?
        /// The sum of the video samples' durations, in the video timescale.
        public var videoDuration: UInt64
    }

    /// Bytes of `ftyp` + `moov` (the initialization segment).
    public var initializationLength: Int
    public var tracks: [Track]
    public var fragments: [Fragment]
    /// Where the last complete fragment ends: what a repaired file keeps.
    public var completeBytes: Int
    /// Why reading stopped before the end of the bytes (a cut fragment, garbage), nil when it reached the end.
    public var stoppedBecause: String?
    /// A top-level ProducerReferenceTimeBox (§8.16.5) before the fragments: the wall clock (NTP format, RFC 5905)
    /// of a media time of the reference track. WatchBox writes one to each segment, so a file alone says when it was recorded.
    public var producerReference: (ntpTimestamp: UInt64, mediaTime: UInt64)?

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.initializationLength == rhs.initializationLength && lhs.tracks == rhs.tracks && lhs.fragments == rhs.fragments
            && lhs.completeBytes == rhs.completeBytes && lhs.stoppedBecause == rhs.stoppedBecause
            && lhs.producerReference?.ntpTimestamp == rhs.producerReference?.ntpTimestamp
            && lhs.producerReference?.mediaTime == rhs.producerReference?.mediaTime
    }

    /// ISO/IEC 14496-12 §8.16.5 ProducerReferenceTimeBox, version 1: reference_track_ID, ntp_timestamp u(64), media_time u(64).
    public static func producerReferenceTime(trackID: UInt32, ntpTimestamp: UInt64, mediaTime: UInt64) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: 32)
        buffer.writeFullBox(FourCC("prft"), version: 1, flags: 0) { box in
            box.writeInteger(trackID)
            box.writeInteger(ntpTimestamp)
            box.writeInteger(mediaTime)
        }
        return buffer
    }

    public var videoTrack: Track? { tracks.first { $0.handler == "vide" } }

    /// Reads `bytes` (a whole file or its beginning). Throws `MP4Error` when there is no usable initialization
    /// segment: such a file has nothing to keep.
    public init(_ bytes: ByteBuffer) throws(MP4Error) {
        let view = bytes.readableBytesView
        let base = view.startIndex
        let total = view.count
        var position = 0
        var movie: (start: Int, size: Int)?
        var sawFileType = false
        // Boxes up to the moov.
        while movie == nil {
            guard let header = Self.boxHeader(bytes, at: base + position, limit: base + total) else {
                throw MP4Error("the file has no complete initialization segment (ftyp + moov): there is nothing to keep")
            }
            switch header.type {
            case "ftyp": sawFileType = true
            case "moov": movie = (position, header.size)
            case "moof", "mdat": throw MP4Error("the file has media before its moov: it is not a fragmented MP4 this reader knows")
            default: break
            }
            position += header.size
        }
        guard sawFileType, let movie else { throw MP4Error("the file has no ftyp box: it is not an MP4 file") }
        initializationLength = position
        tracks = try Self.parseTracks(bytes, moovStart: base + movie.start, moovSize: movie.size)
        guard !tracks.isEmpty else { throw MP4Error("the moov has no tracks") }
        fragments = []
        completeBytes = position
        stoppedBecause = nil
        producerReference = nil
        let videoID = tracks.first { $0.handler == "vide" }?.trackID

        // moof + mdat pairs.
        while position < total {
            guard let moof = Self.boxHeader(bytes, at: base + position, limit: base + total) else {
                stoppedBecause = "a box at byte \(position) is cut short"
                break
            }
            if moof.type == "prft", fragments.isEmpty, moof.size >= 28 {
                let version = bytes.getInteger(at: base + position + 8, as: UInt8.self) ?? 0
                if let ntp = bytes.getInteger(at: base + position + 16, as: UInt64.self) {
                    let media = version == 1 ? bytes.getInteger(at: base + position + 24, as: UInt64.self)
                        : bytes.getInteger(at: base + position + 24, as: UInt32.self).map(UInt64.init)
                    if let media { producerReference = (ntp, media) }
                }
            }
            if moof.type != "moof" {
                if moof.type == "prft" || moof.type == "mfra" || moof.type == "free" || moof.type == "skip" {
                    position += moof.size
                    completeBytes = position
                    continue
                }
                stoppedBecause = "unexpected box \"\(moof.type)\" at byte \(position)"
                break
            }
            guard let mdat = Self.boxHeader(bytes, at: base + position + moof.size, limit: base + total), mdat.type == "mdat" else {
                stoppedBecause = "the fragment at byte \(position) has no complete mdat"
                break
            }
            guard let parsed = try? FragmentReader(bytes.getSlice(at: base + position, length: moof.size + mdat.size)!) else {
                stoppedBecause = "the fragment at byte \(position) cannot be read"
                break
            }
            let video = parsed.runs.first { $0.trackID == videoID }
            fragments.append(Fragment(
                offset: position, length: moof.size + mdat.size, sequenceNumber: parsed.sequenceNumber,
                startsWithKeyframe: video?.samples.first?.isSync ?? false,
                videoDecodeTime: video?.baseMediaDecodeTime,
                videoDuration: video?.samples.reduce(0) { $0 + UInt64($1.duration) } ?? 0))
            position += moof.size + mdat.size
            completeBytes = position
        }
    }

    /// The initialization segment's bytes of `bytes` (the file read by ``init(_:)``).
    public func initializationSegment(of bytes: ByteBuffer) -> ByteBuffer {
        bytes.getSlice(at: bytes.readerIndex, length: initializationLength)!
    }

    /// Whether `other` holds the same tracks with the same codec parameters (its fragments can follow ours).
    public func isCompatible(with other: FragmentedMP4Layout) -> Bool {
        tracks == other.tracks
    }

    // MARK: - Boxes

    struct BoxHeader {
        var type: String
        var size: Int
        var headerSize: Int
    }

    /// ISO/IEC 14496-12 §4.2: size u(32), type u(32), largesize u(64) when size is 1; nil when the box does
    /// not fit before `limit` or its size is impossible. A size of 0 (to the end of file) is refused.
    static func boxHeader(_ bytes: ByteBuffer, at index: Int, limit: Int) -> BoxHeader? {
        guard index + 8 <= limit, let size32 = bytes.getInteger(at: index, as: UInt32.self),
              let type = bytes.getInteger(at: index + 4, as: UInt32.self) else { return nil }
        var size = Int(size32)
        var headerSize = 8
        if size32 == 1 {
            guard index + 16 <= limit, let large = bytes.getInteger(at: index + 8, as: UInt64.self), large < UInt64(Int.max) else { return nil }
            size = Int(large)
            headerSize = 16
        }
        guard size >= headerSize, index + size <= limit else { return nil }
        return BoxHeader(type: fourCC(type), size: size, headerSize: headerSize)
    }

    static func fourCC(_ value: UInt32) -> String {
        String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }, as: UTF8.self)
    }

    /// The children of a container box's payload [start, end).
    static func children(_ bytes: ByteBuffer, from start: Int, to end: Int) throws(MP4Error) -> [(type: String, start: Int, size: Int, headerSize: Int)] {
        var result: [(String, Int, Int, Int)] = []
        var index = start
        while index < end {
            guard let header = boxHeader(bytes, at: index, limit: end) else {
                throw MP4Error("a box at byte \(index) does not fit its parent")
            }
            result.append((header.type, index, header.size, header.headerSize))
            index += header.size
        }
        return result
    }

    static func parseTracks(_ bytes: ByteBuffer, moovStart: Int, moovSize: Int) throws(MP4Error) -> [Track] {
        var tracks: [Track] = []
        for trak in try children(bytes, from: moovStart + 8, to: moovStart + moovSize) where trak.type == "trak" {
            var trackID: UInt32?
            var timescale: UInt32?
            var handler: String?
            var sampleDescription: [UInt8]?
            for child in try children(bytes, from: trak.start + trak.headerSize, to: trak.start + trak.size) {
                if child.type == "tkhd" {
                    // §8.3.2: version 1 has 64-bit times before track_ID.
                    let version = bytes.getInteger(at: child.start + 8, as: UInt8.self) ?? 0
                    trackID = bytes.getInteger(at: child.start + 12 + (version == 1 ? 16 : 8), as: UInt32.self)
                } else if child.type == "mdia" {
                    for box in try children(bytes, from: child.start + 8, to: child.start + child.size) {
                        if box.type == "mdhd" {
                            let version = bytes.getInteger(at: box.start + 8, as: UInt8.self) ?? 0
                            timescale = bytes.getInteger(at: box.start + 12 + (version == 1 ? 16 : 8), as: UInt32.self)
                        } else if box.type == "hdlr" {
                            // §8.4.3: version/flags, pre_defined u(32), handler_type.
                            handler = bytes.getInteger(at: box.start + 16, as: UInt32.self).map(fourCC)
                        } else if box.type == "minf" {
                            for minf in try children(bytes, from: box.start + 8, to: box.start + box.size) where minf.type == "stbl" {
                                for stbl in try children(bytes, from: minf.start + 8, to: minf.start + minf.size) where stbl.type == "stsd" {
                                    sampleDescription = bytes.getBytes(at: stbl.start, length: stbl.size)
                                }
                            }
                        }
                    }
                }
            }
            guard let trackID, let timescale, timescale > 0, let handler, let sampleDescription else {
                throw MP4Error("a track of the moov lacks its tkhd, mdhd, hdlr or stsd")
            }
            tracks.append(Track(trackID: trackID, timescale: timescale, handler: handler, sampleDescription: sampleDescription))
        }
        return tracks
    }
}
