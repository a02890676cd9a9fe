import Foundation
import H26x
import Logging
import NIOCore
import NIOPosix
import RTSPCore

/// One playing RTSP session: a connection driven through ``RTSPSessionStateMachine`` up to PLAY,
/// then kept alive until it dies (no data, connection closed) or is stopped.
///
/// Media events arrive on the connection's event loop through the `onMedia` closure given to
/// ``start(url:configuration:group:logger:knownParameterSets:onMedia:)``.
public actor RTSPSession {
    public nonisolated let url: RTSPURL
    private let configuration: RTSPClientConfiguration
    private let group: EventLoopGroup
    private let logger: Logger
    private var machine: RTSPSessionStateMachine
    private var connection: RTSPConnection?
    private var router: MediaRouter?
    private var udpChannels: [Channel] = []
    private var udpHandlers: [(rtp: UDPMediaHandler, rtcp: UDPMediaHandler)] = []
    private var keepaliveTask: Task<Void, Never>?
    private var stopped = false
    /// What PLAY established.
    public private(set) var info: RTSPSessionStateMachine.SessionInfo?

    private init(url: RTSPURL, configuration: RTSPClientConfiguration, group: EventLoopGroup, logger: Logger) {
        self.url = url
        self.configuration = configuration
        self.group = group
        var logger = logger
        logger[metadataKey: "url"] = "\(url.redacted)"
        self.logger = logger
        self.machine = RTSPSessionStateMachine(url: url, configuration: configuration.stateMachineConfiguration)
    }

    /// Connect, negotiate and PLAY. Throws ``RTSPClientError``.
    public static func start(url: RTSPURL,
                             configuration: RTSPClientConfiguration = RTSPClientConfiguration(),
                             group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                             logger: Logger = Logger(label: "watchbox.rtsp"),
                             knownParameterSets: [[UInt8]] = [],
                             onMedia: @escaping @Sendable (RTSPMediaEvent) -> Void) async throws -> RTSPSession {
        let session = RTSPSession(url: url, configuration: configuration, group: group, logger: logger)
        do {
            try await session.establish(knownParameterSets: knownParameterSets, onMedia: onMedia)
        } catch {
            await session.shutDown()
            throw error
        }
        return session
    }

    private func establish(knownParameterSets: [[UInt8]], onMedia: @escaping @Sendable (RTSPMediaEvent) -> Void) async throws {
        var connection = try await RTSPConnection.connect(to: url, configuration: configuration, group: group, logger: logger)
        self.connection = connection
        var action = machine.connectionOpened()
        while true {
            switch action {
            case .send(let request):
                if request.method == "PLAY" {
                    try await installMedia(on: connection, knownParameterSets: knownParameterSets, onMedia: onMedia)
                }
                logger.debug("request", metadata: ["method": "\(request.method)", "cseq": "\(request.cseq ?? -1)"])
                let response = try await connection.request(request, timeout: configuration.requestTimeout)
                if response.statusCode == 401 && request.headers.contains(name: "Authorization") == false {
                    logger.debug("server asks for authentication", metadata: ["method": "\(request.method)"])
                }
                action = machine.receive(response)

            case .openConnection(let target):
                logger.info("redirected", metadata: ["to": "\(target.redacted)"])
                connection.close()
                connection = try await RTSPConnection.connect(to: target, configuration: configuration, group: group, logger: logger)
                self.connection = connection
                action = machine.connectionOpened()

            case .bindUDPPorts(let track):
                let ports = try await bindUDPPair(on: connection.eventLoop, track: track)
                action = machine.udpPortsBound(track: track, ports: ports)

            case .playing(let info):
                self.info = info
                try await startPlaying(info, connection: connection)
                return

            case .fail(let error):
                throw error

            case .none, .close:
                throw RTSPClientError(.protocolError, "\(url.redacted): the RTSP exchange stopped unexpectedly", url: url.redacted)
            }
        }
    }

    /// Build the media pipeline before PLAY is sent, so that RTP arriving right behind the PLAY answer is not lost.
    private func installMedia(on connection: RTSPConnection, knownParameterSets: [[UInt8]],
                              onMedia: @escaping @Sendable (RTSPMediaEvent) -> Void) async throws {
        let tracks = machine.selectedTracks
        let configuration = self.configuration
        let logger = self.logger
        let url = self.url
        let udpHandlers = self.udpHandlers
        let handler = connection.handler
        let remote = connection.channel.remoteAddress
        let udpChannels = self.udpChannels
        let sessionID = machine.currentSessionID
        router = try await connection.eventLoop.submit {
            var receivers: [TrackReceiver] = []
            var receiverTrack: [Int] = []
            for (index, track) in tracks.enumerated() {
                receivers.append(TrackReceiver(index: index, track: track, knownParameterSets: knownParameterSets,
                                                    udp: configuration.transport == .udp,
                                                    reorderWindow: configuration.reorderWindow, logger: logger, emit: onMedia))
                receiverTrack.append(index)
            }
            let router = MediaRouter(eventLoop: connection.eventLoop, receivers: receivers, dataTimeout: configuration.dataTimeout,
                                     reportInterval: configuration.receiverReportInterval, url: url, logger: logger)
            handler.sessionID = sessionID
            for (receiverIndex, trackIndex) in receiverTrack.enumerated() {
                let track = tracks[trackIndex]
                if let transport = track.transport, transport.isTCP || configuration.transport == .tcp {
                    let channels = transport.interleaved ?? TransportHeader.ChannelPair(rtp: UInt8(2 * trackIndex), rtcp: UInt8(2 * trackIndex + 1))
                    router.mapInterleaved(rtp: channels.rtp, rtcp: channels.rtcp, receiver: receiverIndex)
                } else if udpHandlers.indices.contains(trackIndex) {
                    udpHandlers[trackIndex].rtp.onDatagram = { [unowned router] in router.udp(receiver: receiverIndex, rtcp: false, payload: $0) }
                    udpHandlers[trackIndex].rtcp.onDatagram = { [unowned router] in router.udp(receiver: receiverIndex, rtcp: true, payload: $0) }
                }
            }
            handler.onInterleaved = { [unowned router] channel, payload in router.interleaved(channel: channel, payload: payload) }
            router.sendRTCP = { receiverIndex, buffer in
                let trackIndex = receiverTrack[receiverIndex]
                let track = tracks[trackIndex]
                if let transport = track.transport, transport.isTCP || configuration.transport == .tcp {
                    let channel = transport.interleaved?.rtcp ?? UInt8(2 * trackIndex + 1)
                    var framed = ByteBufferAllocator().buffer(capacity: buffer.readableBytes + 4)
                    framed.writeInteger(UInt8(0x24))
                    framed.writeInteger(channel)
                    framed.writeInteger(UInt16(buffer.readableBytes))
                    framed.writeImmutableBuffer(buffer)
                    handler.write(framed)
                } else if udpChannels.count > 2 * trackIndex + 1, let remote, let serverPorts = track.transport?.serverPort,
                          let target = try? SocketAddress(ipAddress: remote.ipAddress ?? "", port: serverPorts.rtcp) {
                    udpChannels[2 * trackIndex + 1].writeAndFlush(AddressedEnvelope(remoteAddress: target, data: buffer), promise: nil)
                }
            }
            router.onDead = { error in handler.close(reason: error) }
            router.tap = configuration.packetTap
            return router
        }.get()
    }

    private func startPlaying(_ info: RTSPSessionStateMachine.SessionInfo, connection: RTSPConnection) async throws {
        let router = self.router
        let handler = connection.handler
        let pacer = connection.pacer
        let sessionID = info.sessionID
        try await connection.eventLoop.submit {
            handler.sessionID = sessionID
            router?.start()
            pacer?.midPicture = { [weak router, weak handler] in
                (router?.videoPictureOpen ?? false) || (handler?.holdsPartialMessage ?? false)
            }
            pacer?.activate()
        }.get()
        logger.info("playing", metadata: [
            "server": "\(info.server ?? "-")", "session": "\(info.sessionID)", "timeout": "\(info.sessionTimeout)",
            "keepalive": "\(info.keepaliveMethod)", "transport": "\(configuration.transport.rawValue)",
            "auth": "\(info.authenticationScheme ?? "none")",
        ])
        let interval = machine.keepaliveInterval
        keepaliveTask = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(interval))
                if Task.isCancelled { return }
                guard let self, await self.sendKeepalive() else { return }
            }
        }
    }

    /// Returns false when the session is over.
    private func sendKeepalive() async -> Bool {
        guard !stopped, let connection else { return false }
        var action = machine.keepalive()
        var rounds = 0
        while case .send(let request) = action, rounds < 3 {
            rounds += 1
            do {
                let response = try await connection.request(request, timeout: configuration.requestTimeout)
                action = machine.receive(response)
                if !(200..<300).contains(response.statusCode) {
                    logger.warning("keepalive answered \(response.statusCode); switching method",
                                   metadata: ["method": "\(request.method)"])
                }
            } catch let error as RTSPClientError where error.kind == .connectionClosed {
                return false
            } catch {
                logger.warning("keepalive failed", metadata: ["error": "\(error)"])
                return true
            }
        }
        if case .fail(let error) = action {
            logger.error("keepalive: \(error)")
            connection.close(reason: error)
            return false
        }
        return true
    }

    /// Statistics so far.
    public func statistics() async -> RTSPSessionStatistics {
        guard let router, let connection else { return RTSPSessionStatistics() }
        return (try? await connection.eventLoop.submit { router.statistics }.get()) ?? RTSPSessionStatistics()
    }

    /// Play for `duration`, or until the session dies if that comes first. Returns why it died, or nil
    /// when the time ran out with the session still playing (then call ``stop()``).
    public func play(for duration: TimeAmount) async -> RTSPClientError? {
        guard let connection else {
            return RTSPClientError(.connectionClosed, "session to \(url.redacted) is not open", url: url.redacted)
        }
        let loop = connection.eventLoop
        let promise = loop.makePromise(of: Void.self)
        let once = OnceFlag()
        let timer = loop.scheduleTask(in: duration) {
            if once.set() { promise.succeed() }
        }
        connection.channel.closeFuture.whenComplete { _ in
            timer.cancel()
            if once.set() { promise.succeed() }
        }
        try? await promise.futureResult.get()
        if connection.channel.isActive { return nil }
        return await connection.closed()
    }

    /// Wait until the session ends by itself; returns why (no data, connection closed by the camera, stopped).
    public func waitUntilClosed() async -> RTSPClientError {
        guard let connection else {
            return RTSPClientError(.connectionClosed, "session to \(url.redacted) is not open", url: url.redacted)
        }
        let reason = await connection.closed()
        await shutDown()
        return reason
    }

    /// TEARDOWN (best effort, short timeout) and close everything.
    public func stop() async {
        guard !stopped else { return }
        if let connection, machine.isPlaying {
            if case .send(let request) = machine.teardown() {
                _ = try? await connection.request(request, timeout: .seconds(2))
            }
        }
        connection?.close(reason: RTSPClientError(.connectionClosed, "session to \(url.redacted) stopped", url: url.redacted))
        await shutDown()
    }

    private func shutDown() async {
        stopped = true
        keepaliveTask?.cancel()
        keepaliveTask = nil
        if let router, let connection {
            try? await connection.eventLoop.submit { router.stop() }.get()
        }
        connection?.close()
        for channel in udpChannels { try? await channel.close() }
        udpChannels.removeAll()
    }

    /// RFC 3550 §11: RTP on an even port, RTCP on the next (odd) one.
    private func bindUDPPair(on eventLoop: EventLoop, track: Int) async throws -> TransportHeader.PortPair {
        let rtpHandler = UDPMediaHandler()
        let rtcpHandler = UDPMediaHandler()
        for _ in 0..<64 {
            let port = Int.random(in: 20_000...60_000) & ~1
            guard let rtp = try? await bindUDP(port: port, eventLoop: eventLoop, handler: rtpHandler) else { continue }
            guard let rtcp = try? await bindUDP(port: port + 1, eventLoop: eventLoop, handler: rtcpHandler) else {
                try? await rtp.close()
                continue
            }
            while udpHandlers.count < track { udpHandlers.append((UDPMediaHandler(), UDPMediaHandler())) }
            udpHandlers.append((rtpHandler, rtcpHandler))
            while udpChannels.count < 2 * track { udpChannels.append(rtp) }
            udpChannels.append(rtp)
            udpChannels.append(rtcp)
            return TransportHeader.PortPair(rtp: port, rtcp: port + 1)
        }
        throw RTSPClientError(.unsupportedTransport, "could not bind a pair of UDP ports for RTP: try --transport tcp", url: url.redacted)
    }

    private func bindUDP(port: Int, eventLoop: EventLoop, handler: UDPMediaHandler) async throws -> Channel {
        try await DatagramBootstrap(group: eventLoop)
            .channelOption(.socketOption(.so_rcvbuf), value: 4 * 1024 * 1024)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler) }
            }
            .bind(host: "0.0.0.0", port: port)
            .get()
    }
}

/// Set once, on one event loop.
private final class OnceFlag: @unchecked Sendable {
    private var done = false
    /// True the first time only.
    func set() -> Bool {
        if done { return false }
        done = true
        return true
    }
}
