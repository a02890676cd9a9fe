// Real parameter sets and RTP packets, and what independent tools say about them.
//
// Generated on the development machine with Debian's ffmpeg 5.1 (libx264, libx265) and GStreamer 1.22:
//   ffmpeg -f lavfi -i testsrc2=size=WxH:rate=R -frames:v 10 -c:v libx264|libx265 [-pix_fmt ...] clip.h264|.h265
// Expected width/height/frame rate/profile/level: `ffprobe -show_streams` on the same clip.
// Expected avcC/hvcC: the box ffmpeg writes for `ffmpeg -i clip -c copy -tag:v avc1|hvc1 clip.mp4`.
// Expected codec strings: GStreamer's gst_codec_utils_caps_get_mime_codec() on the clip's caps
// (upper-case hex for avc1 there; RFC 6381 allows either, WatchBox writes lower case).
// ffprobe names every H.265 range-extensions profile "Rext"; the names here are those of Table A.2.
//
// Clips: h264_1080p25_high444_cqm (-pix_fmt yuv444p -x264-params cqm=jvt), h264_1080i25_interlaced
// (-flags +ildct+ilme -x264-params tff=1: frame_mbs_only_flag 0), h264_*gray (-pix_fmt gray: 4:0:0),
// h264_716p2997_hrd (1276x716 at 30000/1001 with nal-hrd=vbr), h264_600p50_high422_10 (yuv422p10le),
// h265_360p_gray (gray), h265_1080p25_444 (yuv444p), h265_1080p30_main10 (yuv420p10le),
// h265_716p2997_crop_tl (1276x716: conformance window; temporal-layers=1: two sub-layers; hrd=1;
// scaling-list=default).
import Testing

struct H264Fixture: Sendable, CustomTestStringConvertible {
    var name: String
    var sps: [UInt8]
    var pps: [UInt8]
    var width: Int
    var height: Int
    var frameRate: Double
    var profileName: String
    var level: String
    var codecString: String
    var avcC: [UInt8]
    var testDescription: String { name }
}

struct H265Fixture: Sendable, CustomTestStringConvertible {
    var name: String
    var vps: [UInt8]
    var sps: [UInt8]
    var pps: [UInt8]
    var width: Int
    var height: Int
    var frameRate: Double
    var profileName: String
    var level: String
    var codecString: String
    var hvcC: [UInt8]
    var testDescription: String { name }
}

/// Bytes from a hex string (whitespace allowed).
func hex(_ string: String) -> [UInt8] {
    let digits = string.filter { !$0.isWhitespace }.map { UInt8(String($0), radix: 16)! }
    return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
}

/// `bytes` with the given positions replaced.
func patched(_ bytes: [UInt8], _ changes: [Int: UInt8]) -> [UInt8] {
    var out = bytes
    for (index, value) in changes { out[index] = value }
    return out
}

enum Fixtures {
    static let h264: [H264Fixture] = [
        H264Fixture(
            name: "h264_720p25_high",
            sps: hex("6764001facd9405005bb011000000300100000030320f1831960"),
            pps: hex("68ebe3cb22c0"),
            width: 1280, height: 720, frameRate: 25, profileName: "High", level: "3.1", codecString: "avc1.64001f",
            avcC: hex("0164001fffe1001a6764001facd9405005bb011000000300100000030320f183196001000668ebe3cb22c0fdf8f800")),
        H264Fixture(
            name: "h264_1080p30_main",
            sps: hex("674d4028eca03c0113f2e022000003000200000300781e30632c"),
            pps: hex("68ebe3cb20"),
            width: 1920, height: 1080, frameRate: 30, profileName: "Main", level: "4.0", codecString: "avc1.4d4028",
            avcC: hex("014d4028ffe1001a674d4028eca03c0113f2e022000003000200000300781e30632c01000568ebe3cb20")),
        H264Fixture(
            name: "h264_480p15_baseline",
            sps: hex("6742c016d900a03db0110000030001000003001e0f162e48"),
            pps: hex("68cb83cb20"),
            width: 640, height: 480, frameRate: 15, profileName: "Constrained Baseline", level: "2.2", codecString: "avc1.42c016",
            avcC: hex("0142c016ffe100186742c016d900a03db0110000030001000003001e0f162e4801000568cb83cb20")),
        H264Fixture(
            name: "h264_1080p25_high444_cqm",
            sps: hex("67f40028919b280f0044fc4e0220000003002000000641e30632c0"),
            pps: hex("68ebe3c44c000440"),
            width: 1920, height: 1080, frameRate: 25, profileName: "High 4:4:4 Predictive", level: "4.0", codecString: "avc1.f40028",
            avcC: hex("01f40028ffe1001b67f40028919b280f0044fc4e0220000003002000000641e30632c001000868ebe3c44c000440fff8" +
                      "f800")),
        H264Fixture(
            name: "h264_1080i25_interlaced",
            sps: hex("67640028acd94078044fde0220000003002000000643e2c5b2c0"),
            pps: hex("68fba3cb22c0"),
            width: 1920, height: 1080, frameRate: 25, profileName: "High", level: "4.0", codecString: "avc1.640028",
            avcC: hex("01640028ffe1001a67640028acd94078044fde0220000003002000000643e2c5b2c001000668fba3cb22c0fdf8f800")),
        H264Fixture(
            name: "h264_cif_gray",
            sps: hex("6764000cf36505825b016c80000003008000000a078a14cb"),
            pps: hex("68ebe3cb3002c0"),
            width: 352, height: 288, frameRate: 10, profileName: "High", level: "1.2", codecString: "avc1.64000c",
            avcC: hex("0164000cffe100186764000cf36505825b016c80000003008000000a078a14cb01000768ebe3cb3002c0fcf8f800")),
        H264Fixture(
            name: "h264_odd_gray",
            sps: hex("6764000df36505825e79f016c80000030008000003014078a14cb0"),
            pps: hex("68ebe3cb22c0"),
            width: 346, height: 282, frameRate: 20, profileName: "High", level: "1.3", codecString: "avc1.64000d",
            avcC: hex("0164000dffe1001b6764000df36505825e79f016c80000030008000003014078a14cb001000668ebe3cb22c0fcf8f800")),
        H264Fixture(
            name: "h264_716p2997_hrd",
            sps: hex("6764001facd9405005beef011000003e90000ea60626000f424001e84a4c30078c18cb"),
            pps: hex("68ebe3cb22c0"),
            width: 1276, height: 716, frameRate: 30000.0 / 1001.0, profileName: "High", level: "3.1", codecString: "avc1.64001f",
            avcC: hex("0164001fffe100236764001facd9405005beef011000003e90000ea60626000f424001e84a4c30078c18cb01000668eb" +
                      "e3cb22c0fdf8f800")),
        H264Fixture(
            name: "h264_600p50_high422_10",
            sps: hex("677a001fb6cd940c8137e27011000003000100000300640f183196"),
            pps: hex("68ebe3cb22c0"),
            width: 800, height: 600, frameRate: 50, profileName: "High 4:2:2", level: "3.1", codecString: "avc1.7a001f",
            avcC: hex("017a001fffe1001b677a001fb6cd940c8137e27011000003000100000300640f18319601000668ebe3cb22c0fefafa00")),
    ]

    static let h265: [H265Fixture] = [
        H265Fixture(
            name: "h265_720p25_main",
            vps: hex("40010c01ffff01600000030090000003000003005d959809"),
            sps: hex("42010101600000030090000003000003005da00280802d165959a4932bc05a020000030002000003003210"),
            pps: hex("4401c172b46240"),
            width: 1280, height: 720, frameRate: 25, profileName: "Main", level: "3.1", codecString: "hvc1.1.6.L93.90",
            hvcC: hex("0101600000009000000000005df000fcfdf8f800000f03a00001001840010c01ffff0160000003009000000300000300" +
                      "5d959809a10001002b42010101600000030090000003000003005da00280802d165959a4932bc05a0200000300020000" +
                      "03003210a2000100074401c172b46240")),
        H265Fixture(
            name: "h265_1080p30_main10",
            vps: hex("40010c01ffff022000000300900000030000030078959809"),
            sps: hex("420101022000000300900000030000030078a003c08010e4d96566924caf016808000003000800000300f040"),
            pps: hex("4401c172b46240"),
            width: 1920, height: 1080, frameRate: 30, profileName: "Main 10", level: "4.0", codecString: "hvc1.2.4.L120.90",
            hvcC: hex("01022000000090000000000078f000fcfdfafa00000f03a00001001840010c01ffff0220000003009000000300000300" +
                      "78959809a10001002c420101022000000300900000030000030078a003c08010e4d96566924caf016808000003000800" +
                      "000300f040a2000100074401c172b46240")),
        H265Fixture(
            name: "h265_360p_gray",
            vps: hex("40010c01ffff0408000003009fc800000300003f959809"),
            sps: hex("4201010408000003009fc800000300003fc0140805a596566924caf016c080000003008000000604"),
            pps: hex("4401c172b46240"),
            width: 640, height: 360, frameRate: 12, profileName: "Monochrome", level: "2.1", codecString: "hvc1.4.10.L63.9F.C8",
            hvcC: hex("0104080000009fc8000000003ff000fcfcf8f800000f03a00001001740010c01ffff0408000003009fc800000300003f" +
                      "959809a1000100284201010408000003009fc800000300003fc0140805a596566924caf016c080000003008000000604" +
                      "a2000100074401c172b46240")),
        H265Fixture(
            name: "h265_1080p25_444",
            vps: hex("40010c01ffff0408000003009e08000003000078959809"),
            sps: hex("4201010408000003009e0800000300007890007810021cb2cacd24995e02d0100000030010000003019080"),
            pps: hex("4401c172860c4624"),
            width: 1920, height: 1080, frameRate: 25, profileName: "Main 4:4:4", level: "4.0", codecString: "hvc1.4.10.L120.9E.08",
            hvcC: hex("0104080000009e080000000078f000fcfff8f800000f03a00001001740010c01ffff0408000003009e08000003000078" +
                      "959809a10001002b4201010408000003009e0800000300007890007810021cb2cacd24995e02d0100000030010000003" +
                      "019080a2000100084401c172860c4624")),
        H265Fixture(
            name: "h265_716p2997_crop_tl",
            vps: hex("40010c02ffff01600000030090000003000003005d00009598acc048"),
            sps: hex("42010201600000030090000003000003005d0000a00280802d1dde59598acd249caf01680800001f480003a98304e4b3" +
                     "70007a12000f425c001e848003d091"),
            pps: hex("4401c172b46240"),
            width: 1276, height: 716, frameRate: 30000.0 / 1001.0, profileName: "Main", level: "3.1", codecString: "hvc1.1.6.L93.90",
            // ffmpeg 5.1's hvcC writer (libavformat/hevc.c skip_hrd_parameters) does not infer
            // fixed_pic_rate_within_cvs_flag = 1 when fixed_pic_rate_general_flag is 1 (H.265 E.3.2),
            // loses its place in this SPS's HRD parameters and writes min_spatial_segmentation_idc 2 and
            // parallelismType 3. ffmpeg's own syntax parser (trace_headers) reads bitstream_restriction_flag
            // 0: the correct bytes 14 and 15 are 0x00 and 0xFC (no restriction, parallelism unknown).
            hvcC: patched(hex("0101600000009000000000005df002fffdf8f800001303a00001001c40010c02ffff0160000003009000000300000300" +
                      "5d00009598acc048a10001003f42010201600000030090000003000003005d0000a00280802d1dde59598acd249caf01" +
                      "680800001f480003a98304e4b370007a12000f425c001e848003d091a2000100074401c172b46240"), [14: 0x00, 15: 0xFC])),
    ]

    // RTP streams from GStreamer's payloaders, framed as RFC 4571 (16-bit length, then the RTP packet)
    // by rtpstreampay, and the Annex B stream that went into the payloader (a tee):
    //   videotestsrc num-buffers=6 pattern=ball ! video/x-raw,format=I420,width=176,height=144,framerate=10/1
    //   ! x264enc key-int-max=3 bframes=0 pass=quant quantizer=40 speed-preset=ultrafast aud=true
    //   ! video/x-h264,profile=baseline ! h264parse config-interval=-1 ! tee
    //   ! rtph264pay mtu=120 aggregate-mode=zero-latency seqnum-offset=65530 ! rtpstreampay
    // 6 pictures (IDR, P, P, IDR, P, P); 19 packets: STAP-A (AUD+SPS+PPS+SEI..., AUD+slice) and FU-A;
    // the sequence numbers wrap from 65535 to 0.
    static let h264RTPStream = "ADWAYP/69Vl2TpwTx6h4AAIJEAAbZ0LACtoLE7AWoMDA1KAAAAMAIAAAAwKR4kTUAAVozgOcgAB4gGD/+/VZdk6cE8eoHIYF" +
        "//8l3EXpvebZSLeWLNgg2SPu73gyNjQgLSBjb3JlIDE2NCByMzA5NSBiYWVlNDAwIC0gSC4yNjQvTVBFRy00IEFWQyBjb2Rl" +
        "YyAtIENvcHlsZWZ0IDIwMDMtMjAyMiAtIGh0dHA6Ly93AHiAYP/89Vl2TpwTx6gcBnd3LnZpZGVvbGFuLm9yZy94MjY0Lmh0" +
        "bWwgLSBvcHRpb25zOiBjYWJhYz0wIHJlZj0xIGRlYmxvY2s9MDowOjAgYW5hbHlzZT0wOjAgbWU9ZGlhIHN1Ym1lPTAgcHN5" +
        "PTEgcHN5X3JkPTEAeIBg//31WXZOnBPHqBwGLjAwOjAuMDAgbWl4ZWRfcmVmPTAgbWVfcmFuZ2U9MTYgY2hyb21hX21lPTEg" +
        "dHJlbGxpcz0wIDh4OGRjdD0wIGNxbT0wIGRlYWR6b25lPTIxLDExIGZhc3RfcHNraXA9MSBjaHJvbWFfcQB4gGD//vVZdk6c" +
        "E8eoHAZwX29mZnNldD0wIHRocmVhZHM9MyBsb29rYWhlYWRfdGhyZWFkcz0xIHNsaWNlZF90aHJlYWRzPTAgbnI9MCBkZWNp" +
        "bWF0ZT0xIGludGVybGFjZWQ9MCBibHVyYXlfY29tcGF0PTAgY29uAHiAYP//9Vl2TpwTx6gcBnN0cmFpbmVkX2ludHJhPTAg" +
        "YmZyYW1lcz0wIHdlaWdodHA9MCBrZXlpbnQ9MyBrZXlpbnRfbWluPTEgc2NlbmVjdXQ9MCBpbnRyYV9yZWZyZXNoPTAgcmM9" +
        "Y3FwIG1idHJlZT0wIHFwPTQAJIBgAAD1WXZOnBPHqBxGMCBpcF9yYXRpbz0xLjQwIGFxPTAAgAB4gGAAAfVZdk6cE8eofIWI" +
        "hDomKAAIGMnJycnJycnJycnXXXXXXXXXXXXXXXXXXXXXXXXXXHYACaQuxXcrAThLLX8OuLh1RAMzam7jXBu5jB8fgCKB/hUE" +
        "G1NlAfwwQ7hjiHoNAcYwS8Ev1EtRL8dgAJExupU7IB+GAHiAYAAC9Vl2TpwTx6h8BbhDMhufodrg1GxlmzG3CyyNsnfffXXX" +
        "XHYAimDC2ghB1SiPowcNIwXPBc44hwg2GgUXNRc1x2AIUgCC28pB1fGC0kYYAy1N+UAfcwcG6e11111111x+AAkyMbt0KwHw" +
        "Y6QmNm3S0zbGonMAZoDgAAP1WXZOnBPHqHxFI1/Pw1ifOPwBCgC3CvKNqb/jBTwCgDbh5QB8saDMPwjgBa2fgmYIPiUDr5+f" +
        "mwS+geovP+/weih79//rrrrrrrrk77666666666666666666666666668AAxgOAABPVZmXacE8eoWAACCTAAHkGaIoE2CHhk" +
        "I+JNw8exMI6hETE/4vyZmoTPLqlBNABCgOAABfVZvJ6cE8eoWAACCTAAL0GaQoEwT///G+wiETS0B/TwiESwivHfEwiGcT8I" +
        "hGJhEI8RN417EiS9b5sBXhyAADWAYAAG9VnfxpwTx6h4AAIJEAAbZ0LACtoLE7AWoMDA1KAAAAMAIAAAAwKR4kTUAAVozgOc" +
        "gAB4gGAAB/VZ38acE8eofIWIgg6JigACBjJycnJycnJycnJ111111111111111111111111111x2AAlNYIOuLlRRayv/hAAC" +
        "vMag6MqnLHYACenAxVTULY1TP/CyOYFQAcYwxmua666666647AAScCqLDhymS00z+EAIAHiAYAAI9VnfxpwTx6h8BTNvhr40" +
        "w7cz3AjgAPuHG/aGgYxwIQT+tPp2dnZ2f07Oz/x+AM0LsrOzkUpC9deGc1wMGGi4VsSb/jsAEwN8YmWKzd1PgP8F7OAAw+uu" +
        "uuuuuPwAXoD+EJIawko9XvbAnbkHZA/fGJD9x2AAeIBgAAn1Wd/GnBPHqHwFA6IyMiMmxKzve/qeyKIRY9Gv58dgARABrsxC" +
        "FH9zn//wTpBewDXCTkDUGHYAEANUQM6RDlThBGm/fAAYXwAGHy8nfXXXXLx+AZwEj1yEchu1gqy9nFAA3AdAW//H4AEDCO0k" +
        "Y52OOGQZFwAqgOAACvVZ38acE8eofEXYeXA9LgPf/frrrrrrrk777766666666666668AC6A4AAL9VoC7pwTx6hYAAIJMAAb" +
        "QZoigT4Z4kIxMIhmonwiEYiJERnJmyl75MhuAEKA4AAM9VomFpwTx6hYAAIJMAAvQZpCgTn8/En+EQiJ8sC/8SEXK34RCMQf" +
        "4nn+EQy8zFRMIhEnJhqYm+bF9xjP4ag="
    static let h264AnnexB = "AAAAAQkQAAAAAWdCwAraCxOwFqDAwNSgAAADACAAAAMCkeJE1AAAAAFozgOcgAAAAAEGBf//JdxF6b3m2Ui3lizYINkj7u94" +
        "MjY0IC0gY29yZSAxNjQgcjMwOTUgYmFlZTQwMCAtIEguMjY0L01QRUctNCBBVkMgY29kZWMgLSBDb3B5bGVmdCAyMDAzLTIw" +
        "MjIgLSBodHRwOi8vd3d3LnZpZGVvbGFuLm9yZy94MjY0Lmh0bWwgLSBvcHRpb25zOiBjYWJhYz0wIHJlZj0xIGRlYmxvY2s9" +
        "MDowOjAgYW5hbHlzZT0wOjAgbWU9ZGlhIHN1Ym1lPTAgcHN5PTEgcHN5X3JkPTEuMDA6MC4wMCBtaXhlZF9yZWY9MCBtZV9y" +
        "YW5nZT0xNiBjaHJvbWFfbWU9MSB0cmVsbGlzPTAgOHg4ZGN0PTAgY3FtPTAgZGVhZHpvbmU9MjEsMTEgZmFzdF9wc2tpcD0x" +
        "IGNocm9tYV9xcF9vZmZzZXQ9MCB0aHJlYWRzPTMgbG9va2FoZWFkX3RocmVhZHM9MSBzbGljZWRfdGhyZWFkcz0wIG5yPTAg" +
        "ZGVjaW1hdGU9MSBpbnRlcmxhY2VkPTAgYmx1cmF5X2NvbXBhdD0wIGNvbnN0cmFpbmVkX2ludHJhPTAgYmZyYW1lcz0wIHdl" +
        "aWdodHA9MCBrZXlpbnQ9MyBrZXlpbnRfbWluPTEgc2NlbmVjdXQ9MCBpbnRyYV9yZWZyZXNoPTAgcmM9Y3FwIG1idHJlZT0w" +
        "IHFwPTQwIGlwX3JhdGlvPTEuNDAgYXE9MACAAAAAAWWIhDomKAAIGMnJycnJycnJycnXXXXXXXXXXXXXXXXXXXXXXXXXXHYA" +
        "CaQuxXcrAThLLX8OuLh1RAMzam7jXBu5jB8fgCKB/hUEG1NlAfwwQ7hjiHoNAcYwS8Ev1EtRL8dgAJExupU7IB+GuEMyG5+h" +
        "2uDUbGWbMbcLLI2yd999dddcdgCKYMLaCEHVKI+jBw0jBc8FzjiHCDYaBRc1FzXHYAhSAILbykHV8YLSRhgDLU35QB9zBwbp" +
        "7XXXXXXXXH4ACTIxu3QrAfBjpCY2bdLTNsaicyNfz8NYnzj8AQoAtwryjam/4wU8AoA24eUAfLGgzD8I4AWtn4JmCD4lA6+f" +
        "n5sEvoHqLz/v8Hooe/f/666666665O++uuuuuuuuuuuuuuuuuuuuuuuuuvAAAAABCTAAAAABQZoigTYIeGQj4k3Dx7EwjqER" +
        "MT/i/JmahM8uqUE0AAAAAQkwAAAAAUGaQoEwT///G+wiETS0B/TwiESwivHfEwiGcT8IhGJhEI8RN417EiS9b5sBXhyAAAAA" +
        "AQkQAAAAAWdCwAraCxOwFqDAwNSgAAADACAAAAMCkeJE1AAAAAFozgOcgAAAAAFliIIOiYoAAgYycnJycnJycnJydddddddd" +
        "dddddddddddddddddddcdgAJTWCDri5UUWsr/4QAArzGoOjKpyx2AAnpwMVU1C2NUz/wsjmBUAHGMMZrmuuuuuuuuOwAEnAq" +
        "iw4cpktNM/hACDNvhr40w7cz3AjgAPuHG/aGgYxwIQT+tPp2dnZ2f07Oz/x+AM0LsrOzkUpC9deGc1wMGGi4VsSb/jsAEwN8" +
        "YmWKzd1PgP8F7OAAw+uuuuuuuPwAXoD+EJIawko9XvbAnbkHZA/fGJD9x2ADojIyIybErO97+p7IohFj0a/nx2ABEAGuzEIU" +
        "f3Of//BOkF7ANcJOQNQYdgAQA1RAzpEOVOEEab98ABhfAAYfLyd9dddcvH4BnASPXIRyG7WCrL2cUADcB0Bb/8fgAQMI7SRj" +
        "nY44ZBkX2HlwPS4D3/366666665O++++uuuuuuuuuuuuvAAAAAEJMAAAAAFBmiKBPhniQjEwiGaifCIRiIkRGcmbKXvkyG4A" +
        "AAABCTAAAAABQZpCgTn8/En+EQiJ8sC/8SEXK34RCMQf4nn+EQy8zFRMIhEnJhqYm+bF9xjP4ag="
    //   videotestsrc num-buffers=5 pattern=ball ! video/x-raw,format=I420,width=128,height=72,framerate=10/1
    //   ! x265enc key-int-max=3 qp=45 speed-preset=ultrafast option-string="bframes=0:repeat-headers=1:info=0"
    //   ! h265parse ! tee ! rtph265pay mtu=60 aggregate-mode=zero-latency seqnum-offset=65530 ! rtpstreampay
    // 5 pictures (IDR_N_LP, TRAIL_R, TRAIL_R, CRA, TRAIL_R); 20 packets: single NAL units, AP and FU.
    static let h265RTPStream = "ACSAYP/66nFOBwsI2HJAAQwB//8BYAAAAwCQAAADAAADAB66AkAAPIBg//vqcU4HCwjYcmIBoQEBYAAAAwCQAAADAAADAB6g" +
        "ECBR8uW6Skwv/wABAAFqDAwMCAAAAwAIAAADAAARgGD//OpxTgcLCNhyYgFhUEAAMIBg//3qcU4HCwjYcmABAAZEAcBxgxIA" +
        "GEABDAH//wFgAAADAJAAAAMAAAMAHroCQAA8gGD//upxTgcLCNhyYgGhAQFgAAADAJAAAAMAAAMAHqAQIFHy5bpKTC//AAEA" +
        "AWoMDAwIAAADAAgAAAMAABGAYP//6nFOBwsI2HJiAWFQQAASgGAAAOpxTgcLCNhyRAHAcYMSADyAYAAB6nFOBwsI2HJiAZSs" +
        "EFmtzhh/8DmcbhfUZPl5T9HvjdZwz8xfNg6Nti8y/3SdzoAASpCIYeyxgZoAPIBgAALqcU4HCwjYcmIBFK9mEEJRSE2giqm/" +
        "AHm4am552/yk0MjCewy+VebwnlCaxtzZZ8qbAKa5zP2OvwAhgOAAA+pxTgcLCNhyYgFUVQXymTEjMptgXuuTQClFhP7LAB2A" +
        "4AAE6nFxLwsI2HICAdAJeICa2zBUgd+orFFbbAAggOAABepxlFcLCNhyAgHQEf4gJjbkUgvZtL30ZJqARmQAJIBgAAbqcbd/" +
        "CwjYckABDAH//wFgAAADAJAAAAMAAAMAHroCQAA8gGAAB+pxt38LCNhyYgGhAQFgAAADAJAAAAMAAAMAHqAQIFHy5bpKTC//" +
        "AAEAAWoMDAwIAAADAAgAAAMAABGAYAAI6nG3fwsI2HJiAWFQQAASgGAACepxt38LCNhyRAHAcYMSADyAYAAK6nG3fwsI2HJi" +
        "AZWsDPUEBmlxgBh/8Dmc2EZXOwNXHfD+gpsoc1lxXRrotIaVzHsX7pabxoVCPcsAPIBgAAvqcbd/CwjYcmIBFXch6KrVHwke" +
        "uEbDStVijltvzbMbDKxzk39v3UzqO/OIm6TLhufw1Ab1xaQI2gAagOAADOpxt38LCNhyYgFVfOBwlY6gK4X6xrwAH4DgAA3q" +
        "cdqnCwjYcgIB0CF4gJrbcFSB36iAHCugIqA="
    static let h265AnnexB = "AAAAAUABDAH//wFgAAADAJAAAAMAAAMAHroCQAAAAAFCAQEBYAAAAwCQAAADAAADAB6gECBR8uW6Skwv/wABAAFqDAwMCAAA" +
        "AwAIAAADAFBAAAAAAUQBwHGDEgAAAAFAAQwB//8BYAAAAwCQAAADAAADAB66AkAAAAABQgEBAWAAAAMAkAAAAwAAAwAeoBAg" +
        "UfLlukpML/8AAQABagwMDAgAAAMACAAAAwBQQAAAAAFEAcBxgxIAAAABKAGsEFmtzhh/8DmcbhfUZPl5T9HvjdZwz8xfNg6N" +
        "ti8y/3SdzoAASpCIYeyxgZqvZhBCUUhNoIqpvwB5uGpuedv8pNDIwnsMvlXm8J5Qmsbc2WfKmwCmucz9jr9VBfKZMSMym2Be" +
        "65NAKUWE/ssAAAABAgHQCXiAmtswVIHfqKxRW2wAAAABAgHQEf4gJjbkUgvZtL30ZJqARmQAAAABQAEMAf//AWAAAAMAkAAA" +
        "AwAAAwAeugJAAAAAAUIBAQFgAAADAJAAAAMAAAMAHqAQIFHy5bpKTC//AAEAAWoMDAwIAAADAAgAAAMAUEAAAAABRAHAcYMS" +
        "AAAAASoBrAz1BAZpcYAYf/A5nNhGVzsDVx3w/oKbKHNZcV0a6LSGlcx7F+6Wm8aFQj3LdyHoqtUfCR64RsNK1WKOW2/NsxsM" +
        "rHOTf2/dTOo784ibpMuG5/DUBvXFpAjafOBwlY6gK4X6xrwAAAABAgHQIXiAmttwVIHfqIAcK6AioA=="
}
