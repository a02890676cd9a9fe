import Foundation
import Hub
import Hummingbird
import NIOCore
import Recording
import ServiceLifecycle

/// `GET /api/events`: server-sent events with every camera's status as it changes, and a nudge when
/// the camera list changes; a `plans` event when a site, floor plan or placement changes.
struct EventsController: Sendable {
    let service: CameraService
    /// Floor-plan changes go out as `plans` events (issue 8); nil: none.
    var plans: PlanService? = nil
    /// Recording state changes go out as `recording` events (issue 7); nil: none.
    var recordings: RecordingManager? = nil
    /// A comment line this often keeps proxies and the browser from timing the stream out.
    var pingInterval: Duration = .seconds(15)

    func addRoutes(to group: RouterGroup<WatchBoxRequestContext>) {
        group.get("events") { _, _ -> Response in
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream; charset=utf-8"
            headers[.cacheControl] = "no-cache"
            headers[.init("X-Accel-Buffering")!] = "no"
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                try await stream(into: &writer)
            })
        }
    }

    private struct Snapshot: Encodable {
        struct Entry: Encodable {
            var id: UUID
            var status: CameraStatus
        }
        var cameras: [Entry]
    }

    private struct StatusEvent: Encodable {
        var id: UUID
        var status: CameraStatus
    }

    private static func event(_ name: String, _ value: some Encodable) -> ByteBuffer {
        let data = (try? WatchBoxRequestContext.encoder.encode(value)) ?? Data("{}".utf8)
        return ByteBuffer(string: "event: \(name)\ndata: \(String(decoding: data, as: UTF8.self))\n\n")
    }

    private func stream(into writer: inout any ResponseBodyWriter) async throws {
        // Subscribe before the snapshot, so that no change falls between them.
        let statuses = service.hub.subscribe()
        let changes = service.changes.subscribe()
        let planChanges = plans?.changes.subscribe()
        let recordingChanges = recordings?.subscribe()
        let (events, sink) = AsyncStream.makeStream(of: ByteBuffer.self, bufferingPolicy: .bufferingNewest(512))
        let pingInterval = self.pingInterval
        let feeders = [
            Task {
                for await (id, status) in statuses { sink.yield(Self.event("status", StatusEvent(id: id, status: status))) }
                sink.finish()
            },
            Task {
                for await _ in changes { sink.yield(ByteBuffer(string: "event: cameras\ndata: {}\n\n")) }
                sink.finish()
            },
            Task {
                guard let planChanges else { return }
                for await change in planChanges { sink.yield(Self.event("plans", change)) }
            },
            Task {
                guard let recordingChanges else { return }
                for await (id, state) in recordingChanges {
                    sink.yield(Self.event("recording", RecordingEvent(cameraID: id, state: RecordingStateResponse(state))))
                }
            },
            Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: pingInterval)
                    sink.yield(ByteBuffer(string: ": ping\n\n"))
                }
            },
        ]
        defer { for feeder in feeders { feeder.cancel() } }

        let current = service.hub.statuses().map { Snapshot.Entry(id: $0.key, status: $0.value) }
        try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
        try await writer.write(Self.event("snapshot", Snapshot(cameras: current)))
        // The server shutting down ends the stream (the browser's EventSource reconnects to the next one).
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
