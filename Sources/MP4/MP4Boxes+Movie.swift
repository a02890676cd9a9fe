import AAC
import H26x
import NIOCore

/// The `moov` of a fragmented file (ISO/IEC 14496-12 §8.2–§8.8): every track with empty sample tables,
/// and `mvex` announcing that the samples come in movie fragments. Durations are 0 (unknown up front).
extension MP4Boxes {
    /// Ticks per second of the movie header; only durations use it, and those are 0.
    static let movieTimescale: UInt32 = 1000

    static func writeMovie(into buffer: inout ByteBuffer, tracks: [MP4Track]) {
        buffer.writeBox(FourCC("moov")) { moov in
            writeMovieHeader(into: &moov, nextTrackID: (tracks.map(\.trackID).max() ?? 0) + 1)
            for track in tracks { writeTrack(into: &moov, track) }
            moov.writeBox(FourCC("mvex")) { mvex in
                for track in tracks { writeTrackExtends(into: &mvex, trackID: track.trackID) }
            }
        }
    }

    /// ISO/IEC 14496-12 §8.2.2 MovieHeaderBox, version 0.
    static func writeMovieHeader(into buffer: inout ByteBuffer, nextTrackID: UInt32) {
        buffer.writeFullBox(FourCC("mvhd"), version: 0, flags: 0) { box in
            box.writeInteger(UInt32(0))              // creation_time
            box.writeInteger(UInt32(0))              // modification_time
            box.writeInteger(movieTimescale)         // timescale
            box.writeInteger(UInt32(0))              // duration: unknown (fragmented)
            box.writeInteger(UInt32(0x0001_0000))    // rate 1.0
            box.writeInteger(UInt16(0x0100))         // volume 1.0
            box.writeZeros(2 + 4 * 2)                // reserved
            box.writeUnityMatrix()
            box.writeZeros(4 * 6)                    // pre_defined
            box.writeInteger(nextTrackID)            // next_track_ID
        }
    }

    /// ISO/IEC 14496-12 §8.3.1 TrackBox.
    static func writeTrack(into buffer: inout ByteBuffer, _ track: MP4Track) {
        buffer.writeBox(FourCC("trak")) { trak in
            writeTrackHeader(into: &trak, track)
            trak.writeBox(FourCC("mdia")) { mdia in
                writeMediaHeader(into: &mdia, timescale: track.timescale)
                writeHandler(into: &mdia, isVideo: track.isVideo)
                mdia.writeBox(FourCC("minf")) { minf in
                    if track.isVideo {
                        // §12.1.2 VideoMediaHeaderBox: flags 1, graphicsmode 0 (copy), opcolor 0.
                        minf.writeFullBox(FourCC("vmhd"), version: 0, flags: 1) { $0.writeZeros(2 + 3 * 2) }
                    } else {
                        // §12.2.2 SoundMediaHeaderBox: balance 0 (centre), reserved.
                        minf.writeFullBox(FourCC("smhd"), version: 0, flags: 0) { $0.writeZeros(4) }
                    }
                    writeDataInformation(into: &minf)
                    writeSampleTable(into: &minf, track)
                }
            }
        }
    }

    /// ISO/IEC 14496-12 §8.3.2 TrackHeaderBox, version 0, flags track_enabled (1) | track_in_movie (2).
    static func writeTrackHeader(into buffer: inout ByteBuffer, _ track: MP4Track) {
        buffer.writeFullBox(FourCC("tkhd"), version: 0, flags: 0x000003) { box in
            box.writeInteger(UInt32(0))              // creation_time
            box.writeInteger(UInt32(0))              // modification_time
            box.writeInteger(track.trackID)          // track_ID
            box.writeInteger(UInt32(0))              // reserved
            box.writeInteger(UInt32(0))              // duration: unknown (fragmented)
            box.writeZeros(4 * 2)                    // reserved
            box.writeInteger(UInt16(0))              // layer
            box.writeInteger(UInt16(0))              // alternate_group
            box.writeInteger(UInt16(track.isVideo ? 0 : 0x0100))  // volume: 1.0 for audio
            box.writeInteger(UInt16(0))              // reserved
            box.writeUnityMatrix()
            var width: UInt32 = 0
            var height: UInt32 = 0
            if case .video(let format) = track.media {
                width = UInt32(format.width) << 16   // 16.16 fixed point
                height = UInt32(format.height) << 16
            }
            box.writeInteger(width)
            box.writeInteger(height)
        }
    }

    /// ISO/IEC 14496-12 §8.4.2 MediaHeaderBox, version 0, language "und" (ISO 639-2/T, packed as three
    /// 5-bit values of character − 0x60).
    static func writeMediaHeader(into buffer: inout ByteBuffer, timescale: UInt32) {
        buffer.writeFullBox(FourCC("mdhd"), version: 0, flags: 0) { box in
            box.writeInteger(UInt32(0))              // creation_time
            box.writeInteger(UInt32(0))              // modification_time
            box.writeInteger(timescale)
            box.writeInteger(UInt32(0))              // duration: unknown (fragmented)
            box.writeInteger(packedLanguage("und"))  // pad (1) + language (15)
            box.writeInteger(UInt16(0))              // pre_defined
        }
    }

    /// ISO/IEC 14496-12 §8.4.2 language: each character as (c − 0x60) in 5 bits.
    static func packedLanguage(_ code: StaticString) -> UInt16 {
        var value: UInt16 = 0
        code.withUTF8Buffer { bytes in
            for byte in bytes { value = (value << 5) | (UInt16(byte) - 0x60) & 0x1F }
        }
        return value
    }

    /// ISO/IEC 14496-12 §8.4.3 HandlerBox: 'vide' or 'soun', with a null-terminated name.
    static func writeHandler(into buffer: inout ByteBuffer, isVideo: Bool) {
        buffer.writeFullBox(FourCC("hdlr"), version: 0, flags: 0) { box in
            box.writeInteger(UInt32(0))              // pre_defined
            box.writeInteger(isVideo ? FourCC("vide").rawValue : FourCC("soun").rawValue)
            box.writeZeros(4 * 3)                    // reserved
            box.writeString(isVideo ? "VideoHandler" : "SoundHandler")
            box.writeInteger(UInt8(0))
        }
    }

    /// ISO/IEC 14496-12 §8.7.1–§8.7.2: one self-contained data reference ('url ' with flags 1: the media
    /// is in the same file).
    static func writeDataInformation(into buffer: inout ByteBuffer) {
        buffer.writeBox(FourCC("dinf")) { dinf in
            dinf.writeFullBox(FourCC("dref"), version: 0, flags: 0) { dref in
                dref.writeInteger(UInt32(1))         // entry_count
                dref.writeFullBox(FourCC("url "), version: 0, flags: 1) { _ in }
            }
        }
    }

    /// ISO/IEC 14496-12 §8.5.1 SampleTableBox with the sample description and empty tables (the samples
    /// are in the fragments): stts §8.6.1.2, stsc §8.7.4, stsz §8.7.3.2, stco §8.7.5.
    static func writeSampleTable(into buffer: inout ByteBuffer, _ track: MP4Track) {
        buffer.writeBox(FourCC("stbl")) { stbl in
            stbl.writeFullBox(FourCC("stsd"), version: 0, flags: 0) { stsd in
                stsd.writeInteger(UInt32(1))         // entry_count
                switch track.media {
                case .video(let format): writeVisualSampleEntry(into: &stsd, format)
                case .audio(let format): writeAudioSampleEntry(into: &stsd, format)
                }
            }
            stbl.writeFullBox(FourCC("stts"), version: 0, flags: 0) { $0.writeInteger(UInt32(0)) }
            stbl.writeFullBox(FourCC("stsc"), version: 0, flags: 0) { $0.writeInteger(UInt32(0)) }
            stbl.writeFullBox(FourCC("stsz"), version: 0, flags: 0) { box in
                box.writeInteger(UInt32(0))          // sample_size: sizes vary
                box.writeInteger(UInt32(0))          // sample_count
            }
            stbl.writeFullBox(FourCC("stco"), version: 0, flags: 0) { $0.writeInteger(UInt32(0)) }
        }
    }

    /// ISO/IEC 14496-12 §8.8.3 TrackExtendsBox: defaults that every run overrides per sample.
    static func writeTrackExtends(into buffer: inout ByteBuffer, trackID: UInt32) {
        buffer.writeFullBox(FourCC("trex"), version: 0, flags: 0) { box in
            box.writeInteger(trackID)
            box.writeInteger(UInt32(1))              // default_sample_description_index
            box.writeInteger(UInt32(0))              // default_sample_duration
            box.writeInteger(UInt32(0))              // default_sample_size
            box.writeInteger(UInt32(0))              // default_sample_flags
        }
    }
}
