import Foundation
import Hub
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
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
            try await pump(viewer: viewer, inbound: inbound, outbound: outbound, channel: context.requestContext.channel)
        } onGracefulShutdown: {
            viewer.close()
        }
    }

    /// Server → browser: a ``LiveSocketPump`` writes the viewer's messages into the socket on its event loop as
    /// they come; a task waits for the viewer to end on our side and then closes the socket. Browser → server
    /// here. The handler returns as soon as the browser closes.
    private func pump(viewer: Viewer, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter,
                      channel: any Channel) async throws {
        let pump = LiveSocketPump(viewer: viewer, channel: channel, framing: hub.configuration.fragmentFraming,
                                  instrumentation: hub.instrumentation,
                                  initText: { mimeType, format in
                                      text(Message(type: "init", mimeType: mimeType, codec: format.codec.rawValue,
                                                    width: format.width, height: format.height))
                                  },
                                  statusText: { status in text(Message(type: "status", status: status)) })
        try await pump.start()
        let writer = Task {
            do {
                try await pump.ended.get()
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
