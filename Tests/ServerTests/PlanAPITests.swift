import Foundation
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import NIOCore
@testable import Server
import Testing

/// The floor-plan API (issue 8): sites, plans with pictures, placements, every validation rule, caching,
/// and the `plans` server-sent event.
@Suite("REST API: sites, floor plans, placements", .serialized)
struct PlanAPITests {
    /// A site, a plan on it with a PNG picture, and a camera: the ids.
    struct Fixture {
        var site: String
        var plan: String
        var camera: String
    }

    static func fixture(_ client: some TestClientProtocol) async throws -> Fixture {
        let site = try await client.execute(uri: "/api/sites", method: .post, headers: jsonHeaders,
                                            body: json(["name": "Building B", "address": "12 Harbour Road"]))
        #expect(site.status == .created)
        let siteID = try #require(object(site.body)["id"] as? String)
        let plan = try await client.execute(uri: "/api/sites/\(siteID)/plans", method: .post, headers: jsonHeaders,
                                            body: json(["name": "Ground floor", "floorLevel": 0]))
        #expect(plan.status == .created)
        let planID = try #require((object(plan.body)["plan"] as? [String: Any])?["id"] as? String)
        let image = try await client.execute(uri: "/api/plans/\(planID)/image", method: .put, headers: [.contentType: "image/png"],
                                             body: ByteBuffer(bytes: PlanImageFixtures.png(width: 1600, height: 900)))
        #expect(image.status == .ok)
        let camera = try await client.execute(uri: "/api/cameras", method: .post, headers: jsonHeaders,
                                              body: json(["name": "Back door", "rtspURL": "rtsp://192.0.2.30/stream"]))
        let cameraID = try #require(object(camera.body)["id"] as? String)
        return Fixture(site: siteID, plan: planID, camera: cameraID)
    }

    @Test func buildASiteWithAPlanAndPlaceACamera() async throws {
        let test = try await TestServer.make()
        try await test.application.test(.router) { client in
            let ids = try await Self.fixture(client)
            let placed = try await client.execute(uri: "/api/plans/\(ids.plan)/placements", method: .post, headers: jsonHeaders,
                                                  body: json(["cameraID": ids.camera, "x": 0.25, "y": 0.5, "direction": 135,
                                                              "fieldOfView": 70, "range": 0.2]))
            #expect(placed.status == .created)
            let placement = object(placed.body)
            let placementID = try #require(placement["id"] as? String)
            #expect(placement["x"] as? Double == 0.25 && placement["direction"] as? Double == 135)

            // The list has plans with their picture and which cameras are on them, but no positions.
            let sites = array(try await client.execute(uri: "/api/sites", method: .get).body)
            #expect(sites.count == 1 && sites[0]["name"] as? String == "Building B")
            let plans = sites[0]["plans"] as? [[String: Any]] ?? []
            #expect(plans.count == 1)
            #expect(plans[0]["imageWidth"] as? Double == 1600 && plans[0]["imageHeight"] as? Double == 900)
            #expect(plans[0]["imageType"] as? String == "image/png")
            #expect((plans[0]["imageURL"] as? String)?.hasSuffix("/image?v=1") == true)
            #expect((plans[0]["cameraIDs"] as? [String]) == [ids.camera])
            #expect(plans[0]["placements"] == nil)

            // Opening the plan gives the positions.
            let opened = object(try await client.execute(uri: "/api/plans/\(ids.plan)", method: .get).body)
            #expect(opened["siteName"] as? String == "Building B")
            let placements = opened["placements"] as? [[String: Any]] ?? []
            #expect(placements.count == 1 && placements[0]["fieldOfView"] as? Double == 70)

            let moved = try await client.execute(uri: "/api/placements/\(placementID)", method: .patch, headers: jsonHeaders,
                                                 body: json(["x": 1, "y": 0, "direction": 359.9, "range": 1]))
            #expect(moved.status == .ok)
            #expect(object(moved.body)["x"] as? Double == 1 && object(moved.body)["fieldOfView"] as? Double == 70)

            let renamed = try await client.execute(uri: "/api/plans/\(ids.plan)", method: .patch, headers: jsonHeaders,
                                                   body: json(["name": "Level 0", "floorLevel": -1]))
            #expect((object(renamed.body)["plan"] as? [String: Any])?["name"] as? String == "Level 0")
            let site = try await client.execute(uri: "/api/sites/\(ids.site)", method: .patch, headers: jsonHeaders,
                                                body: json(["name": "Building C"]))
            #expect(object(site.body)["name"] as? String == "Building C" && object(site.body)["address"] as? String == "12 Harbour Road")

            // The same camera on a second plan.
            let second = try await client.execute(uri: "/api/sites/\(ids.site)/plans", method: .post, headers: jsonHeaders,
                                                  body: json(["name": "First floor", "floorLevel": 1]))
            let secondID = try #require((object(second.body)["plan"] as? [String: Any])?["id"] as? String)
            let again = try await client.execute(uri: "/api/plans/\(secondID)/placements", method: .post, headers: jsonHeaders,
                                                 body: json(["cameraID": ids.camera, "x": 0.9, "y": 0.9]))
            #expect(again.status == .created)
            #expect(object(again.body)["fieldOfView"] as? Double == 90, "defaults for what was not given")

            #expect(try await client.execute(uri: "/api/placements/\(placementID)", method: .delete).status == .noContent)
            #expect(try await client.execute(uri: "/api/placements/\(placementID)", method: .delete).status == .notFound)
            #expect(try await client.execute(uri: "/api/plans/\(secondID)", method: .delete).status == .noContent)
            #expect(try await client.execute(uri: "/api/sites/\(ids.site)", method: .delete).status == .noContent)
            #expect(array(try await client.execute(uri: "/api/sites", method: .get).body).isEmpty)
            #expect(try await client.execute(uri: "/api/plans/\(ids.plan)", method: .get).status == .notFound)
        }
        await test.shutdown()
    }

    @Test(arguments: [
        (["x": 1.5, "y": 0.5], "x"), (["x": -0.1, "y": 0.5], "x"), (["x": 0.5, "y": 1.0001], "y"),
        (["x": 0.5, "y": -2], "y"), (["x": 0.5, "y": 0.5, "direction": 360], "direction"),
        (["x": 0.5, "y": 0.5, "direction": -5], "direction"), (["x": 0.5, "y": 0.5, "fieldOfView": 0], "fieldOfView"),
        (["x": 0.5, "y": 0.5, "fieldOfView": 400], "fieldOfView"), (["x": 0.5, "y": 0.5, "range": 0], "range"),
        (["x": 0.5, "y": 0.5, "range": 3], "range"), (["y": 0.5], "x"), (["x": 0.5], "y"),
        (["x": "left", "y": 0.5], "x"),
    ] as [([String: any Sendable], String)])
    func placementsOutOfRangeAre400NamingTheField(body: [String: any Sendable], field: String) async throws {
        let test = try await TestServer.make()
        try await test.application.test(.router) { client in
            let ids = try await Self.fixture(client)
            var input = body
            input["cameraID"] = ids.camera
            let response = try await client.execute(uri: "/api/plans/\(ids.plan)/placements", method: .post,
                                                    headers: jsonHeaders, body: json(input))
            #expect(response.status == .badRequest)
            let error = object(response.body)
            #expect(error["field"] as? String == field, "\(error)")
            #expect((error["error"] as? String)?.contains(field) == true, "the message names the field: \(error)")

            // The same rule when moving an existing placement.
            guard body["x"] is Double, body["y"] is Double else { return }
            let placed = try await client.execute(uri: "/api/plans/\(ids.plan)/placements", method: .post, headers: jsonHeaders,
                                                  body: json(["cameraID": ids.camera, "x": 0.5, "y": 0.5]))
            let placementID = try #require(object(placed.body)["id"] as? String)
            let patched = try await client.execute(uri: "/api/placements/\(placementID)", method: .patch, headers: jsonHeaders,
                                                   body: json(body))
            #expect(patched.status == .badRequest)
            #expect(object(patched.body)["field"] as? String == field)
        }
        await test.shutdown()
    }

    @Test func placementNeedsAKnownCameraOncePerPlan() async throws {
        let test = try await TestServer.make()
        try await test.application.test(.router) { client in
            let ids = try await Self.fixture(client)
            let path = "/api/plans/\(ids.plan)/placements"
            for (body, field) in [
                (["x": 0.5, "y": 0.5] as [String: Any], "cameraID"),
                (["cameraID": "not-a-uuid", "x": 0.5, "y": 0.5], "cameraID"),
                (["cameraID": UUID().uuidString, "x": 0.5, "y": 0.5], "cameraID"),
            ] {
                let response = try await client.execute(uri: path, method: .post, headers: jsonHeaders, body: json(body))
                #expect(response.status == .badRequest && object(response.body)["field"] as? String == field, "\(body)")
            }
            let first = try await client.execute(uri: path, method: .post, headers: jsonHeaders,
                                                 body: json(["cameraID": ids.camera, "x": 0.1, "y": 0.1]))
            #expect(first.status == .created)
            let twice = try await client.execute(uri: path, method: .post, headers: jsonHeaders,
                                                 body: json(["cameraID": ids.camera, "x": 0.2, "y": 0.2]))
            #expect(twice.status == .badRequest && object(twice.body)["field"] as? String == "cameraID")
            // Deleting the camera takes it off the plan.
            #expect(try await client.execute(uri: "/api/cameras/\(ids.camera)", method: .delete).status == .noContent)
            let opened = object(try await client.execute(uri: "/api/plans/\(ids.plan)", method: .get).body)
            #expect((opened["placements"] as? [Any])?.isEmpty == true)
        }
        await test.shutdown()
    }

    @Test func anEleventhPlanIs400NamingTheSite() async throws {
        let test = try await TestServer.make()
        try await test.application.test(.router) { client in
            let site = try await client.execute(uri: "/api/sites", method: .post, headers: jsonHeaders, body: json(["name": "Campus"]))
            let siteID = try #require(object(site.body)["id"] as? String)
            for level in 0..<10 {
                let plan = try await client.execute(uri: "/api/sites/\(siteID)/plans", method: .post, headers: jsonHeaders,
                                                    body: json(["name": "Floor \(level)", "floorLevel": level]))
                #expect(plan.status == .created)
            }
            let eleventh = try await client.execute(uri: "/api/sites/\(siteID)/plans", method: .post, headers: jsonHeaders,
                                                    body: json(["name": "Roof", "floorLevel": 10]))
            #expect(eleventh.status == .badRequest)
            let error = object(eleventh.body)
            #expect(error["field"] as? String == "siteID")
            #expect((error["error"] as? String)?.contains("already has 10 floor plans") == true, "\(error)")
        }
        await test.shutdown()
    }

    @Test(arguments: [
        ("/api/sites", ["address": "x"], "name"), ("/api/sites", ["name": "   "], "name"),
        ("/api/sites", ["name": String(repeating: "n", count: 101)], "name"),
        ("/api/sites", ["name": "A", "address": String(repeating: "a", count: 301)], "address"),
        ("PLANS", ["floorLevel": 1], "name"), ("PLANS", ["name": ""], "name"),
        ("PLANS", ["name": "Attic", "floorLevel": 500], "floorLevel"), ("PLANS", ["name": "Attic", "floorLevel": "top"], "floorLevel"),
    ] as [(String, [String: any Sendable], String)])
    func missingOrBadNamesAre400NamingTheField(path: String, body: [String: any Sendable], field: String) async throws {
        let test = try await TestServer.make()
        try await test.application.test(.router) { client in
            var uri = path
            if path == "PLANS" {
                let site = try await client.execute(uri: "/api/sites", method: .post, headers: jsonHeaders, body: json(["name": "S"]))
                uri = "/api/sites/\(object(site.body)["id"] as! String)/plans"
            }
            let response = try await client.execute(uri: uri, method: .post, headers: jsonHeaders, body: json(body))
            #expect(response.status == .badRequest)
            #expect(object(response.body)["field"] as? String == field, "\(object(response.body))")
        }
        await test.shutdown()
    }

    @Test func wrongOrOversizedPicturesAre400NamingTheImage() async throws {
        let test = try await TestServer.make()
        try await test.application.test(.router) { client in
            let ids = try await Self.fixture(client)
            let path = "/api/plans/\(ids.plan)/image"
            var big = PlanImageFixtures.png(width: 100, height: 100)
            big.append(Data(count: PlanImage.maxBytes))
            for (data, said) in [
                (Data("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8), "GIF"),
                (Data("just text".utf8), "JPEG, PNG or SVG"),
                // A PNG's name and Content-Type do not make it one: the bytes decide.
                (Data("<html><script>alert(1)</script></html>".utf8), "not SVG"),
                (big, "10 MB"),
                (Data(), "empty"),
            ] {
                let response = try await client.execute(uri: path, method: .put, headers: [.contentType: "image/png"],
                                                        body: ByteBuffer(bytes: data))
                #expect(response.status == .badRequest, "\(said)")
                let error = object(response.body)
                #expect(error["field"] as? String == "image")
                #expect((error["error"] as? String)?.contains(said) == true, "\(error)")
            }
            // The picture stored before is untouched.
            let plan = object(try await client.execute(uri: "/api/plans/\(ids.plan)", method: .get).body)
            #expect((plan["plan"] as? [String: Any])?["imageType"] as? String == "image/png")
        }
        await test.shutdown()
    }

    @Test func anSVGIsSanitizedAndServedWithCachingHeaders() async throws {
        let test = try await TestServer.make()
        try await test.application.test(.router) { client in
            let ids = try await Self.fixture(client)
            let svg = """
                <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 500" onload="alert(1)">\
                <script>alert(2)</script><image href="https://evil.example/x.png" width="1" height="1"/>\
                <rect width="1000" height="500" fill="#eee"/></svg>
                """
            let uploaded = try await client.execute(uri: "/api/plans/\(ids.plan)/image", method: .put,
                                                    headers: [.contentType: "application/octet-stream"], body: ByteBuffer(string: svg))
            #expect(uploaded.status == .ok)
            let body = object(uploaded.body)
            let plan = try #require(body["plan"] as? [String: Any])
            #expect(plan["imageType"] as? String == "image/svg+xml")
            #expect(plan["imageWidth"] as? Double == 1000 && plan["imageHeight"] as? Double == 500)
            let removed = body["removedFromImage"] as? [String] ?? []
            #expect(removed.contains("<script> element") && removed.contains("onload attribute") && removed.contains("external href"))
            let url = try #require(plan["imageURL"] as? String)
            #expect(url.hasSuffix("?v=2"))

            let image = try await client.execute(uri: url, method: .get)
            #expect(image.status == .ok)
            #expect(image.headers[.contentType] == "image/svg+xml")
            #expect(image.headers[.cacheControl] == "private, max-age=31536000, immutable")
            #expect(image.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
            let text = String(buffer: image.body)
            #expect(!text.contains("alert") && !text.contains("evil.example") && !text.contains("onload") && text.contains("<rect"))

            let etag = try #require(image.headers[.eTag])
            let again = try await client.execute(uri: url, method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified && again.body.readableBytes == 0)
            // An address without the current version is checked again every time.
            let unversioned = try await client.execute(uri: "/api/plans/\(ids.plan)/image", method: .get)
            #expect(unversioned.headers[.cacheControl] == "private, no-cache")
        }
        await test.shutdown()
    }

    @Test func otherViewersHearOfChangesThroughServerSentEvents() async throws {
        let test = try await TestServer.make()
        try await test.live { client in
            let port = try #require(client.port)
            let reader = Task.detached { try await readHTTPStream(port: port, path: "/api/events", until: "event: plans", timeout: 20) }
            // Keep changing something until the reader, once subscribed, has heard of it.
            let writer = Task {
                var count = 0
                while !Task.isCancelled && count < 60 {
                    _ = try? await client.execute(uri: "/api/sites", method: .post, headers: jsonHeaders, body: json(["name": "Site \(count)"]))
                    count += 1
                    try? await Task.sleep(for: .milliseconds(300))
                }
            }
            let text = try await reader.value
            writer.cancel()
            #expect(text.contains("event: plans"))
            #expect(text.contains(#""kind":"site""#))
        }
        await test.shutdown()
    }
}
