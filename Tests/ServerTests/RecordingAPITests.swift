import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Store
import Testing
@testable import Server

@Suite("Recording API validation")
struct RecordingAPITests {
    func expectError(_ response: TestResponse, _ status: HTTPResponse.Status, field: String? = nil,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == status, "\(String(buffer: response.body))", sourceLocation: sourceLocation)
        let body = object(response.body)
        #expect((body["error"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
        if let field { #expect(body["field"] as? String == field, "\(body)", sourceLocation: sourceLocation) }
    }

    @Test("settings, manual recording, index, export, protections, deletion, storage: 400 naming the field, 404, 409")
    func validation() async throws {
        let test = try await TestServer.make()
        try await test.application.test(.router) { client in
            let created = try await client.execute(uri: "/api/cameras", method: .post, headers: jsonHeaders,
                                                   body: json(["name": "Porch", "rtspURL": "rtsp://127.0.0.1:9/none", "isActive": false]))
            let id = try #require(object(created.body)["id"] as? String)
            let unknown = UUID().uuidString
            let base = "/api/cameras/\(id)"

            // Settings.
            expectError(try await client.execute(uri: "/api/cameras/\(unknown)/recording", method: .get), .notFound)
            expectError(try await client.execute(uri: "/api/cameras/nope/recording", method: .get), .notFound)
            let initial = object(try await client.execute(uri: "\(base)/recording", method: .get).body)
            #expect(initial["mode"] as? String == "off")
            #expect((initial["state"] as? [String: Any])?["state"] as? String == "off")
            #expect(initial["retentionDays"] is NSNull)
            for (body, field) in [(["mode": "sometimes"], "mode"), (["retentionDays": 0], "retentionDays"),
                                  (["retentionDays": "x"], "retentionDays"),
                                  (["schedule": [["days": [7], "start": "08:00", "end": "09:00"]]], "schedule"),
                                  (["schedule": [["days": [1], "start": "25:00", "end": "09:00"]]], "schedule"),
                                  (["schedule": [["days": [1], "start": "08:00"]]], "end"),
                                  (["mode": "scheduled", "schedule": []], "schedule")] as [([String: Any], String)] {
                expectError(try await client.execute(uri: "\(base)/recording", method: .put, headers: jsonHeaders, body: json(body)),
                            .badRequest, field: field)
            }
            let saved = try await client.execute(uri: "\(base)/recording", method: .put, headers: jsonHeaders, body: json([
                "mode": "scheduled", "schedule": [["days": [5], "start": "22:00", "end": "06:00"]], "retentionDays": 14]))
            #expect(saved.status == .ok)
            let config = object(saved.body)
            #expect(config["mode"] as? String == "scheduled")
            #expect(config["retentionDays"] as? Int == 14)
            #expect((config["schedule"] as? [[String: Any]])?.first?["end"] as? String == "06:00")
            let cleared = object(try await client.execute(uri: "\(base)/recording", method: .put, headers: jsonHeaders,
                                                          body: json(["retentionDays": NSNull()])).body)
            #expect(cleared["retentionDays"] is NSNull)
            #expect(cleared["mode"] as? String == "scheduled")

            // Manual recording: a switched-off camera cannot record.
            expectError(try await client.execute(uri: "\(base)/recording/start", method: .post, headers: jsonHeaders,
                                                 body: json(["durationSeconds": -5])), .badRequest, field: "durationSeconds")
            expectError(try await client.execute(uri: "\(base)/recording/start", method: .post, headers: jsonHeaders, body: json([:])), .conflict)
            expectError(try await client.execute(uri: "/api/cameras/\(unknown)/recording/start", method: .post), .notFound)
            #expect(try await client.execute(uri: "\(base)/recording/stop", method: .post).status == .ok)

            // The index.
            expectError(try await client.execute(uri: "\(base)/recordings?to=2026-11-23T00:00:00.000Z", method: .get), .badRequest, field: "from")
            expectError(try await client.execute(uri: "\(base)/recordings?from=yesterday&to=2026-11-23T00:00:00.000Z", method: .get),
                        .badRequest, field: "from")
            expectError(try await client.execute(uri: "\(base)/recordings?from=2026-11-23T00:00:00.000Z&to=2026-11-23T00:00:00.000Z",
                                                 method: .get), .badRequest, field: "to")
            let empty = try await client.execute(uri: "\(base)/recordings?from=2026-11-22T00:00:00.000Z&to=2026-11-23T00:00:00Z", method: .get)
            #expect(String(buffer: empty.body) == #"{"segments":[]}"#)
            expectError(try await client.execute(uri: "\(base)/recordings/days?utcOffsetMinutes=abc", method: .get), .badRequest,
                        field: "utcOffsetMinutes")
            expectError(try await client.execute(uri: "\(base)/recordings/days?from=2026-1-1", method: .get), .badRequest, field: "from")
            #expect(String(buffer: try await client.execute(uri: "\(base)/recordings/days?utcOffsetMinutes=60", method: .get).body)
                    == #"{"days":[]}"#)
            expectError(try await client.execute(uri: "/api/recordings/9999/media", method: .get), .notFound)
            expectError(try await client.execute(uri: "/api/recordings/abc/media", method: .get), .notFound)

            // Export.
            expectError(try await client.execute(uri: "\(base)/export.mp4?from=2026-11-23T01:00:00.000Z&to=2026-11-23T00:00:00.000Z",
                                                 method: .get), .badRequest, field: "to")
            expectError(try await client.execute(uri: "\(base)/export.mp4?from=2026-11-21T00:00:00.000Z&to=2026-11-23T00:00:00.000Z",
                                                 method: .get), .badRequest, field: "to")
            expectError(try await client.execute(uri: "\(base)/export.mp4?from=2026-11-22T00:00:00.000Z&to=2026-11-23T00:00:00.000Z",
                                                 method: .get), .notFound)

            // A segment row with its file, then protections and deletion.
            let cameraID = UUID(uuidString: id)!
            let start = Date(timeIntervalSince1970: 1_795_400_000)
            let relative = "\(id)/2026-11-23/000000-1.mp4"
            let file = test.server.recordings.manager.root + "/" + relative
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data([0, 0, 0, 8, 0x66, 0x72, 0x65, 0x65]).write(to: URL(fileURLWithPath: file))
            let row = try await test.server.recordings.repository.insertSegment(Segment(
                cameraID: cameraID, start: start, end: start.addingTimeInterval(60), duration: 60, bytes: 8, path: relative,
                codec: "h264", mimeType: "video/mp4", width: 640, height: 360, keyframes: KeyframeIndex().encoded))
            expectError(try await client.execute(uri: "\(base)/protections", method: .post, headers: jsonHeaders,
                                                 body: json(["to": "2026-11-23T00:00:00.000Z"])), .badRequest, field: "from")
            expectError(try await client.execute(uri: "\(base)/protections", method: .post, headers: jsonHeaders,
                                                 body: json(["from": ISOTime.string(start), "to": ISOTime.string(start)])), .badRequest, field: "to")
            let protected = try await client.execute(uri: "\(base)/protections", method: .post, headers: jsonHeaders, body: json([
                "from": ISOTime.string(start.addingTimeInterval(10)), "to": ISOTime.string(start.addingTimeInterval(20)), "note": "parcel"]))
            #expect(protected.status == .created)
            let protectionID = try #require(object(protected.body)["id"] as? Int)
            #expect(object(protected.body)["from"] as? String == ISOTime.string(start.addingTimeInterval(10)))
            let listed = object(try await client.execute(uri: "\(base)/recordings?from=\(ISOTime.string(start))&to=\(ISOTime.string(start.addingTimeInterval(5)))",
                                                         method: .get).body)
            #expect((listed["segments"] as? [[String: Any]])?.first?["protected"] as? Bool == true)
            #expect((object(try await client.execute(uri: "\(base)/protections", method: .get).body)["protections"] as? [Any])?.count == 1)
            // Days with footage, in the client's offset from UTC (the segment starts 2026-11-23T02:13:20Z).
            #expect(String(buffer: try await client.execute(uri: "\(base)/recordings/days?utcOffsetMinutes=0", method: .get).body)
                    == #"{"days":["2026-11-23"]}"#)
            #expect(String(buffer: try await client.execute(uri: "\(base)/recordings/days?utcOffsetMinutes=-180", method: .get).body)
                    == #"{"days":["2026-11-22"]}"#)
            #expect(String(buffer: try await client.execute(uri: "\(base)/recordings/days?utcOffsetMinutes=-180&from=2026-11-23&to=2026-11-30",
                                                            method: .get).body) == #"{"days":[]}"#)
            expectError(try await client.execute(uri: "/api/recordings/\(row.id!)", method: .delete), .conflict)
            #expect(FileManager.default.fileExists(atPath: file))
            #expect(try await client.execute(uri: "/api/protections/\(protectionID)", method: .delete).status == .noContent)
            expectError(try await client.execute(uri: "/api/protections/\(protectionID)", method: .delete), .notFound)
            #expect(try await client.execute(uri: "/api/recordings/\(row.id!)", method: .delete).status == .noContent)
            #expect(!FileManager.default.fileExists(atPath: file))
            expectError(try await client.execute(uri: "/api/recordings/\(row.id!)", method: .delete), .notFound)

            // Storage.
            let storage = object(try await client.execute(uri: "/api/storage", method: .get).body)
            #expect(storage["directory"] as? String == test.server.recordings.manager.root)
            #expect((storage["totalBytes"] as? Int ?? 0) > 0)
            #expect((storage["cameras"] as? [[String: Any]])?.first?["name"] as? String == "Porch")
            expectError(try await client.execute(uri: "/api/settings/storage", method: .put, headers: jsonHeaders,
                                                 body: json(["maxBytes": 5, "minFreeBytes": 0])), .badRequest, field: "maxBytes")
            expectError(try await client.execute(uri: "/api/settings/storage", method: .put, headers: jsonHeaders,
                                                 body: json(["minFreeBytes": -1])), .badRequest, field: "minFreeBytes")
            let settings = try await client.execute(uri: "/api/settings/storage", method: .put, headers: jsonHeaders,
                                                    body: json(["maxBytes": 10_000_000_000, "minFreeBytes": 0]))
            #expect(String(buffer: settings.body) == #"{"maxBytes":10000000000,"minFreeBytes":0}"#)
        }
        await test.shutdown()
    }
}
