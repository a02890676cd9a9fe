import Foundation
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import NIOCore
import TestSupport
import Testing
@testable import Server

/// Real cameras (GStreamer's RTSP server) recorded by the whole server, judged by ffprobe/ffmpeg.
@Suite("Recording with real cameras", .serialized, .enabled(if: PeerRTSPServer.isAvailable && FFProbeResult.isAvailable))
struct RecordingIntegrationTests {
    struct Listed {
        var id: Int
        var start: Date
        var end: Date
        var duration: Double
    }

    func segments(_ client: some TestClientProtocol, _ camera: String) async throws -> [Listed] {
        let response = try await client.execute(uri: "/api/cameras/\(camera)/recordings?from=2000-01-01T00:00:00.000Z&to=2100-01-01T00:00:00.000Z",
                                                method: .get)
        return (object(response.body)["segments"] as? [[String: Any]] ?? []).map {
            Listed(id: $0["id"] as! Int, start: ISOTime.parse($0["start"] as! String)!, end: ISOTime.parse($0["end"] as! String)!,
                   duration: $0["durationSeconds"] as! Double)
        }
    }

    func firstFrameIsKey(_ path: String) throws -> Bool {
        let result = try runCommand("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-read_intervals", "%+#1",
                                                         "-show_entries", "frame=key_frame", "-of", "csv=p=0", path])
        return result.stdout.split(separator: "\n").first?.trimmingCharacters(in: .whitespaces) == "1"
    }

    func duration(_ path: String) throws -> Double {
        let result = try runCommand("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=duration",
                                                         "-of", "csv=p=0", path])
        return Double(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test("two cameras for two minutes in 10 s segments: contiguous, summing to wall time, all playable; a 20 s outage is a gap; exports")
    func continuous() async throws {
        let peers = try [
            PeerRTSPServer(["--width", "640", "--height", "360", "--key-int", "25", "--audio", "aac"]),
            PeerRTSPServer(["--width", "640", "--height", "360", "--key-int", "25"]),
        ]
        let firstOutagePeer = try PeerRTSPServer(["--width", "640", "--height", "360", "--key-int", "25"])
        let outagePeer = NIOLockedValueBox(firstOutagePeer)
        let outagePort = firstOutagePeer.port
        defer {
            for peer in peers { peer.stop() }
            outagePeer.withLockedValue { $0.stop() }
        }
        let test = try await TestServer.make(segmentSeconds: 10)
        let output = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        try await test.application.test(.router) { client in
            var ids: [String] = []
            for (number, url) in (peers.map { $0.url() } + [firstOutagePeer.url()]).enumerated() {
                let created = try await client.execute(uri: "/api/cameras", method: .post, headers: jsonHeaders,
                                                       body: json(["name": "Camera \(number)", "rtspURL": url]))
                let id = try #require(object(created.body)["id"] as? String)
                let set = try await client.execute(uri: "/api/cameras/\(id)/recording", method: .put, headers: jsonHeaders,
                                                   body: json(["mode": "continuous"]))
                #expect(set.status == .ok)
                ids.append(id)
            }
            try await Task.sleep(for: .seconds(40))
            let killedAt = Date()
            outagePeer.withLockedValue { $0.kill() }
            try await Task.sleep(for: .seconds(20))
            let restartedAt = Date()
            let restarted = try PeerRTSPServer(["--width", "640", "--height", "360", "--key-int", "25"], port: outagePort)
            outagePeer.withLockedValue { $0 = restarted }
            try await Task.sleep(for: .seconds(62))
            let stoppedAt = Date()
            for id in ids {
                _ = try await client.execute(uri: "/api/cameras/\(id)/recording", method: .put, headers: jsonHeaders, body: json(["mode": "off"]))
            }

            // Two cameras: contiguous segments, summing to the time recorded.
            for id in ids.prefix(2) {
                let listed = try await segments(client, id)
                #expect(listed.count >= 10, "camera \(id): \(listed.count) segments")
                for (previous, next) in zip(listed, listed.dropFirst()) {
                    #expect(abs(next.start.timeIntervalSince(previous.end)) < 1, "gap or overlap between \(previous.id) and \(next.id)")
                }
                for segment in listed.dropLast() { #expect(segment.duration >= 9.9 && segment.duration <= 11.1, "segment \(segment.id): \(segment.duration) s") }
                guard let first = listed.first, let last = listed.last else { continue }
                let sum = listed.reduce(0) { $0 + $1.duration }
                #expect(abs(sum - last.end.timeIntervalSince(first.start)) < 1, "durations \(sum) s, span \(last.end.timeIntervalSince(first.start)) s")
                #expect(abs(last.end.timeIntervalSince(stoppedAt)) < 1.5, "the last segment ends \(last.end.timeIntervalSince(stoppedAt)) s from the stop")
                #expect(sum > 110, "only \(sum) s recorded")
            }
            // Every segment file plays without an error; the first camera's have audio.
            let root = test.server.recordings.manager.root
            let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".mp4") } ?? []
            #expect(files.count >= 25)
            for file in files {
                let path = (root as NSString).appendingPathComponent(file)
                #expect(try FFProbeResult.decodeErrors(path) == "", "\(file)")
                if file.hasPrefix(ids[0]) { #expect(try FFProbeResult(file: path).audio?.codec == "aac", "\(file)") }
            }

            // The outage: a gap of 20 s plus the reconnect delay, and no segment stretched over it.
            let outage = try await segments(client, ids[2])
            let gaps = zip(outage, outage.dropFirst()).map { ($0, $1, $1.start.timeIntervalSince($0.end)) }
            let big = gaps.filter { $0.2 >= 1 }
            #expect(big.count == 1, "gaps: \(gaps.map(\.2))")
            if let (before, after, gap) = big.first {
                #expect(gap >= 19 && gap <= 20 + 12, "gap of \(gap) s")
                #expect(abs(before.end.timeIntervalSince(killedAt)) < 1.5, "the segment before the gap ends \(before.end.timeIntervalSince(killedAt)) s from the kill")
                #expect(after.start > restartedAt)
            }
            for segment in outage { #expect(segment.duration <= 11.1, "segment \(segment.id) is \(segment.duration) s") }

            // Export [t1, t2]: starts with a keyframe, lasts t2 − t1 plus at most one GOP (1 s).
            let listed = try await segments(client, ids[0])
            let t1 = listed[0].start.addingTimeInterval(15.3), t2 = listed[0].start.addingTimeInterval(47.8)
            let export = try await client.execute(uri: "/api/cameras/\(ids[0])/export.mp4?from=\(ISOTime.string(t1))&to=\(ISOTime.string(t2))",
                                                  method: .get)
            #expect(export.status == .ok)
            #expect(export.headers[.contentDisposition]?.hasPrefix("attachment; filename=\"Camera 0_") == true)
            let exported = output.appendingPathComponent("export.mp4").path
            try Data(export.body.readableBytesView).write(to: URL(fileURLWithPath: exported))
            #expect(try FFProbeResult.decodeErrors(exported) == "")
            #expect(try firstFrameIsKey(exported))
            let length = try duration(exported)
            #expect(length >= t2.timeIntervalSince(t1) - 0.05 && length <= t2.timeIntervalSince(t1) + 1.05, "export lasts \(length) s")
            let start = try #require(export.headers[.init("X-WatchBox-Start")!].flatMap(ISOTime.parse))
            #expect(start <= t1 && start > t1.addingTimeInterval(-1.05))
            #expect(try FFProbeResult(file: exported).audio?.codec == "aac")

            // Export across the outage: the gap is skipped, the file lasts the footage's time.
            let e1 = killedAt.addingTimeInterval(-12), e2 = restartedAt.addingTimeInterval(25)
            let across = try await client.execute(uri: "/api/cameras/\(ids[2])/export.mp4?from=\(ISOTime.string(e1))&to=\(ISOTime.string(e2))",
                                                  method: .get)
            let acrossPath = output.appendingPathComponent("across.mp4").path
            try Data(across.body.readableBytesView).write(to: URL(fileURLWithPath: acrossPath))
            #expect(try FFProbeResult.decodeErrors(acrossPath) == "")
            if let (before, after, _) = big.first {
                let footage = before.end.timeIntervalSince(e1) + e2.timeIntervalSince(after.start)
                let acrossLength = try duration(acrossPath)
                #expect(acrossLength >= footage - 0.1 && acrossLength <= footage + 1.1, "export across the gap lasts \(acrossLength) s, footage \(footage) s")
            }

            // Playback from a time: the keyframe at or before it, with its wall and media times.
            let second = listed[1]
            let from = second.start.addingTimeInterval(4.5)
            let media = try await client.execute(uri: "/api/recordings/\(second.id)/media?from=\(ISOTime.string(from))", method: .get)
            #expect(media.status == .ok)
            let wall = try #require(media.headers[.init("X-WatchBox-Start")!].flatMap(ISOTime.parse))
            let mediaStart = try #require(media.headers[.init("X-WatchBox-Media-Start")!].flatMap(Double.init))
            #expect(wall <= from && wall > from.addingTimeInterval(-1.05))
            #expect(abs(second.start.addingTimeInterval(mediaStart).timeIntervalSince(wall)) < 0.002)
            #expect(media.headers[.init("X-WatchBox-Codec")!]?.hasPrefix("video/mp4; codecs=\"avc1.") == true)
            let played = output.appendingPathComponent("media.mp4").path
            try Data(media.body.readableBytesView).write(to: URL(fileURLWithPath: played))
            #expect(try FFProbeResult.decodeErrors(played) == "")
            #expect(try firstFrameIsKey(played))
        }
        await test.shutdown()
    }
}
