import Foundation
import H26x
@testable import Hub
import MP4
import NIOConcurrencyHelpers
import NIOEmbedded
import NIOWebSocket
import NIOCore
@testable import Server
import Testing
import TestSupport

/// The live path writes each viewer's messages straight into its socket (``LiveSocketPump``), fragments
/// pre-framed once for all viewers. These read the raw byte stream as a browser's socket would get it.
@Suite("Live WebSocket: written straight into the socket, with backpressure", .serialized)
struct LivePumpTests {
    /// A viewer whose socket is not read for a while (a phone in a tunnel, a frozen tab) gets the stream again
    /// when it reads: every byte a well-formed WebSocket message, fragments in order, any skip landing on a
    /// keyframe. (The kernel's socket buffers usually hold a few seconds of video; the skip itself, when the
    /// socket stays full, is ``LiveSocketPumpBackpressureTests``'.)
    @Test func aViewerThatStopsReadingGetsAWellFormedStreamAfterwards() async throws {
        let test = try await TestServer.make(demo: true)
        let id = try #require(try await test.server.service.list().first?.id)
        let bytes = try await test.live { client in
            let port = try #require(client.port)
            return try await offThePool {
                try stallingViewer(port: port, path: "/api/cameras/\(id.uuidString)/live", read: 1, stall: 3, thenRead: 2)
            }
        }
        let head = try #require(bytes.range(of: Data("\r\n\r\n".utf8)))
        // The read stopped anywhere: the last frame may be cut short.
        let frames = try webSocketFrames(bytes[head.upperBound...], allowingCutEnd: true)
        #expect(frames.allSatisfy { $0.opcode == 0x1 || $0.opcode == 0x2 }, "only text and binary messages")
        let binaries = frames.filter { $0.opcode == 0x2 }.map(\.payload)
        let initSegment = try #require(binaries.first)
        #expect(String(decoding: initSegment[initSegment.startIndex + 4..<initSegment.startIndex + 8], as: UTF8.self) == "ftyp")
        var fragments: [FragmentReader] = []
        for payload in binaries.dropFirst() { fragments.append(try FragmentReader(ByteBuffer(bytes: payload))) }
        #expect(fragments.first?.runs.first?.samples.first?.isSync == true, "a new viewer starts on a keyframe")
        for index in fragments.indices.dropFirst()
        where fragments[index].sequenceNumber != fragments[index - 1].sequenceNumber + 1 {
            #expect(fragments[index].sequenceNumber > fragments[index - 1].sequenceNumber)
            #expect(fragments[index].runs.first?.samples.first?.isSync == true, "after a skip, a keyframe")
        }
        // 6 s of a 25 fps camera (its cached GOP first), less what a loaded machine delays.
        #expect(fragments.count >= 100, "\(fragments.count) fragments")
        await test.shutdown()
    }
}

/// Opens the live WebSocket with a small receive buffer, reads for `read` seconds, stops reading for
/// `stall`, then reads for `thenRead`; returns every byte received (the HTTP head included).
private func stallingViewer(port: Int, path: String, read: Double, stall: Double, thenRead: Double) throws -> Data {
    // A small window, so that the server's writes back up soon.
    let fd = try connectedSocket(port: port, receiveBuffer: 16 << 10)
    defer { close(fd) }
    var tv = timeval(tv_sec: 0, tv_usec: 100_000)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    _ = request.withCString { send(fd, $0, strlen($0), 0) }
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 16 << 10)
    func readFor(_ seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { continue }
            if count <= 0 { return }
            received.append(contentsOf: buffer[0..<count])
        }
    }
    readFor(read)
    Thread.sleep(forTimeInterval: stall)
    readFor(thenRead)
    return received
}

/// The pump against a channel whose writability the test controls (NIO's `EmbeddedChannel`, with the
/// WebSocket frame encoder as in a real upgraded connection).
@Suite("LiveSocketPump: stops at a full socket, resumes when it drains")
struct LiveSocketPumpBackpressureTests {
    static let format = VideoFormat(codec: .h264, width: 640, height: 360, frameRate: 25, profileName: "High", level: "3.0",
                                    codecString: "avc1.64001e", decoderConfigurationRecord: [1], parameterSets: [])

    func fragment(_ marker: UInt8, key: Bool = false) -> ViewerMessage {
        .fragment(ByteBuffer(bytes: LiveFragmentFraming.webSocketBinaryHeader(length: 1) + [marker]), isKeyframe: key)
    }

    /// Everything written so far, as (opcode, payload) frames.
    func written(_ channel: EmbeddedChannel) throws -> [(opcode: UInt8, payload: Data)] {
        var bytes = Data()
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { bytes.append(contentsOf: buffer.readableBytesView) }
        return try webSocketFrames(bytes)
    }

    /// A pump on an embedded channel with the frame encoder, for a viewer that skips after 5 queued fragments.
    func startedPump() throws -> (EmbeddedChannel, Viewer, LiveSocketPump) {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(WebSocketFrameEncoder())
        let viewer = Viewer(cameraID: UUID(), variant: .main, maxFragments: 5)
        let pump = LiveSocketPump(viewer: viewer, channel: channel, framing: .webSocketBinary, instrumentation: nil,
                                  initText: { mime, _ in "{\"type\":\"init\",\"mimeType\":\"\(mime)\"}" },
                                  statusText: { _ in "{\"type\":\"status\"}" })
        try pump.startOnLoop()
        return (channel, viewer, pump)
    }

    /// Closing the viewer on the hub's side ends the pump (the controller then closes the socket).
    func expectCloseEnds(_ pump: LiveSocketPump, _ viewer: Viewer, _ channel: EmbeddedChannel) throws {
        let ended = NIOLockedValueBox(false)
        pump.ended.whenSuccess { ended.withLockedValue { $0 = true } }
        viewer.close()
        channel.embeddedEventLoop.run()
        #expect(ended.withLockedValue { $0 })
        _ = try channel.finish()
    }

    @Test func aFullSocketHoldsThePumpTheQueueSkipsAndWritabilityResumesIt() throws {
        let (channel, viewer, pump) = try startedPump()
        viewer.push(.initialization(segment: ByteBuffer(bytes: [0x69]), mimeType: "video/mp4", format: Self.format))
        viewer.push(fragment(1, key: true))
        var frames = try written(channel)
        #expect(frames.map(\.opcode) == [0x1, 0x2, 0x2])
        #expect(frames.last?.payload == Data([1]))

        // The socket is full: nothing more is written, the viewer's queue fills and overflows.
        channel.isWritable = false
        channel.pipeline.fireChannelWritabilityChanged()
        for marker in UInt8(2)...9 { viewer.push(fragment(marker)) }
        #expect(try written(channel).isEmpty)
        #expect(viewer.skipStatistics.skips == 1)
        viewer.push(fragment(10, key: true))
        viewer.push(fragment(11))

        // It drains: the pump resumes at the keyframe, by itself.
        channel.isWritable = true
        channel.pipeline.fireChannelWritabilityChanged()
        frames = try written(channel)
        #expect(frames.map(\.payload) == [Data([10]), Data([11])])

        // Closed on the hub's side: the pump reports the end.
        try expectCloseEnds(pump, viewer, channel)
    }

    @Test func closingWhileTheSocketIsFullStillEndsThePump() throws {
        let (channel, viewer, pump) = try startedPump()
        channel.isWritable = false
        viewer.push(fragment(1, key: true))
        try expectCloseEnds(pump, viewer, channel)
    }
}
