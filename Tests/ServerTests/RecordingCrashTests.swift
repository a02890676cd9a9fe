import Foundation
import TestSupport
import Testing

/// `kill -9` of a `watchbox serve` child in the middle of a segment, then a restart on the same data.
@Suite("Recording survives kill -9", .enabled(if: PeerRTSPServer.isAvailable && FFProbeResult.isAvailable))
struct RecordingCrashTests {
    /// Reads lines of the child's standard output until the "listening" line; returns the port.
    func port(of out: Pipe) throws -> Int {
        var text = ""
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
            if let range = text.range(of: "listening on http://127.0.0.1:"),
               let port = Int(text[range.upperBound...].prefix { $0.isNumber }) { return port }
        }
        throw PeerError(message: "watchbox serve did not say where it listens: \(text)")
    }

    func curl(_ arguments: [String]) throws -> String {
        let result = try runCommand("/usr/bin/curl", ["-s", "--max-time", "20"] + arguments)
        return result.stdout
    }

    @Test("all but the unfinished last fragment is indexed and plays after a restart; the repair is logged")
    func killNine() throws {
        let peer = try PeerRTSPServer(["--width", "640", "--height", "360", "--key-int", "25", "--audio", "aac"])
        defer { peer.stop() }
        let data = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let arguments = ["serve", "--port", "0", "--data", data.path, "--segment-seconds", "10"]
        let (first, out, _) = try startWatchbox(arguments)
        let base = "http://127.0.0.1:\(try port(of: out))"
        let created = try curl(["-X", "POST", "-H", "Content-Type: application/json", "--data",
                                #"{"name":"Crash","rtspURL":"\#(peer.url())"}"#, "\(base)/api/cameras"])
        let id = try #require((try JSONSerialization.jsonObject(with: Data(created.utf8)) as? [String: Any])?["id"] as? String)
        _ = try curl(["-X", "PUT", "-H", "Content-Type: application/json", "--data", #"{"mode":"continuous"}"#,
                      "\(base)/api/cameras/\(id)/recording"])
        // Wait until the first segment is indexed, then 5 s into the second one.
        let range = "from=2000-01-01T00:00:00.000Z&to=2100-01-01T00:00:00.000Z"
        var indexed: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(40)
        while Date() < deadline, indexed.isEmpty {
            Thread.sleep(forTimeInterval: 0.5)
            let listed = try curl(["\(base)/api/cameras/\(id)/recordings?\(range)"])
            indexed = ((try? JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [String: Any])?["segments"] as? [[String: Any]] ?? [])
                .filter { $0["inProgress"] as? Bool == false }
        }
        try #require(indexed.count == 1)
        let indexedAt = Date()
        Thread.sleep(forTimeInterval: 5.3)
        // The segment being written is listed (negative id, inProgress) and plays as far as it is written.
        let withOpen = try curl(["\(base)/api/cameras/\(id)/recordings?\(range)"])
        let all = (try JSONSerialization.jsonObject(with: Data(withOpen.utf8)) as? [String: Any])?["segments"] as? [[String: Any]] ?? []
        let open = try #require(all.first { $0["inProgress"] as? Bool == true }, "\(withOpen)")
        let openID = try #require(open["id"] as? Int)
        #expect(openID < 0)
        #expect((open["durationSeconds"] as? Double ?? 0) >= 3)
        let partial = data.appendingPathComponent("partial.mp4").path
        _ = try curl(["-o", partial, "\(base)/api/recordings/\(openID)/media"])
        #expect(try FFProbeResult.decodeErrors(partial) == "")
        #expect(try FFProbeResult(file: partial).video != nil)
        let inSegment = Date().timeIntervalSince(indexedAt)
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()

        let root = data.appendingPathComponent("recordings").path
        let files = (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".mp4") }.sorted()
        #expect(files.count == 2, "\(files)")
        let unfinished = try #require(files.last)
        let sizeBefore = FileManager.default.fileSize(atPath: (root as NSString).appendingPathComponent(unfinished))

        // Restart on the same data: the unfinished segment is repaired and indexed.
        let (second, out2, err2) = try startWatchbox(arguments)
        let base2 = "http://127.0.0.1:\(try port(of: out2))"
        let listed = try curl(["\(base2)/api/cameras/\(id)/recordings?\(range)"])
        let segments = ((try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [String: Any])?["segments"] as? [[String: Any]] ?? [])
            .filter { $0["inProgress"] as? Bool == false }
        _ = try curl(["-X", "PUT", "-H", "Content-Type: application/json", "--data", #"{"mode":"off"}"#, "\(base2)/api/cameras/\(id)/recording"])
        second.terminate()
        second.waitUntilExit()
        let log = String(decoding: err2.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("repaired and indexed") && log.contains(unfinished), "\(log.suffix(2000))")
        #expect(segments.count >= 2)
        let repaired = try #require(segments.dropFirst().first)
        // Killed `inSegment` seconds into the segment, with fragments of one GOP (1 s): at most the last fragment
        // (and the half second the index check may lag) is lost.
        let kept = repaired["durationSeconds"] as? Double ?? 0
        #expect(kept >= inSegment - 1.6 && kept <= inSegment + 0.6, "kept \(kept) s of \(inSegment) s")
        // Its start follows the first segment's end (the file's prft box gives the time, not its name).
        let firstEnd = ISOTime(indexed[0]["end"] as? String), secondStart = ISOTime(repaired["start"] as? String)
        #expect(abs(secondStart - firstEnd) < 1, "first ends \(firstEnd), the repaired one starts \(secondStart)")
        let sizeAfter = FileManager.default.fileSize(atPath: (root as NSString).appendingPathComponent(unfinished))
        #expect(sizeAfter <= sizeBefore && sizeAfter == repaired["bytes"] as? Int)
        for file in files {
            #expect(try FFProbeResult.decodeErrors((root as NSString).appendingPathComponent(file)) == "", "\(file)")
        }
    }
}

private func ISOTime(_ text: String?) -> Double {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text ?? "")?.timeIntervalSince1970 ?? 0
}

private extension FileManager {
    func fileSize(atPath path: String) -> Int {
        ((try? attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? -1
    }
}
