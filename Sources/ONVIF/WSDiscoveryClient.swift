import Foundation
import Logging
import NIOCore
import NIOPosix

/// WS-Discovery 2005/04 client for ONVIF NetworkVideoTransmitters (ONVIF Core Specification §7.3):
/// multicasts a Probe to 239.255.255.250:3702 and listens for ProbeMatches, Hello and Bye.
///
/// Two kinds of UDP sockets: per interface, one on an ephemeral port bound to the interface's
/// address with IP_MULTICAST_IF set to it, which sends the Probe and receives the unicast
/// ProbeMatches (WS-Discovery §5.3: answers go to the Probe's source); and one on port 3702
/// (SO_REUSEADDR) joined to the group on each interface, which hears Hello and Bye (§4.1, §4.2).
/// When 3702 is taken without address reuse, Hello/Bye are not heard and a warning says so.
public struct WSDiscoveryClient: Sendable {
    public let eventLoopGroup: any EventLoopGroup
    public let logger: Logger

    public init(eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                logger: Logger = Logger(label: "watchbox.onvif.discovery")) {
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
    }

    /// Why a probe could not start.
    public struct ProbeError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Multicast Probe to 239.255.255.250:3702 from the interface with this IPv4 address (nil: every up,
    /// multicast-capable IPv4 interface), collects ProbeMatches (de-duplicated by endpoint reference, XAddrs merged)
    /// and Hello/Bye for `timeout`, then returns. `onEvent` is called as things arrive (for live progress).
    public func probe(interfaceAddress: String?, timeout: Duration,
                      onEvent: (@Sendable (WSDiscoveryEvent) -> Void)?) async throws -> WSDiscoveryResult {
        let devices = try Self.interfaces(matching: interfaceAddress)
        let probe = WSDiscoveryProbe()
        let (stream, continuation) = AsyncStream<(Data, String?)>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        var channels: [any Channel] = []
        defer { for channel in channels { channel.close(promise: nil) } }

        // Hello/Bye listener on the discovery port.
        do {
            let listener = try await DatagramBootstrap(group: eventLoopGroup)
                .channelOption(.socketOption(.so_reuseaddr), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture(withResultOf: {
                        try channel.pipeline.syncOperations.addHandler(DatagramForwarder(continuation: continuation))
                    })
                }
                .bind(host: "0.0.0.0", port: WSDiscoveryProbe.port).get()
            channels.append(listener)
            let group = try SocketAddress(ipAddress: WSDiscoveryProbe.multicastAddress, port: WSDiscoveryProbe.port)
            if let multicast = listener as? any MulticastChannel {
                for device in devices {
                    do {
                        try await multicast.joinGroup(group, device: device).get()
                    } catch {
                        logger.warning("cannot join \(WSDiscoveryProbe.multicastAddress) on \(device.name): \(error); Hello/Bye from there will be missed")
                    }
                }
            }
        } catch {
            logger.warning("cannot listen on UDP port \(WSDiscoveryProbe.port) (\(error)); Hello and Bye will not be heard, ProbeMatches will")
        }

        // One sender per interface.
        let target = try SocketAddress(ipAddress: WSDiscoveryProbe.multicastAddress, port: WSDiscoveryProbe.port)
        var senders: [any Channel] = []
        for device in devices {
            guard let address = device.address, case .v4(let v4) = address else { continue }
            do {
                let sender = try await DatagramBootstrap(group: eventLoopGroup)
                    .channelInitializer { channel in
                        channel.eventLoop.makeCompletedFuture(withResultOf: {
                            try channel.pipeline.syncOperations.addHandler(DatagramForwarder(continuation: continuation))
                        })
                    }
                    .bind(to: try SocketAddress(ipAddress: v4.host, port: 0)).get()
                channels.append(sender)
                if let options = sender as? any SocketOptionProvider {
                    try await options.setIPMulticastIF(v4.address.sin_addr).get()
                    try await options.setIPMulticastTTL(1).get()
                }
                senders.append(sender)
            } catch {
                logger.warning("cannot send a Probe from \(device.name) (\(v4.host)): \(error)")
            }
        }
        guard !senders.isEmpty else {
            continuation.finish()
            throw ProbeError(description: interfaceAddress.map { "cannot send a WS-Discovery Probe from \($0): check that the interface is up and multicast-capable" }
                             ?? "no interface could send a WS-Discovery Probe: check that an IPv4 interface is up and multicast-capable")
        }
        let payload = probe.xml
        let senderChannels = senders
        let sendAll: @Sendable () -> Void = {
            for sender in senderChannels {
                let envelope = AddressedEnvelope(remoteAddress: target, data: ByteBuffer(string: payload))
                sender.writeAndFlush(envelope, promise: nil)
            }
        }
        // SOAP-over-UDP §3.4 (as WS-Discovery §2.4 uses it): repeat the multicast once after a short delay.
        sendAll()
        let loop = eventLoopGroup.next()
        let repeatTask = loop.scheduleTask(in: .milliseconds(250)) { sendAll() }
        let nanoseconds = Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        let stop = loop.scheduleTask(in: .nanoseconds(max(0, nanoseconds))) { continuation.finish() }
        defer { repeatTask.cancel(); stop.cancel() }

        var collector = WSDiscoveryCollector(probeMessageID: probe.messageID)
        for await (data, source) in stream {
            let message: WSDiscoveryMessage
            do {
                message = try WSDiscoveryMessage.parse(data, sourceAddress: source)
            } catch {
                logger.debug("ignoring a datagram from \(source ?? "?") that is not WS-Discovery: \(error.detail)")
                continue
            }
            for event in collector.absorb(message) {
                onEvent?(event)
            }
        }
        return collector.result
    }

    /// The interfaces to probe from: the one with `address`, or every multicast-capable IPv4 one
    /// (loopback excluded unless asked for by address).
    static func interfaces(matching address: String?) throws -> [NIONetworkDevice] {
        let all = try System.enumerateDevices().filter { device in
            guard let address = device.address, case .v4 = address else { return false }
            return true
        }
        if let address {
            let matching = all.filter { $0.address?.ipAddress == address }
            guard !matching.isEmpty else {
                throw ProbeError(description: "no IPv4 interface has the address \(address): pick one of \(all.compactMap { $0.address?.ipAddress }.joined(separator: ", "))")
            }
            return Array(matching.prefix(1))
        }
        return all.filter { $0.multicastSupported && $0.address?.ipAddress?.hasPrefix("127.") == false }
    }
}

/// Hands every datagram (bytes, source IP) to the probe's stream.
private final class DatagramForwarder: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    let continuation: AsyncStream<(Data, String?)>.Continuation

    init(continuation: AsyncStream<(Data, String?)>.Continuation) {
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        continuation.yield((Data(envelope.data.readableBytesView), envelope.remoteAddress.ipAddress))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // ICMP errors on UDP sockets (port unreachable) are not fatal to a probe.
    }
}
