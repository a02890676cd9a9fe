import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import RTSPCore

/// One TCP (or TLS) connection to an RTSP server, with the stream decoder installed.
final class RTSPConnection: Sendable {
    let channel: Channel
    let handler: RTSPChannelHandler
    /// Paces reads once playing, when the configuration asks for it.
    let pacer: ReadPacer?
    let url: RTSPURL

    private init(channel: Channel, handler: RTSPChannelHandler, pacer: ReadPacer?, url: RTSPURL) {
        self.channel = channel
        self.handler = handler
        self.pacer = pacer
        self.url = url
    }

    var eventLoop: EventLoop { channel.eventLoop }

    static func connect(to url: RTSPURL, configuration: RTSPClientConfiguration,
                        group: EventLoopGroup, logger: Logger) async throws -> RTSPConnection {
        var context: NIOSSLContext?
        if url.scheme == .rtsps {
            var tls = TLSConfiguration.makeClientConfiguration()
            if configuration.allowSelfSignedCertificates {
                tls.certificateVerification = .none
            }
            do {
                context = try NIOSSLContext(configuration: tls)
            } catch {
                throw RTSPClientError(.tls, "cannot set up TLS for \(url.redacted): \(error)", url: url.redacted)
            }
        }
        let tlsContext = context
        let isIPAddress = (try? SocketAddress(ipAddress: url.host, port: 0)) != nil
        let serverHostname = isIPAddress ? nil : url.host
        // The handler of each connection attempt, kept here: a peer that answers at once with something that
        // is not RTSP (or a TLS handshake that fails at once) gets its channel closed, and the handler
        // removed from the pipeline, before a lookup in the pipeline could find it.
        let handlers = NIOLockedValueBox<[ObjectIdentifier: RTSPChannelHandler]>([:])
        let pacer = configuration.transport == .tcp ? configuration.readInterval.map(ReadPacer.init(interval:)) : nil
        let channel: Channel
        do {
            channel = try await ClientBootstrap(group: group)
                .connectTimeout(configuration.connectTimeout)
                .channelOption(.socketOption(.so_keepalive), value: 1)
                .channelOption(.tcpOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let pacer { try channel.pipeline.syncOperations.addHandler(pacer) }
                        if let tlsContext {
                            let tlsHandler = try NIOSSLClientHandler(context: tlsContext, serverHostname: serverHostname)
                            try channel.pipeline.syncOperations.addHandler(tlsHandler)
                        }
                        let handler = RTSPChannelHandler(url: url, logger: logger)
                        handlers.withLockedValue { $0[ObjectIdentifier(channel)] = handler }
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
                }
                .connect(host: url.host, port: url.port)
                .get()
        } catch {
            throw RTSPErrorMapping.map(error, url: url)
        }
        guard let handler = handlers.withLockedValue({ $0[ObjectIdentifier(channel)] }) else {
            throw RTSPClientError(.protocolError, "connection to \(url.redacted) set up without its RTSP handler", url: url.redacted)
        }
        return RTSPConnection(channel: channel, handler: handler, pacer: pacer, url: url)
    }

    /// Send a request and wait for its response.
    func request(_ request: RTSPRequest, timeout: TimeAmount) async throws -> RTSPResponse {
        let promise = channel.eventLoop.makePromise(of: RTSPResponse.self)
        let handler = self.handler
        channel.eventLoop.execute {
            handler.send(request, timeout: timeout, promise: promise)
        }
        do {
            return try await promise.futureResult.get()
        } catch {
            throw RTSPErrorMapping.map(error, url: url)
        }
    }

    func close(reason: RTSPClientError? = nil) {
        let handler = self.handler
        channel.eventLoop.execute {
            handler.close(reason: reason)
        }
    }

    /// Why the connection closed (waits for it).
    func closed() async -> RTSPClientError {
        try? await channel.closeFuture.get()
        let handler = self.handler
        let reason = try? await channel.eventLoop.submit { handler.closeReason }.get()
        return (reason ?? nil) ?? RTSPClientError(.connectionClosed, "\(url.redacted) closed the connection", url: url.redacted)
    }
}
