import Foundation
import NIOConcurrencyHelpers
import NIOCore
@testable import RTSPClient
import RTSPCore
import Testing
import TestSupport

/// GStreamer's RTSP server writes with Nagle's algorithm, as many cameras' servers do: it sends the first small
/// packet of a frame at once and holds the rest until that packet is acknowledged. After the client has sent
/// something (an RTCP receiver report, a keepalive), Linux delays the client's acknowledgements by up to 40 ms,
/// so without care the frame after each report comes late. The client asks for quick acknowledgements again
/// after each write (`RTSPChannelHandler.writeOut`).
@Suite(.serialized, .enabled(if: PeerRTSPServer.isAvailable, "GStreamer's RTSP server is not installed; scripts/test installs it"))
struct QuickAckTests {
    @Test func noFrameComesLateAfterTheClientsReceiverReports() async throws {
        let server = try PeerRTSPServer(["--codec", "h264", "--width", "320", "--height", "240"])
        defer { server.stop() }
        let reads = NIOLockedValueBox<[NIODeadline]>([])
        var configuration = RTSPClientConfiguration()
        // A report every 250 ms (the watchdog's tick with a 1 s data timeout): 16 of them in the 4 s below.
        configuration.dataTimeout = .seconds(1)
        configuration.receiverReportInterval = .milliseconds(250)
        let session = try await RTSPSession.start(url: try RTSPURL(string: server.url()), configuration: configuration) { event in
            if case .video(let frame) = event { reads.withLockedValue { $0.append(frame.receivedAt) } }
        }
        try await Task.sleep(for: .seconds(4.5))
        let reports = await session.statistics().receiverReports
        await session.stop()
        // The first half second is the encoder starting; from then on, 25 fps: a frame every 40 ms.
        let times = reads.withLockedValue { $0 }
        let steady = times.drop { $0 - times[0] < .milliseconds(500) }
        let gaps = zip(steady.dropFirst(), steady).map { Double(($0 - $1).nanoseconds) / 1e6 }
        let late = gaps.filter { $0 > 65 }
        #expect(gaps.count >= 80, "\(gaps.count) frames")
        #expect(reports >= 10, "\(reports) receiver reports sent")
        // Without the quick acknowledgements about one frame per report comes 40 ms late (15 of 99 here); a
        // loaded machine may delay a frame or two on its own.
        #expect(late.count <= 2, "\(late.count) of \(gaps.count) frames came late: \(late.map { Int($0) }) ms after the one before")
    }
}
