import Foundation
import Logging
import NIOCore
import NIOPosix

/// WS-Discovery 2005/04 client for ONVIF NetworkVideoTransmitters (ONVIF Core Specification §7.3):
/// multicasts a Probe to 239.255.255.250:3702 and listens for ProbeMatches, Hello and Bye.
public struct WSDiscoveryClient: Sendable {
    public let eventLoopGroup: any EventLoopGroup
    public let logger: Logger

    public init(eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                logger: Logger = Logger(label: "watchbox.onvif.discovery")) {
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
    }

    /// Multicast Probe to 239.255.255.250:3702 from the interface with this IPv4 address (nil: every up,
    /// multicast-capable IPv4 interface), collects ProbeMatches (de-duplicated by endpoint reference, XAddrs merged)
    /// and Hello/Bye for `timeout`, then returns. `onEvent` is called as things arrive (for live progress).
    public func probe(interfaceAddress: String?, timeout: Duration,
                      onEvent: (@Sendable (WSDiscoveryEvent) -> Void)?) async throws -> WSDiscoveryResult {
        throw ONVIFError.invalidURL("not implemented yet")
    }
}
