import Discovery
import Foundation
import Hummingbird

/// `/api/discoveries…` and `/api/settings/discovery`: finding cameras over HTTP. Progress is polled with
/// `GET /api/discoveries/{id}` (the web app does so a few times a second while a run is going).
struct DiscoveryController: Sendable {
    let discovery: DiscoveryManager

    func addRoutes(to group: RouterGroup<WatchBoxRequestContext>) {
        group.post("discoveries") { request, context -> EditedResponse<DiscoveryResponse> in
            let run = try await discovery.start(try await decode(DiscoveryInput.self, request, context))
            var headers = HTTPFields()
            headers[.location] = "/api/discoveries/\(run.id.uuidString)"
            return EditedResponse(status: .accepted, headers: headers, response: run)
        }
        group.get("discoveries/:id") { _, context in try discovery.get(try id(context)) }
        group.delete("discoveries/:id") { _, context in try discovery.cancel(try id(context)) }
        group.post("discoveries/:id/add") { request, context in
            try await discovery.add(try id(context), try await decode(DiscoveryAddInput.self, request, context))
        }
        group.get("settings/discovery") { _, _ in try await discovery.settingsResponse() }
        group.put("settings/discovery") { request, context in
            try await discovery.updateSettings(try await decode(DiscoverySettingsInput.self, request, context))
        }
    }
}
