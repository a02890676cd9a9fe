// watchbox-bench: throughput of the media core on a recorded session (a `watchbox capture` file).
//
//   swift run -c release watchbox-bench <capture-file> [--runs N] [--min-megabytes M] [--json]
//
// Prints MB/s (median of N runs) for: the RTSP stream decoder on the raw interleaved bytes (fed in
// 4 KiB reads, as TCP delivers them); RTP parsing plus the H.264/H.265 depacketizer; the whole
// pipeline; the fMP4 muxer (file fragments of 2 s, and live fragments of one frame, copied together or
// written in place around each picture as the hub's live path does) on the access units of the capture;
// and a plain memcpy of the same bytes for scale.
import Foundation
import H26x
import MP4
import NIOCore
import RTP
import RTSPClient
import RTSPCore

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("watchbox-bench: \(message)\n".utf8))
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var runs = 15
var json = false
/// Each timed run repeats the capture until it has covered at least this many MiB.
var minimumMiB = 32
if let i = arguments.firstIndex(of: "--min-megabytes"), i + 1 < arguments.count, let n = Int(arguments[i + 1]), n > 0 {
    minimumMiB = n
    arguments.removeSubrange(i...(i + 1))
}
if let i = arguments.firstIndex(of: "--runs"), i + 1 < arguments.count, let n = Int(arguments[i + 1]) {
    runs = n
    arguments.removeSubrange(i...(i + 1))
}
if let i = arguments.firstIndex(of: "--json") { json = true; arguments.remove(at: i) }
guard let path = arguments.first else { fail("usage: watchbox-bench <capture-file> [--runs N] [--json]") }
guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
let capture: SessionCapture
do { capture = try SessionCapture(bytes: Array(data)) } catch { fail("\(path): \(error)") }
let sdp: SessionDescription
do { sdp = try SessionDescription.parse(capture.sdp) } catch { fail("\(path): its SDP is unreadable: \(error)") }
guard let video = sdp.media.first(where: { $0.type == "video" }), let pt = video.payloadType else { fail("\(path): no video track") }
let isH265 = ["H265", "HEVC"].contains(video.encodingName ?? "")
let parameterSets: [[UInt8]] = isH265
    ? ["sprop-vps", "sprop-sps", "sprop-pps"].flatMap { video.formatParameters?.base64List($0) ?? [] }
    : video.formatParameters?.base64List("sprop-parameter-sets") ?? []

let stream = capture.stream
let packets = capture.packets.filter { $0.channel == 0 }.map(\.payload)
let streamBytes = stream.readableBytes
let rtpBytes = packets.reduce(0) { $0 + $1.readableBytes }

func measure(_ body: () -> Int) -> (seconds: Double, check: Int) {
    let clock = ContinuousClock()
    var check = 0
    let elapsed = clock.measure { check = body() }
    return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, check)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

/// Repeat the input so each run lasts long enough to time (at least `minimumMiB`).
let repeats = max(1, (minimumMiB << 20) / max(1, streamBytes))

func decodeStream() -> Int {
    var events = 0
    for _ in 0..<repeats {
        var parser = RTSPStreamParser()
        var view = stream
        while view.readableBytes > 0 {
            let chunk = view.readSlice(length: min(4096, view.readableBytes))!
            parser.append(chunk)
            while let event = parser.next() {
                if case .interleaved = event { events += 1 }
            }
        }
    }
    return events
}

func makeDepacketizer() -> any VideoDepacketizer {
    isH265 ? H265Depacketizer(parameterSets: parameterSets) : H264Depacketizer(parameterSets: parameterSets)
}

func depacketize() -> Int {
    var units = 0
    for _ in 0..<repeats {
        var depacketizer = makeDepacketizer()
        for bytes in packets {
            guard let packet = try? RTPPacket(parsing: bytes), packet.payloadType == pt else { continue }
            units += depacketizer.push(payload: packet.payload, sequenceNumber: packet.sequenceNumber,
                                       timestamp: packet.timestamp, marker: packet.marker).count
        }
    }
    return units
}

func pipeline() -> Int {
    var units = 0
    for _ in 0..<repeats {
        var parser = RTSPStreamParser()
        var depacketizer = makeDepacketizer()
        var sequence = SequenceTracker()
        var extender = TimestampExtender()
        var view = stream
        while view.readableBytes > 0 {
            parser.append(view.readSlice(length: min(4096, view.readableBytes))!)
            while let event = parser.next() {
                guard case .interleaved(0, let bytes) = event, let packet = try? RTPPacket(parsing: bytes),
                      packet.payloadType == pt else { continue }
                _ = sequence.record(packet.sequenceNumber)
                for unit in depacketizer.push(payload: packet.payload, sequenceNumber: packet.sequenceNumber,
                                              timestamp: packet.timestamp, marker: packet.marker) {
                    _ = extender.extend(unit.rtpTimestamp)
                    units += 1
                }
            }
        }
    }
    return units
}

/// The capture's access units with extended timestamps, depacketized once, outside the timed runs.
let accessUnits: [(unit: AccessUnit, timestamp: Int64)] = {
    var depacketizer = makeDepacketizer()
    var extender = TimestampExtender()
    var out: [(AccessUnit, Int64)] = []
    for bytes in packets {
        guard let packet = try? RTPPacket(parsing: bytes), packet.payloadType == pt else { continue }
        for unit in depacketizer.push(payload: packet.payload, sequenceNumber: packet.sequenceNumber,
                                      timestamp: packet.timestamp, marker: packet.marker) {
            out.append((unit, extender.extend(unit.rtpTimestamp)))
        }
    }
    return out
}()
let muxFormat: VideoFormat? = {
    var depacketizer = makeDepacketizer()
    for bytes in packets {
        guard let packet = try? RTPPacket(parsing: bytes), packet.payloadType == pt else { continue }
        _ = depacketizer.push(payload: packet.payload, sequenceNumber: packet.sequenceNumber,
                              timestamp: packet.timestamp, marker: packet.marker)
        if let format = depacketizer.format { return format }
    }
    return nil
}()
let accessUnitBytes = accessUnits.reduce(0) { $0 + $1.unit.byteCount }

/// Fresh copies of the access units, one set per repeat, made before each timed run of the in-place live mux:
/// the room in front of a picture can be claimed once (as the hub's live muxer does, once per picture).
nonisolated(unsafe) var freshUnits: [[(unit: AccessUnit, timestamp: Int64)]] = []
func prepareFreshUnits() {
    freshUnits = (0..<max(1, repeats)).map { _ in accessUnits.map { ($0.unit.packed(), $0.timestamp) } }
}

func mux(_ policy: FragmentedMP4Muxer.FragmentPolicy, inPlace: Bool = false) -> Int {
    guard let muxFormat else { return 0 }
    var written = 0
    let span = (accessUnits.last?.timestamp ?? 0) - (accessUnits.first?.timestamp ?? 0) + 3600
    for round in 0..<max(1, repeats) {
        var muxer = try! FragmentedMP4Muxer(video: muxFormat, policy: policy)
        muxer.writesInPlace = inPlace
        for (unit, timestamp) in inPlace ? freshUnits[round] : accessUnits {
            for output in muxer.appendVideo(unit, timestamp: timestamp + Int64(round) * span) {
                if case .fragment(let bytes, _) = output { written += bytes.readableBytes }
            }
        }
        for output in muxer.finish() {
            if case .fragment(let bytes, _) = output { written += bytes.readableBytes }
        }
    }
    return written
}

let source = Array(stream.readableBytesView)
/// Where memcpy writes (allocated once, outside the timed runs).
final class Scratch: @unchecked Sendable {
    let bytes: UnsafeMutableRawBufferPointer
    init(count: Int) { bytes = .allocate(byteCount: max(1, count), alignment: 64) }
}
let scratch = Scratch(count: source.count)
func copyBytes() -> Int {
    var sum = 0
    for _ in 0..<repeats {
        source.withUnsafeBytes { src in
            _ = memcpy(scratch.bytes.baseAddress!, src.baseAddress!, src.count)
        }
        sum &+= Int(scratch.bytes[source.count / 2])
    }
    return sum
}

struct Row: Codable { var name: String; var megabytesPerSecond: Double; var bytes: Int }
var rows: [Row] = []
let noPreparation: () -> Void = {}
for (name, bytes, body, prepare) in [
    ("memcpy (scale)", streamBytes, copyBytes as () -> Int, noPreparation),
    ("RTSP stream decoder", streamBytes, decodeStream, noPreparation),
    ("RTP parse + depacketizer", rtpBytes, depacketize, noPreparation),
    ("whole pipeline", streamBytes, pipeline, noPreparation),
    ("fMP4 mux, 2 s fragments", accessUnitBytes, { mux(.duration(seconds: 2)) }, noPreparation),
    ("fMP4 mux, live (per frame)", accessUnitBytes, { mux(.everyFrame) }, noPreparation),
    // The hub's live path: each fragment's header written in front of the picture where it lies.
    ("fMP4 mux, live in place", accessUnitBytes, { mux(.everyFrame, inPlace: true) }, prepareFreshUnits),
] {
    prepare()
    _ = body()  // warm up
    var rates: [Double] = []
    for _ in 0..<runs {
        prepare()
        let (seconds, _) = measure(body)
        rates.append(Double(bytes * repeats) / seconds / 1e6)
    }
    rows.append(Row(name: name, megabytesPerSecond: median(rates), bytes: bytes))
}

if json {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    print(String(decoding: try! encoder.encode(rows), as: UTF8.self))
} else {
    print("capture: \(path): \(isH265 ? "H.265" : "H.264"), \(packets.count) RTP packets, \(streamBytes) bytes; median of \(runs) runs")
    for row in rows {
        print(String(format: "%-28@ %10.1f MB/s", row.name as NSString, row.megabytesPerSecond))
    }
}
