import ArgumentParser
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import RTSPClient
import RTSPCore

/// Records what a camera sends, byte for byte, for bug reports, fixtures and benchmarks.
struct CaptureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Save a camera's SDP and raw RTP/RTCP packets to a file (for bug reports, fixtures and benchmarks).",
        discussion: "The file holds no credentials. Replay it with the parsers' fixture tests or `watchbox-bench`."
    )

    @Argument(help: "The stream URL: rtsp://[user:password@]host[:port]/path")
    var url: String

    @Option(help: "RTP transport: tcp (interleaved) or udp.")
    var transport: RTSPClientConfiguration.Transport = .tcp

    @Option(help: "Seconds to capture.")
    var duration: Double = 10

    @Option(name: .shortAndLong, help: "The file to write.")
    var output: String

    @Flag(help: "rtsps:// only: accept a self-signed certificate.")
    var insecure = false

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        logging.bootstrap()
        let target: RTSPURL
        do { target = try RTSPURL(string: url) } catch { Self.fail("\(error)", code: 2) }
        guard duration > 0 else { Self.fail("--duration must be positive", code: 2) }

        let stream = NIOLockedValueBox(ByteBuffer())
        var configuration = RTSPClientConfiguration(transport: transport, allowSelfSignedCertificates: insecure)
        configuration.packetTap = { channel, payload in
            stream.withLockedValue { SessionCapture.frame(channel: channel, payload: payload, into: &$0) }
        }
        do {
            let session = try await RTSPSession.start(url: target, configuration: configuration,
                                                      logger: Logger(label: "watchbox.capture")) { _ in }
            let info = await session.info
            let died = await session.play(for: .milliseconds(Int64(duration * 1000)))
            await session.stop()
            if let died { Self.fail(died.message) }
            let capture = SessionCapture(sdp: info?.sdpText ?? "", stream: stream.withLockedValue { $0 })
            do {
                try Data(capture.bytes).write(to: URL(fileURLWithPath: output))
            } catch {
                Self.fail("cannot write \(output): \(error.localizedDescription)")
            }
            print("captured \(capture.packets.count) packets (\(capture.stream.readableBytes) bytes) to \(output)")
        } catch let error as RTSPClientError {
            Self.fail(error.message)
        }
    }
}
