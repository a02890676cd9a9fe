import Hub
import Hummingbird

/// `GET /api/debug/hub`: the live path's measurements (``HubInstrumentation``) and the viewers' queue
/// counters; `DELETE /api/debug/hub` starts a new measurement window. Routed only with `serve --instrument`.
struct DebugController: Sendable {
    let hub: StreamHub
    let instrumentation: HubInstrumentation

    struct Figures: ResponseEncodable {
        /// Hub-added latency of live fragments, arrival of the frame's last RTP packet → written to the WebSocket.
        var latency: HubInstrumentation.Snapshot
        var viewers: Int
        /// Live fragments handed to viewers' queues, and dropped because a viewer fell behind (since it joined).
        var fragmentsDelivered: Int
        var fragmentsDropped: Int
        var skips: Int
    }

    func addRoutes(to group: RouterGroup<WatchBoxRequestContext>) {
        group.get("debug/hub") { _, _ -> Figures in
            let totals = hub.viewerTotals()
            return Figures(latency: instrumentation.snapshot(), viewers: totals.viewers,
                           fragmentsDelivered: totals.delivered, fragmentsDropped: totals.dropped, skips: totals.skips)
        }
        group.delete("debug/hub") { _, _ -> HTTPResponse.Status in
            instrumentation.reset()
            return .noContent
        }
    }
}
