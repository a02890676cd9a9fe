import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
@testable import Server
import Testing
import TestSupport

@Suite("REST API: discoveries and discovery settings", .serialized)
struct DiscoveryAPITests {
    @Test(arguments: [
        (["subnets": ["10.0.0/24"]], "subnets"),
        (["subnets": ["10.0.0.0/8"]], "subnets"),
        (["subnets": ["10.0.0.0/20"]], "allowLarge"),
        (["subnets": ["127.0.0.1"], "ports": [0]], "ports"),
        (["subnets": ["127.0.0.1"], "ports": [Int]()], "ports"),
        (["subnets": ["127.0.0.1"], "timeout": 0], "timeout"),
        (["subnets": ["127.0.0.1"], "password": "x"], "username"),
        (["subnets": "127.0.0.1"], "subnets"),
        (["subnets": ["127.0.0.1"], "onvifDevices": ["camera.local"]], "onvifDevices"),
        (["subnets": ["127.0.0.1"], "onvifDevices": ["127.0.0.2:8080"]], "onvifDevices"),
    ] as [([String: any Sendable], String)])
    func badStartIs400NamingTheField(body: [String: any Sendable], field: String) async throws {
        let test = try await TestServer.make()
        try await test.application.test(.router) { client in
            let response = try await client.execute(uri: "/api/discoveries", method: .post, headers: jsonHeaders, body: json(body))
            #expect(response.status == .badRequest)
            let error = object(response.body)
            #expect(error["field"] as? String == field, "\(error)")
            #expect((error["error"] as? String)?.isEmpty == false)
        }
        await test.shutdown()
    }

    @Test func settingsKeepThePasswordSealedAndNeverReturnIt() async throws {
        let test = try await TestServer.make()
        try await test.application.test(.router) { client in
            let initial = object(try await client.execute(uri: "/api/settings/discovery", method: .get).body)
            #expect(initial["subnets"] as? [String] == [])
            #expect(initial["ports"] as? [Int] == [554, 8554, 88, 7447, 5000])
            #expect(initial["onvif"] as? Bool == true)
            #expect(initial["hasPassword"] as? Bool == false)

            let saved = try await client.execute(uri: "/api/settings/discovery", method: .put, headers: jsonHeaders, body: json([
                "subnets": ["192.168.1.7/24", "10.0.0.0/20"], "ports": [554, 8554], "onvif": false,
                "username": "admin", "password": "pa55-discovery",
            ]))
            #expect(saved.status == .ok)
            let settings = object(saved.body)
            #expect(settings["subnets"] as? [String] == ["192.168.1.0/24", "10.0.0.0/20"])
            #expect(settings["ports"] as? [Int] == [554, 8554])
            #expect(settings["onvif"] as? Bool == false)
            #expect(settings["username"] as? String == "admin")
            #expect(settings["hasPassword"] as? Bool == true)
            #expect(!String(buffer: saved.body).contains("pa55-discovery"))
            let again = try await client.execute(uri: "/api/settings/discovery", method: .get)
            #expect(!String(buffer: again.body).contains("pa55-discovery"))
            #expect(object(again.body)["hasPassword"] as? Bool == true)

            for (body, field) in [(["subnets": ["nope"]], "subnets[0]"), (["subnets": ["10.0.0.0/8"]], "subnets[0]"),
                                  (["ports": [70000]], "ports"), (["onvif": "yes"], "onvif")] as [([String: any Sendable], String)] {
                let bad = try await client.execute(uri: "/api/settings/discovery", method: .put, headers: jsonHeaders, body: json(body))
                #expect(bad.status == .badRequest)
                #expect(object(bad.body)["field"] as? String == field)
            }
            let cleared = try await client.execute(uri: "/api/settings/discovery", method: .put, headers: jsonHeaders,
                                                   body: json(["password": ""]))
            #expect(object(cleared.body)["hasPassword"] as? Bool == false)
            #expect(object(cleared.body)["username"] as? String == "admin", "absent fields are unchanged")
        }
        // Sealed on disk: the database file never holds the password in clear.
        let stored = try await test.server.discovery.settings.discoverySettings()
        #expect(stored.passwordSealed == nil)
        await test.shutdown()
    }

    @Test(.enabled(if: PeerRTSPServer.isAvailable, "needs the GStreamer RTSP peer"))
    func startPollAddAndFlagDuplicates() async throws {
        let camera = try PeerRTSPServer(["--path", "/stream1", "--path", "/stream2", "--auth", "digest",
                                         "--user", "admin", "--password", "s3cret", "--width", "320", "--height", "240"])
        defer { camera.stop() }
        let test = try await TestServer.make()
        try await test.application.test(.router) { client in
            let started = try await client.execute(uri: "/api/discoveries", method: .post, headers: jsonHeaders, body: json([
                "subnets": ["127.0.0.1/32"], "ports": [camera.port], "onvif": false,
                "username": "admin", "password": "s3cret", "timeout": 2,
            ]))
            #expect(started.status == .accepted)
            let run = object(started.body)
            let id = try #require(run["id"] as? String)
            #expect(started.headers[.location] == "/api/discoveries/\(id)")
            #expect(run["state"] as? String == "running")
            #expect((run["progress"] as? [String: Any])?["hostsTotal"] as? Int == 1)
            #expect(!String(buffer: started.body).contains("s3cret"))

            let finished = try await poll(client, id)
            #expect(finished["state"] as? String == "finished")
            #expect((finished["progress"] as? [String: Any])?["hostsScanned"] as? Int == 1)
            #expect((finished["progress"] as? [String: Any])?["devicesFound"] as? Int == 1)
            let devices = finished["devices"] as? [[String: Any]] ?? []
            #expect(devices.count == 1)
            #expect(devices.first?["ip"] as? String == "127.0.0.1")
            #expect(devices.first?["rtspURLs"] as? [String] == ["rtsp://127.0.0.1:\(camera.port)/stream1",
                                                                 "rtsp://127.0.0.1:\(camera.port)/stream2"])
            #expect(devices.first?["alreadyRegistered"] as? Bool == false)

            // Credentials once for all: the run's, since none are given here.
            let added = try await client.execute(uri: "/api/discoveries/\(id)/add", method: .post, headers: jsonHeaders,
                                                 body: json(["devices": [["ip": "127.0.0.1", "name": "Porch"]]]))
            #expect(added.status == .ok)
            let results = object(added.body)["results"] as? [[String: Any]] ?? []
            #expect(results.first?["status"] as? String == "added", "\(results)")
            let cameraID = try #require(results.first?["cameraID"] as? String)
            let stored = object(try await client.execute(uri: "/api/cameras/\(cameraID)", method: .get).body)
            #expect(stored["name"] as? String == "Porch")
            #expect(stored["rtspURL"] as? String == "rtsp://127.0.0.1:\(camera.port)/stream1")
            #expect(stored["username"] as? String == "admin")
            #expect(stored["hasPassword"] as? Bool == true)
            let profiles = stored["profiles"] as? [[String: Any]] ?? []
            #expect(profiles.contains { $0["role"] as? String == "sub" && $0["rtspURL"] as? String == "rtsp://127.0.0.1:\(camera.port)/stream2" })

            // Adding it again is flagged, not done.
            let again = try await client.execute(uri: "/api/discoveries/\(id)/add", method: .post, headers: jsonHeaders,
                                                 body: json(["devices": [["ip": "127.0.0.1"]]]))
            let second = object(again.body)["results"] as? [[String: Any]] ?? []
            #expect(second.first?["status"] as? String == "duplicate")
            #expect(second.first?["cameraID"] as? String == cameraID)
            #expect(array(try await client.execute(uri: "/api/cameras", method: .get).body).count == 1)

            // A new run marks it as already registered.
            let rerun = try await client.execute(uri: "/api/discoveries", method: .post, headers: jsonHeaders, body: json([
                "subnets": ["127.0.0.1"], "ports": [camera.port], "onvif": false, "timeout": 2,
            ]))
            let rerunDevices = try await poll(client, object(rerun.body)["id"] as! String)["devices"] as? [[String: Any]] ?? []
            #expect(rerunDevices.first?["alreadyRegistered"] as? Bool == true)
            #expect(rerunDevices.first?["registeredCameraID"] as? String == cameraID)
            #expect(rerunDevices.first?["requiresAuthentication"] as? Bool == true, "no credentials this time")

            let unknownDevice = try await client.execute(uri: "/api/discoveries/\(id)/add", method: .post, headers: jsonHeaders,
                                                         body: json(["devices": [["ip": "127.0.0.9"]]]))
            #expect(unknownDevice.status == .badRequest)
            #expect(object(unknownDevice.body)["field"] as? String == "devices[0].ip")
            let missing = try await client.execute(uri: "/api/discoveries/\(UUID().uuidString)", method: .get)
            #expect(missing.status == .notFound)
        }
        await test.shutdown()
    }

    @Test func cancelStopsARun() async throws {
        let test = try await TestServer.make()
        try await test.application.test(.router) { client in
            // A /22 of loopback addresses nobody listens on: refused at once, but 1,022 hosts × 5 ports take a moment.
            let started = try await client.execute(uri: "/api/discoveries", method: .post, headers: jsonHeaders, body: json([
                "subnets": ["127.1.0.0/22"], "onvif": false,
            ]))
            #expect(started.status == .accepted)
            let id = object(started.body)["id"] as! String
            let cancelled = try await client.execute(uri: "/api/discoveries/\(id)", method: .delete)
            #expect(cancelled.status == .ok)
            let final = try await poll(client, id)
            #expect(final["state"] as? String == "cancelled")
            let add = try await client.execute(uri: "/api/discoveries/\(id)/add", method: .post, headers: jsonHeaders,
                                               body: json(["devices": []]))
            #expect(add.status == .badRequest)
            #expect(object(add.body)["field"] as? String == "devices")
        }
        await test.shutdown()
    }

    /// `GET /api/discoveries/{id}/events`: the run's progress pushed as server-sent events while it runs, then one
    /// `done` event with its devices, and the stream ends. A listener that accepts and never answers keeps the
    /// run going for the answer timeout (1 s), so the stream is opened while it runs.
    @Test(.enabled(if: PeerRTSPServer.isAvailable, "needs the GStreamer RTSP peer"))
    func progressIsPushedThenTheRunWithItsDevices() async throws {
        let camera = try PeerRTSPServer(["--path", "/stream1", "--width", "320", "--height", "240"])
        defer { camera.stop() }
        let silent = Process()
        silent.executableURL = URL(fileURLWithPath: PeerRTSPServer.python)
        silent.arguments = [PeerRTSPServer.repositoryRoot.appendingPathComponent("Tests/Peers/tcp_peer.py").path,
                            "silent", "--host", "127.0.0.1"]
        let output = Pipe()
        silent.standardOutput = output
        try silent.run()
        defer { silent.terminate() }
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data([0x0A]) { break }
            line.append(byte)
        }
        let silentPort = try #require(Int(String(decoding: line, as: UTF8.self).dropFirst(6)), "tcp_peer.py silent did not start")

        let test = try await TestServer.make()
        try await test.application.test(.router) { client in
            let started = try await client.execute(uri: "/api/discoveries", method: .post, headers: jsonHeaders, body: json([
                "subnets": ["127.0.0.0/29"], "ports": [camera.port, silentPort], "onvif": false, "timeout": 5,
            ]))
            let id = try #require(object(started.body)["id"] as? String)
            let stream = try await client.execute(uri: "/api/discoveries/\(id)/events", method: .get)
            #expect(stream.status == .ok)
            #expect(stream.headers[.contentType] == "text/event-stream; charset=utf-8")
            // Events are "event: NAME\ndata: JSON\n\n"; the stream ended, so the router test has all of them.
            var events: [(name: String, data: [String: Any])] = []
            for block in String(buffer: stream.body).components(separatedBy: "\n\n") {
                let lines = block.split(separator: "\n")
                guard let name = lines.first(where: { $0.hasPrefix("event: ") })?.dropFirst(7),
                      let data = lines.first(where: { $0.hasPrefix("data: ") })?.dropFirst(6) else { continue }
                events.append((String(name), object(ByteBuffer(string: String(data)))))
            }
            #expect(events.count >= 2, "\(events.map(\.name))")
            #expect(events.last?.name == "done")
            #expect(events.dropLast().allSatisfy { $0.name == "progress" && $0.data["state"] as? String == "running" })
            let scanned = events.compactMap { ($0.data["progress"] as? [String: Any])?["hostsScanned"] as? Int }
            #expect(scanned == scanned.sorted(), "progress only rises: \(scanned)")
            #expect(events.first?.data["devices"] as? [Any] == nil || (events.first?.data["devices"] as? [Any])?.isEmpty == true)
            let done = events.last?.data ?? [:]
            #expect(done["state"] as? String == "finished")
            #expect((done["progress"] as? [String: Any])?["hostsScanned"] as? Int == 6)
            let devices = done["devices"] as? [[String: Any]] ?? []
            #expect(devices.map { $0["ip"] as? String } == ["127.0.0.1"])
            #expect(devices.first?["rtspURLs"] as? [String] == ["rtsp://127.0.0.1:\(camera.port)/stream1"])

            // A finished run's stream is its final state at once, then the end.
            let again = try await client.execute(uri: "/api/discoveries/\(id)/events", method: .get)
            #expect(String(buffer: again.body).components(separatedBy: "event: ").count == 2)
            #expect(String(buffer: again.body).contains("event: done"))
            let missing = try await client.execute(uri: "/api/discoveries/\(UUID().uuidString)/events", method: .get)
            #expect(missing.status == .notFound)
        }
        await test.shutdown()
    }

    /// GET /api/discoveries/{id} until the run is no longer running (at most 60 s).
    func poll(_ client: some TestClientProtocol, _ id: String) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let response = try await client.execute(uri: "/api/discoveries/\(id)", method: .get)
            let run = object(response.body)
            if run["state"] as? String != "running" { return run }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw PeerError(message: "discovery \(id) did not finish within 60 s")
    }
}
