import Foundation
import Hub
import Hummingbird
import HummingbirdTesting
import NIOCore
@testable import Server
import Testing

@Suite("REST API: cameras, profiles, validation, test connection", .serialized)
struct CameraAPITests {
    @Test func createListReadUpdateDelete() async throws {
        let test = try await TestServer.make()
        try await test.application.test(.router) { client in
            let created = try await client.execute(uri: "/api/cameras", method: .post, headers: jsonHeaders, body: json([
                "name": "Front door", "rtspURL": "rtsp://192.0.2.10:554/Streaming/Channels/101",
                "username": "admin", "password": "s3cret-pass",
            ]))
            #expect(created.status == .created)
            let camera = object(created.body)
            let id = try #require(camera["id"] as? String)
            #expect(camera["name"] as? String == "Front door")
            #expect(camera["hasPassword"] as? Bool == true)
            #expect(camera["password"] == nil && camera["passwordSealed"] == nil)
            #expect(camera["host"] as? String == "192.0.2.10")
            #expect(camera["port"] as? Int == 554)
            #expect((camera["status"] as? [String: Any])?["state"] as? String == "idle")
            #expect(created.headers[.location] == "/api/cameras/\(id)")
            #expect(!String(buffer: created.body).contains("s3cret-pass"))

            let list = try await client.execute(uri: "/api/cameras", method: .get)
            #expect(array(list.body).count == 1)

            let patched = try await client.execute(uri: "/api/cameras/\(id)", method: .patch, headers: jsonHeaders,
                                                   body: json(["name": "Back door", "transport": "udp"]))
            #expect(patched.status == .ok)
            #expect(object(patched.body)["name"] as? String == "Back door")
            #expect(object(patched.body)["transport"] as? String == "udp")
            #expect(object(patched.body)["hasPassword"] as? Bool == true, "an absent password is unchanged")

            let cleared = try await client.execute(uri: "/api/cameras/\(id)", method: .patch, headers: jsonHeaders,
                                                   body: json(["password": ""]))
            #expect(object(cleared.body)["hasPassword"] as? Bool == false)

            let deleted = try await client.execute(uri: "/api/cameras/\(id)", method: .delete)
            #expect(deleted.status == .noContent)
            let gone = try await client.execute(uri: "/api/cameras/\(id)", method: .get)
            #expect(gone.status == .notFound)
            #expect((object(gone.body)["error"] as? String)?.contains("no camera") == true)
        }
        await test.shutdown()
    }

    @Test func credentialsInsideTheURLAreMovedOut() async throws {
        let test = try await TestServer.make()
        try await test.application.test(.router) { client in
            let created = try await client.execute(uri: "/api/cameras", method: .post, headers: jsonHeaders, body: json([
                "name": "Garage", "rtspURL": "rtsp://viewer:pa55word@192.0.2.11/stream1",
            ]))
            #expect(created.status == .created)
            let camera = object(created.body)
            #expect(camera["rtspURL"] as? String == "rtsp://192.0.2.11/stream1")
            #expect(camera["username"] as? String == "viewer")
            #expect(camera["hasPassword"] as? Bool == true)
            #expect(!String(buffer: created.body).contains("pa55word"))
        }
        await test.shutdown()
    }

    @Test(arguments: [
        (["rtspURL": "rtsp://192.0.2.1/x"], "name"),
        (["name": "  ", "rtspURL": "rtsp://192.0.2.1/x"], "name"),
        (["name": "Cam"], "rtspURL"),
        (["name": "Cam", "rtspURL": "http://192.0.2.1/x"], "rtspURL"),
        (["name": "Cam", "rtspURL": "rtsp//192.0.2.1/x"], "rtspURL"),
        (["name": "Cam", "rtspURL": "rtsp://192.0.2.1/x", "transport": "sctp"], "transport"),
        (["name": "Cam", "rtspURL": "rtsp://192.0.2.1/x", "subStreamURL": "ftp://x"], "subStreamURL"),
        (["name": 42, "rtspURL": "rtsp://192.0.2.1/x"], "name"),
    ] as [([String: any Sendable], String)])
    func invalidInputIs400NamingTheField(body: [String: any Sendable], field: String) async throws {
        let test = try await TestServer.make()
        try await test.application.test(.router) { client in
            let response = try await client.execute(uri: "/api/cameras", method: .post, headers: jsonHeaders, body: json(body))
            #expect(response.status == .badRequest)
            let error = object(response.body)
            #expect(error["field"] as? String == field, "\(error)")
            #expect((error["error"] as? String)?.isEmpty == false)
        }
        await test.shutdown()
    }

    @Test func notJSONIs400() async throws {
        let test = try await TestServer.make()
        try await test.application.test(.router) { client in
            let response = try await client.execute(uri: "/api/cameras", method: .post, headers: jsonHeaders,
                                                    body: ByteBuffer(string: "{name: nope"))
            #expect(response.status == .badRequest)
            #expect(object(response.body)["error"] != nil)
        }
        await test.shutdown()
    }

    @Test func reorderTheGrid() async throws {
        let test = try await TestServer.make()
        try await test.application.test(.router) { client in
            var ids: [String] = []
            for name in ["A", "B", "C"] {
                let created = try await client.execute(uri: "/api/cameras", method: .post, headers: jsonHeaders,
                                                       body: json(["name": name, "rtspURL": "rtsp://192.0.2.1/\(name)"]))
                ids.append(object(created.body)["id"] as! String)
            }
            let reordered = try await client.execute(uri: "/api/cameras/order", method: .put, headers: jsonHeaders,
                                                     body: json(["ids": [ids[2], ids[0], ids[1]]]))
            #expect(reordered.status == .noContent)
            let list = try await client.execute(uri: "/api/cameras", method: .get)
            #expect(array(list.body).map { $0["name"] as? String } == ["C", "A", "B"])
            let unknown = try await client.execute(uri: "/api/cameras/order", method: .put, headers: jsonHeaders,
                                                   body: json(["ids": [UUID().uuidString]]))
            #expect(unknown.status == .badRequest)
        }
        await test.shutdown()
    }

    @Test func profilesAndTheSubStream() async throws {
        let test = try await TestServer.make()
        try await test.application.test(.router) { client in
            let created = try await client.execute(uri: "/api/cameras", method: .post, headers: jsonHeaders, body: json([
                "name": "Yard", "rtspURL": "rtsp://192.0.2.12/main", "subStreamURL": "rtsp://192.0.2.12/sub",
            ]))
            let camera = object(created.body)
            let id = camera["id"] as! String
            let profiles = camera["profiles"] as? [[String: Any]] ?? []
            #expect(profiles.count == 1)
            #expect(profiles.first?["role"] as? String == "sub")
            let added = try await client.execute(uri: "/api/cameras/\(id)/profiles", method: .post, headers: jsonHeaders,
                                                 body: json(["name": "Third", "rtspURL": "rtsp://192.0.2.12/third", "width": 640, "height": 360]))
            #expect(added.status == .created)
            let profileID = object(added.body)["id"] as! String
            let patched = try await client.execute(uri: "/api/cameras/\(id)/profiles/\(profileID)", method: .patch,
                                                   headers: jsonHeaders, body: json(["fps": 12.5]))
            #expect(object(patched.body)["fps"] as? Double == 12.5)
            let list = try await client.execute(uri: "/api/cameras/\(id)/profiles", method: .get)
            #expect(array(list.body).count == 2)
            let deleted = try await client.execute(uri: "/api/cameras/\(id)/profiles/\(profileID)", method: .delete)
            #expect(deleted.status == .noContent)
            let badRole = try await client.execute(uri: "/api/cameras/\(id)/profiles", method: .post, headers: jsonHeaders,
                                                   body: json(["name": "X", "rtspURL": "rtsp://192.0.2.12/x", "role": "tertiary"]))
            #expect(object(badRole.body)["field"] as? String == "role")
        }
        await test.shutdown()
    }

    @Test func testConnectionReportsAnUnreachableCameraClearly() async throws {
        let test = try await TestServer.make()
        // A loopback port nobody listens on.
        let port = closedLoopbackPort()
        try await test.application.test(.router) { client in
            let response = try await client.execute(uri: "/api/test-connection", method: .post, headers: jsonHeaders,
                                                    body: json(["rtspURL": "rtsp://127.0.0.1:\(port)/stream"]))
            #expect(response.status == .ok)
            let result = object(response.body)
            #expect(result["ok"] as? Bool == false)
            #expect(result["state"] as? String == "unreachable")
            #expect((result["error"] as? String)?.contains("127.0.0.1") == true)
        }
        await test.shutdown()
    }

    @Test func theDemoCameraAndItsSnapshot() async throws {
        let test = try await TestServer.make(demo: true)
        try await test.application.test(.router) { client in
            let list = try await client.execute(uri: "/api/cameras", method: .get)
            let cameras = array(list.body)
            #expect(cameras.count == 1, "--demo adds the demo camera to an empty registry")
            #expect(cameras.first?["isDemo"] as? Bool == true)
            let id = try #require(cameras.first?["id"] as? String)
            let snapshot = try await client.execute(uri: "/api/cameras/\(id)/snapshot.jpg", method: .get)
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") {
                #expect(snapshot.status == .ok)
                #expect(snapshot.headers[.contentType] == "image/jpeg")
                #expect(Array(snapshot.body.readableBytesView.prefix(2)) == [0xFF, 0xD8])
                let thumbnail = try await client.execute(uri: "/api/cameras/\(id)/thumbnail.jpg", method: .get)
                #expect(thumbnail.status == .ok, "the snapshot became the thumbnail")
            } else {
                #expect(snapshot.status == .serviceUnavailable)
                #expect(String(buffer: snapshot.body).contains("ffmpeg"))
            }
        }
        await test.shutdown()
    }
}

/// A loopback TCP port that refuses connections (bound, then released).
func closedLoopbackPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    return Int(UInt16(bigEndian: address.sin_port))
}
