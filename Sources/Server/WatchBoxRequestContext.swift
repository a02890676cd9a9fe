import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of every route: JSON with ISO 8601 dates, WebSocket upgrades.
public struct WatchBoxRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    /// The event loop of the request's connection (a live viewer's writer runs there).
    public let eventLoop: any EventLoop
    /// The request's connection (a live viewer's WebSocket frames are written straight into it).
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        self.channel = source.channel
        self.eventLoop = source.channel.eventLoop
        self.coreContext = .init(source: source)
        self.webSocket = .init()
    }

    /// Camera JSON is small; a thumbnail upload is not part of the API.
    public var maxUploadSize: Int { 1 << 20 }

    public var requestDecoder: JSONDecoder { Self.decoder }
    public var responseEncoder: JSONEncoder { Self.encoder }

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
