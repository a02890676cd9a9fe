import NIOCore

/// Box-level writers for fragmented ISO BMFF files (ISO/IEC 14496-12). Pure functions: they return the
/// bytes, the caller writes them.
///
/// A fragmented file is one initialization segment (`ftyp` + `moov` with empty sample tables and an `mvex`)
/// followed by media fragments (`moof` + `mdat`), each decodable with the initialization segment alone:
/// exactly what Media Source Extensions' `SourceBuffer.appendBuffer` takes, and a valid MP4 file on disk.
public enum MP4Boxes {
    /// ftyp + moov for these tracks (empty sample tables, mvex/trex).
    public static func initializationSegment(tracks: [MP4Track]) -> ByteBuffer {
        let sorted = tracks.sorted { $0.trackID < $1.trackID }
        var buffer = ByteBufferAllocator().buffer(capacity: 1024 + sorted.reduce(0) { $0 + $1.configurationSize })
        writeFileType(into: &buffer, tracks: sorted)
        writeMovie(into: &buffer, tracks: sorted)
        return buffer
    }

    /// moof + mdat: one traf per run, runs in trackID order, data_offset pointing into the one mdat.
    /// Runs without samples are left out. `prefix`: bytes written in front of the moof (a transport's header).
    public static func fragment(
        sequenceNumber: UInt32, runs: [(trackID: UInt32, baseMediaDecodeTime: UInt64, samples: [MP4Sample])],
        prefix: FragmentPrefix? = nil
    ) -> ByteBuffer {
        writeFragment(sequenceNumber: sequenceNumber, runs: runs, prefix: prefix)
    }

    /// 'video/mp4; codecs="avc1.64001f,mp4a.40.2"' for MediaSource.isTypeSupported / addSourceBuffer
    /// (RFC 6381 §3). `audio/mp4` when there is no video track.
    public static func mimeType(tracks: [MP4Track]) -> String {
        let sorted = tracks.sorted { $0.trackID < $1.trackID }
        let type = sorted.contains(where: \.isVideo) ? "video/mp4" : "audio/mp4"
        let codecs = sorted.map(\.codecString).joined(separator: ",")
        return codecs.isEmpty ? type : "\(type); codecs=\"\(codecs)\""
    }

    /// ISO/IEC 14496-12 §4.3 FileTypeBox. Brands: iso5 (major: default-base-is-moof and tfdt),
    /// iso6, mp41, and avc1 / hvc1 for the video codec.
    static func writeFileType(into buffer: inout ByteBuffer, tracks: [MP4Track]) {
        var brands = [FourCC("iso5"), FourCC("iso6"), FourCC("mp41")]
        for track in tracks {
            guard case .video(let format) = track.media else { continue }
            let brand = format.codec == .h264 ? FourCC("avc1") : FourCC("hvc1")
            if !brands.contains(brand) { brands.append(brand) }
        }
        buffer.writeBox(FourCC("ftyp")) { box in
            box.writeInteger(FourCC("iso5").rawValue)   // major_brand
            box.writeInteger(UInt32(512))               // minor_version
            for brand in brands { box.writeInteger(brand.rawValue) }  // compatible_brands
        }
    }
}

extension MP4Track {
    /// Roughly how many bytes the sample entry's configuration takes (for buffer capacity only).
    var configurationSize: Int {
        switch media {
        case .video(let format): return 200 + format.decoderConfigurationRecord.count
        case .audio(let format): return 120 + (format.config?.bytes.count ?? 0)
        }
    }
}
