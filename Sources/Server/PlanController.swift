import Foundation
import Hummingbird

/// `/api/sites…`, `/api/plans…`, `/api/placements…`: floor plans over HTTP (issue 8).
struct PlanController: Sendable {
    let plans: PlanService

    func addRoutes(to group: RouterGroup<WatchBoxRequestContext>) {
        group.get("sites") { _, _ in try await plans.sites() }
        group.post("sites") { request, context -> EditedResponse<SiteResponse> in
            let site = try await plans.createSite(try await decode(SiteInput.self, request, context))
            var headers = HTTPFields()
            headers[.location] = "/api/sites/\(site.id.uuidString)"
            return EditedResponse(status: .created, headers: headers, response: site)
        }
        group.get("sites/:id") { _, context in try await plans.site(try uuid(context, "site")) }
        group.patch("sites/:id") { request, context in
            try await plans.updateSite(try uuid(context, "site"), try await decode(SiteInput.self, request, context))
        }
        group.delete("sites/:id") { _, context -> HTTPResponse.Status in
            try await plans.deleteSite(try uuid(context, "site"))
            return .noContent
        }
        group.post("sites/:id/plans") { request, context -> EditedResponse<PlanResponse> in
            let plan = try await plans.createPlan(siteID: try uuid(context, "site"), try await decode(PlanInput.self, request, context))
            var headers = HTTPFields()
            headers[.location] = "/api/plans/\(plan.plan.id.uuidString)"
            return EditedResponse(status: .created, headers: headers, response: plan)
        }
        group.get("plans/:id") { _, context in try await plans.plan(try uuid(context, "floor plan")) }
        group.patch("plans/:id") { request, context in
            try await plans.updatePlan(try uuid(context, "floor plan"), try await decode(PlanInput.self, request, context))
        }
        group.delete("plans/:id") { _, context -> HTTPResponse.Status in
            try await plans.deletePlan(try uuid(context, "floor plan"))
            return .noContent
        }
        group.put("plans/:id/image") { request, context -> PlanResponse in
            let id = try uuid(context, "floor plan")
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: PlanImage.maxBytes)
            } catch {
                throw APIError.badRequest("image: the picture is more than 10 MB, the most a floor plan may have: save it smaller (JPEG or PNG at a lower resolution, or SVG)",
                                          field: "image")
            }
            return try await plans.setImage(id, Data(body.readableBytesView))
        }
        group.get("plans/:id/image") { request, context -> Response in
            let image = try await plans.image(try uuid(context, "floor plan"))
            return Self.imageResponse(image, request: request)
        }
        group.post("plans/:id/placements") { request, context -> EditedResponse<PlacementResponse> in
            let placement = try await plans.createPlacement(planID: try uuid(context, "floor plan"),
                                                            try await decode(PlacementInput.self, request, context))
            return EditedResponse(status: .created, response: placement)
        }
        group.patch("placements/:id") { request, context in
            try await plans.updatePlacement(try uuid(context, "placement"), try await decode(PlacementInput.self, request, context))
        }
        group.delete("placements/:id") { _, context -> HTTPResponse.Status in
            try await plans.deletePlacement(try uuid(context, "placement"))
            return .noContent
        }
    }

    /// The picture with validators (RFC 9110 §8.8.3 ETag, §13.1.2 If-None-Match → 304) and caching (RFC 9111
    /// §5.2.2): an address with the current `?v=` never changes, so it may be kept for a year; any other is
    /// checked again each time. SVG gets a Content-Security-Policy that forbids scripts and loads, should a
    /// browser open it on its own.
    static func imageResponse(_ image: (bytes: Data, type: String, version: Int, updatedAt: Date), request: Request) -> Response {
        let etag = "\"v\(image.version)-\(image.bytes.count)\""
        var headers = HTTPFields()
        headers[.eTag] = etag
        headers[.contentType] = image.type
        headers[.init("X-Content-Type-Options")!] = "nosniff"
        let versioned = request.uri.queryParameters.get("v") == String(image.version)
        headers[.cacheControl] = versioned ? "private, max-age=31536000, immutable" : "private, no-cache"
        headers[.lastModified] = httpDate(image.updatedAt)
        if image.type == "image/svg+xml" {
            headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox"
        }
        if let match = request.headers[.ifNoneMatch], match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag }) {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: image.bytes)))
    }

    /// RFC 9110 §5.6.7 IMF-fixdate.
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}

/// The `:id` parameter as a UUID, or 404 naming what it should have been.
func uuid(_ context: WatchBoxRequestContext, _ what: String, _ name: String = "id") throws -> UUID {
    guard let text = context.parameters.get(name), let id = UUID(uuidString: text) else {
        throw APIError.notFound("\(context.parameters.get(name) ?? "") is not a \(what) id")
    }
    return id
}
