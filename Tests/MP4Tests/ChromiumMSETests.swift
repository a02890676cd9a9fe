import AAC
import Foundation
import H26x
import MP4
import NIOCore
import Testing

/// Headless Chromium's Media Source Extensions, the strictest consumer: the muxer's segments are appended
/// to a SourceBuffer one by one, as the live viewer does, then played. Skipped when Chromium is not
/// installed (Debian's `chromium` package); H.265 is not tried (Chromium decodes it only with
/// platform decoders).
enum Chromium {
    static let executable = FFmpegTools.find("chromium") ?? FFmpegTools.find("chromium-browser")
    static let timeout = FFmpegTools.find("timeout")
    static let available = executable != nil && timeout != nil

    /// What the page reports: "OK buffered=0.000-4.000 size=320x240 t=2.40 decoded=65 audioBytes=11613 err=none"
    /// or a line starting with UNSUPPORTED, SBERROR, VIDEOERROR or PLAYFAIL.
    struct Report {
        var line: String

        var ok: Bool { line.hasPrefix("OK ") }

        func value(_ key: String) -> String? {
            line.split(separator: " ").first { $0.hasPrefix("\(key)=") }.map { String($0.dropFirst(key.count + 1)) }
        }

        var bufferedRanges: [(Double, Double)] {
            (value("buffered") ?? "").split(separator: ",").compactMap { range in
                let ends = range.split(separator: "-").compactMap { Double($0) }
                return ends.count == 2 ? (ends[0], ends[1]) : nil
            }
        }
    }

    static func play(segments: [[UInt8]], mimeType: String) throws -> Report {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mp4tests-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("mse.html")
        try Data(html(segments: segments, mimeType: mimeType).utf8).write(to: page)
        let result = try FFmpegTools.run(try #require(timeout), [
            "-k", "5", "60", try #require(executable), "--headless", "--no-sandbox", "--disable-gpu",
            "--no-first-run", "--user-data-dir=\(directory.appendingPathComponent("profile").path)",
            "--autoplay-policy=no-user-gesture-required", "--enable-logging=stderr", "--v=0", page.absoluteString,
        ])
        let marker = "RESULT "
        let line = try #require(result.errors.split(separator: "\n").first { $0.contains(marker) },
                                "Chromium reported nothing (exit \(result.status)): \(result.errors.suffix(2000))")
        var text = String(line[line.range(of: marker)!.upperBound...])
        if let quote = text.firstIndex(of: "\"") { text = String(text[..<quote]) }
        return Report(line: text)
    }

    /// A page that appends each segment in turn, then plays from the start of what is buffered and
    /// reports after 2.5 s.
    private static func html(segments: [[UInt8]], mimeType: String) -> String {
        let list = segments.map { "'\(Data($0).base64EncodedString())'" }.joined(separator: ",\n")
        let mime = mimeType.replacingOccurrences(of: "\"", with: "\\\"")
        return """
        <!doctype html><html><body><video id="v" muted></video><script>
        const report = (s) => { console.log('RESULT ' + s); setTimeout(() => window.close(), 100); };
        const mime = "\(mime)";
        const segments = [\(list)];
        const decode = (b) => Uint8Array.from(atob(b), c => c.charCodeAt(0));
        if (!MediaSource.isTypeSupported(mime)) { report('UNSUPPORTED ' + mime); }
        else {
          const v = document.getElementById('v');
          const ms = new MediaSource();
          v.src = URL.createObjectURL(ms);
          v.onerror = () => report('VIDEOERROR ' + (v.error && v.error.message));
          ms.addEventListener('sourceopen', () => {
            const sb = ms.addSourceBuffer(mime);
            sb.onerror = () => report('SBERROR');
            let next = 0;
            const finish = () => {
              const ranges = [];
              for (let i = 0; i < sb.buffered.length; i++) ranges.push(sb.buffered.start(i).toFixed(3) + '-' + sb.buffered.end(i).toFixed(3));
              ms.endOfStream();
              if (sb.buffered.length > 0) v.currentTime = sb.buffered.start(0);
              v.play().then(() => setTimeout(() => {
                report('OK buffered=' + ranges.join(',') + ' size=' + v.videoWidth + 'x' + v.videoHeight +
                  ' t=' + v.currentTime.toFixed(2) + ' decoded=' + v.webkitDecodedFrameCount +
                  ' audioBytes=' + v.webkitAudioDecodedByteCount + ' err=' + (v.error ? v.error.code : 'none'));
              }, 2500)).catch((e) => report('PLAYFAIL ' + e));
            };
            sb.addEventListener('updateend', () => { if (next < segments.length) sb.appendBuffer(decode(segments[next++])); else finish(); });
            sb.appendBuffer(decode(segments[next++]));
          });
        }
        </script></body></html>
        """
    }
}

@Suite("Chromium MSE plays what the muxer writes", .serialized,
       .enabled(if: Chromium.available, "Chromium is not installed (apt-get install -y chromium): MSE checks skipped"))
struct ChromiumMSETests {
    @Test("live H.264 + AAC, one segment per frame: one buffered range, audio and video decoded")
    func liveWithAudio() throws {
        let stream = try VideoStream.fixture("h264_main_no_bframes.h264", codec: .h264)
        let audio = try AudioStream(adts: Fixture.bytes("aac_48k_stereo.aac"))
        var muxer = try FragmentedMP4Muxer(video: stream.format, audio: audio.format, policy: .everyFrame)
        var collected = Collected()
        var audioIndex = 0
        for (index, unit) in stream.units.enumerated() {
            collected.add(muxer.appendVideo(unit, timestamp: 1000 + Int64(index) * 3600))
            if index == 0 { muxer.setAudioOrigin(500) }
            while audioIndex < audio.frames.count, audioIndex * 1024 * 90000 <= (index + 1) * 3600 * 48000 {
                collected.add(muxer.appendAudio(audio.frames[audioIndex], timestamp: 500 + Int64(audioIndex) * 1024))
                audioIndex += 1
            }
        }
        collected.add(muxer.finish())
        let segments = [collected.initSegments[0].bytes] + collected.fragments.map(\.bytes)
        let report = try Chromium.play(segments: segments, mimeType: collected.initSegments[0].mimeType)
        #expect(report.ok, "\(report.line)")
        #expect(report.bufferedRanges.count == 1, "\(report.line)")
        #expect(abs((report.bufferedRanges.first?.0 ?? 9)) < 0.001)
        #expect(report.value("size") == "320x240")
        #expect(Double(report.value("t") ?? "") ?? 0 > 1, "playback advanced: \(report.line)")
        #expect(Int(report.value("audioBytes") ?? "") ?? 0 > 0, "audio decoded: \(report.line)")
    }

    @Test("B-frames, then a format change with a new init segment in the same SourceBuffer")
    func bFramesAndFormatChange() throws {
        let first = try VideoStream.fixture("h264_main_no_bframes.h264", codec: .h264)
        let second = try VideoStream.fixture("h264_bframes.h264", codec: .h264)
        let pts = try Fixture.integers("h264_bframes.pts")
        var muxer = try FragmentedMP4Muxer(video: second.format, policy: .everyKeyframe)
        var collected = Collected()
        for (unit, time) in zip(second.units, pts) { collected.add(muxer.appendVideo(unit, timestamp: time)) }
        collected.add(try muxer.changeVideoFormat(first.format))
        for (index, unit) in first.units.enumerated() { collected.add(muxer.appendVideo(unit, timestamp: 360_000 + Int64(index) * 3600)) }
        collected.add(muxer.finish())
        // Init segments and fragments in the order the muxer gave them.
        var segments: [[UInt8]] = []
        var initIndex = 0
        var fragmentIndex = 0
        for kind in collected.kinds {
            if kind == "init" {
                segments.append(collected.initSegments[initIndex].bytes)
                initIndex += 1
            } else {
                segments.append(collected.fragments[fragmentIndex].bytes)
                fragmentIndex += 1
            }
        }
        let report = try Chromium.play(segments: segments, mimeType: collected.initSegments[0].mimeType)
        #expect(report.ok, "\(report.line)")
        let ranges = report.bufferedRanges
        #expect(ranges.count == 1, "decode times continue across the format change: \(report.line)")
        #expect(abs((ranges.last?.1 ?? 0) - 8.0) < 0.1, "\(report.line)")
        #expect(Double(report.value("t") ?? "") ?? 0 > 1, "playback advanced: \(report.line)")
    }
}
