import NIOCore

/// Merged reads for a playing TCP session (`RTSPClientConfiguration.readInterval`): after each read, the
/// connection reads again only at the next multiple of `interval` on the monotonic clock. Every connection of
/// an event loop shares those instants, so with many cameras the loop wakes once per interval for all of them
/// instead of once per packet burst of each; what arrives in between waits in the kernel's socket buffer: a
/// picture waits at most `interval`, counted from its first packet. Reads are held only between pictures
/// (``midPicture``). Off until ``activate()`` (after PLAY), so that the RTSP exchange before it is not slowed.
/// First in the pipeline: it holds NIO's `read` requests.
final class ReadPacer: ChannelDuplexHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer

    private let interval: Int64
    // Confined to the channel's event loop.
    private var active = false
    private var context: ChannelHandlerContext?
    private var held: Scheduled<Void>?
    /// Asked before a read is held: true while a picture is half read (its last packet not in yet, or a packet
    /// cut by the read). Its rest is then read as soon as it comes, and the hold starts between pictures.
    /// Holding mid-picture made a picture wait longer than the interval: a server that writes with Nagle's
    /// algorithm (GStreamer's does, and many cameras') sends a picture's first small packet and holds the rest
    /// until that packet is acknowledged, which the kernel does after up to 40 ms or when a read takes it; a
    /// picture whose start a paced read took just before its rest came waited for the next instant (measured
    /// with GStreamer at 40 ms: a median 40 ms, p99 80 ms). nil: always hold. Set on the event loop.
    var midPicture: (() -> Bool)?

    init(interval: TimeAmount) {
        self.interval = max(1, interval.nanoseconds)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        held?.cancel()
        held = nil
        self.context = nil
    }

    /// From now on, reads are paced. On the channel's event loop.
    func activate() {
        active = true
    }

    func read(context: ChannelHandlerContext) {
        guard active else {
            context.read()
            return
        }
        guard held == nil else { return }
        if let midPicture, midPicture() {
            context.read()
            return
        }
        // The next instant on the loop-wide grid: connections that read in the same interval read again together.
        let now = NIODeadline.now().uptimeNanoseconds
        let next = (Int64(now) / interval + 1) * interval
        held = context.eventLoop.scheduleTask(deadline: .uptimeNanoseconds(UInt64(next))) { [weak self] in
            guard let self, let context = self.context else { return }
            self.held = nil
            context.read()
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        held?.cancel()
        held = nil
        context.fireChannelInactive()
    }
}
