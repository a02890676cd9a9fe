import Discovery
import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle

/// `/api/discoveries…` and `/api/settings/discovery`: finding cameras over HTTP. Progress is pushed live by
/// `GET /api/discoveries/{id}/events` (server-sent events, WHATWG HTML §9.2): a `progress` event with the run
/// (state, subnets, progress) at once and at every change, then one `done` event with the whole run and its
/// devices, after which the stream ends. `GET /api/discoveries/{id}` gives the same state to pollers (the web
/// app's fallback when the push drops).
struct DiscoveryController: Sendable {
    let discovery: DiscoveryManager
    /// A comment line this often keeps proxies from timing the stream out.
    var pingInterval: Duration = .seconds(15)

    func addRoutes(to group: RouterGroup<WatchBoxRequestContext>) {
        group.post("discoveries") { request, context -> EditedResponse<DiscoveryResponse> in
            let run = try await discovery.start(try await decode(DiscoveryInput.self, request, context))
            var headers = HTTPFields()
            headers[.location] = "/api/discoveries/\(run.id.uuidString)"
            return EditedResponse(status: .accepted, headers: headers, response: run)
        }
        group.get("discoveries/:id") { _, context in try discovery.get(try id(context)) }
        group.get("discoveries/:id/events") { _, context -> Response in
            let updates = try discovery.updates(try id(context))
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream; charset=utf-8"
            headers[.cacheControl] = "no-cache"
            headers[.init("X-Accel-Buffering")!] = "no"
            let pingInterval = self.pingInterval
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                try await Self.stream(updates, pingInterval: pingInterval, into: &writer)
            })
        }
        group.delete("discoveries/:id") { _, context in try discovery.cancel(try id(context)) }
        group.post("discoveries/:id/add") { request, context in
            try await discovery.add(try id(context), try await decode(DiscoveryAddInput.self, request, context))
        }
        group.get("settings/discovery") { _, _ in try await discovery.settingsResponse() }
        group.put("settings/discovery") { request, context in
            try await discovery.updateSettings(try await decode(DiscoverySettingsInput.self, request, context))
        }
    }

    /// The run's state while it runs (`progress`, without devices: there are none yet), then `done` with the
    /// devices; a ping comment every `pingInterval`.
    static func stream(_ updates: AsyncStream<DiscoveryResponse>, pingInterval: Duration,
                       into writer: inout any ResponseBodyWriter) async throws {
        let (events, sink) = AsyncStream.makeStream(of: ByteBuffer.self, bufferingPolicy: .unbounded)
        let feeder = Task {
            for await response in updates {
                let name = response.finishedAt == nil ? "progress" : "done"
                let data = (try? WatchBoxRequestContext.encoder.encode(response)) ?? Data("{}".utf8)
                sink.yield(ByteBuffer(string: "event: \(name)\ndata: \(String(decoding: data, as: UTF8.self))\n\n"))
            }
            sink.finish()
        }
        let pinger = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: pingInterval)
                if !Task.isCancelled { sink.yield(ByteBuffer(string: ": ping\n\n")) }
            }
        }
        defer {
            feeder.cancel()
            pinger.cancel()
        }
        try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
        try await withGracefulShutdownHandler {
            for await event in events {
                try await writer.write(event)
            }
        } onGracefulShutdown: {
            sink.finish()
        }
        try await writer.finish(nil)
    }
}
