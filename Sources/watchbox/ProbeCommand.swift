import ArgumentParser
import Foundation
import H26x
import Hub
import Logging
import NIOConcurrencyHelpers
import NIOCore
import RTSPClient
import RTSPCore

struct ProbeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Connect to a camera, play its stream for a while, and report what it sends.",
        discussion: """
        Reports server, codec, profile, resolution, measured frame rate, bitrate, keyframe interval and
        packets lost. Exit status: 0 on success, 1 when the camera could not be played (the reason is one line on stderr),
        2 for a malformed URL or bad options.
        """
    )

    @Argument(help: "The stream URL: rtsp://[user:password@]host[:port]/path or rtsps://…")
    var url: String

    @Option(help: "RTP transport: tcp (interleaved) or udp.")
    var transport: RTSPClientConfiguration.Transport = .tcp

    @Option(help: "Seconds to play the stream.")
    var duration: Double = 5

    @Option(help: "Username (overrides one in the URL).")
    var username: String?

    @Option(help: "Password (overrides one in the URL).")
    var password: String?

    @Option(help: "Seconds to wait for the connection and each answer.")
    var timeout: Double = 5

    @Flag(help: "rtsps:// only: accept a self-signed or otherwise unverifiable certificate.")
    var insecure = false

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        logging.bootstrap()
        var target: RTSPURL
        do {
            target = try RTSPURL(string: url)
        } catch {
            Self.fail("\(error)", code: 2)
        }
        if username != nil || password != nil {
            target = target.withCredentials(RTSPCredentials(username: username ?? target.username ?? "",
                                                            password: password ?? target.password ?? ""))
        }
        guard duration > 0, duration <= 3600 else { Self.fail("--duration must be between 0 and 3600 seconds", code: 2) }
        guard timeout > 0 else { Self.fail("--timeout must be positive", code: 2) }

        let configuration = RTSPClientConfiguration(
            transport: transport,
            includeAudio: true,
            connectTimeout: .milliseconds(Int64(timeout * 1000)),
            requestTimeout: .milliseconds(Int64(timeout * 1000)),
            dataTimeout: .milliseconds(Int64(max(timeout, 5) * 1000)),
            allowSelfSignedCertificates: insecure)
        do {
            let report = try await Probe.run(url: target, configuration: configuration, duration: duration,
                                             logger: Logger(label: "watchbox.probe"))
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                print(report.text)
            }
        } catch let error as RTSPClientError {
            Self.fail(error.message)
        }
    }
}

extension RTSPClientConfiguration.Transport: ExpressibleByArgument {}
