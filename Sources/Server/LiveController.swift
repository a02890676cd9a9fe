import Foundation
import Hub
import Hummingbird
import HummingbirdWebSocket
import Logging
import ServiceLifecycle

/// `GET /api/cameras/{id}/live` → WebSocket: JSON text messages (init, status, error) and binary fMP4
/// (the init segment, then one fragment per frame), from the camera's shared stream.
struct LiveController: Sendable {
    let hub: StreamHub

    func addRoutes(to router: Router<WatchBoxRequestContext>) {
        router.ws("api/cameras/:id/live") { _, _ in
            .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            try await serve(inbound: inbound, outbound: outbound, context: context)
        }
    }

    private struct Message: Encodable {
        var type: String
        var mimeType: String?
        var codec: String?
        var width: Int?
        var height: Int?
        var status: CameraStatus?
        var error: String?
    }

    private func text(_ message: Message) -> String {
        let data = (try? WatchBoxRequestContext.encoder.encode(message)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    private func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter,
                       context: WebSocketRouterContext<WatchBoxRequestContext>) async throws {
        let idText = context.requestContext.parameters.get("id") ?? ""
        let variant = context.request.uri.queryParameters.get("stream").flatMap(StreamVariant.init(rawValue:))
        guard let cameraID = UUID(uuidString: idText) else {
            try await outbound.write(.text(text(Message(type: "error", error: "\(idText) is not a camera id"))))
            try await outbound.close(.normalClosure, reason: nil)
            return
        }
        let viewer: Viewer
        do {
            viewer = try hub.watch(cameraID: cameraID, variant: variant, eventLoop: context.requestContext.eventLoop)
        } catch {
            try await outbound.write(.text(text(Message(type: "error", error: error.description))))
            try await outbound.close(.normalClosure, reason: nil)
            return
        }
        context.logger.debug("viewer joined", metadata: ["camera": "\(cameraID)", "viewer": "\(viewer.id)"])
        defer {
            viewer.close()
            context.logger.debug("viewer left", metadata: ["camera": "\(cameraID)", "viewer": "\(viewer.id)"])
        }
        // Shutting down closes the viewer, which ends both directions below.
        try await withGracefulShutdownHandler {
            try await pump(viewer: viewer, inbound: inbound, outbound: outbound)
        } onGracefulShutdown: {
            viewer.close()
        }
    }

    /// Server → browser in a task of its own, browser → server here. The handler returns as soon as the
    /// browser closes, without waiting for a write that may be parked behind the closing socket (it fails
    /// when the connection closes).
    private func pump(viewer: Viewer, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let instrumentation = hub.instrumentation
        // On the connection's loop, which the camera's RTSP connection shares when this viewer started it: a
        // frame goes from the camera's socket to this one without a thread hop.
        let writer = Task(executorPreference: viewer.eventLoop.map { EventLoopTaskExecutor($0) }) {
            do {
                while let (message, arrival) = await viewer.nextTimed() {
                    switch message {
                    case .initialization(let segment, let mimeType, let format):
                        try await outbound.write(.text(text(Message(type: "init", mimeType: mimeType, codec: format.codec.rawValue,
                                                                    width: format.width, height: format.height))))
                        try await outbound.write(.binary(segment))
                    case .fragment(let bytes, _):
                        try await outbound.write(.binary(bytes))
                        if let instrumentation, let arrival { instrumentation.fragmentWritten(arrival: arrival) }
                    case .status(let status):
                        try await outbound.write(.text(text(Message(type: "status", status: status))))
                    }
                }
                // The viewer ended on our side (camera removed, server stopping): close the socket.
                try await outbound.close(.goingAway, reason: "stream ended")
            } catch {
                viewer.close()
            }
        }
        defer {
            viewer.close()
            writer.cancel()
        }
        // Browser → server: pause/resume; the socket closing ends the viewer.
        for try await message in inbound.messages(maxSize: 4096) {
            guard case .text(let body) = message,
                  let command = try? JSONDecoder().decode([String: String].self, from: Data(body.utf8)) else { continue }
            switch command["type"] {
            case "pause": viewer.pause()
            case "resume": viewer.resume()
            default: break
            }
        }
    }
}
