import AAC
import Foundation
import H26x
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Testing
import TestSupport
@testable import RTSPClient
import RTSPCore

/// What a test saw of a stream.
struct Seen: Sendable {
    var format: VideoFormat?
    var formats = 0
    var frames = 0
    var keyframes = 0
    var firstFrameKeyframe: Bool?
    var timestamps: [Int64] = []
    var audioFormat: AudioFormat?
    var audioFrames = 0
    var audioTimestamps: [Int64] = []
}

func collect(_ url: String, configuration: RTSPClientConfiguration = RTSPClientConfiguration(), seconds: Double) async throws -> (Seen, RTSPSessionStatistics, RTSPSessionStateMachine.SessionInfo?) {
    let seen = NIOLockedValueBox(Seen())
    let session = try await RTSPSession.start(url: try RTSPURL(string: url), configuration: configuration) { event in
        seen.withLockedValue { s in
            switch event {
            case .formatChanged(let format):
                s.format = format
                s.formats += 1
            case .video(let frame):
                if s.firstFrameKeyframe == nil { s.firstFrameKeyframe = frame.isKeyframe }
                s.frames += 1
                if frame.isKeyframe { s.keyframes += 1 }
                s.timestamps.append(frame.timestamp)
            case .audioFormat(let format, _, _):
                s.audioFormat = format
            case .audio(let sample):
                s.audioFrames += 1
                s.audioTimestamps.append(sample.timestamp)
            }
        }
    }
    try await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
    let stats = await session.statistics()
    let info = await session.info
    await session.stop()
    return (seen.withLockedValue { $0 }, stats, info)
}

@Suite(.serialized, .enabled(if: PeerRTSPServer.isAvailable, "GStreamer's RTSP server (python3-gi, gir1.2-gst-rtsp-server-1.0) is not installed; scripts/test installs it"))
struct GStreamerIntegrationTests {
    @Test func h264OverTCP() async throws {
        let server = try PeerRTSPServer(["--codec", "h264"])
        defer { server.stop() }
        let (seen, stats, info) = try await collect(server.url(), seconds: 3)
        let format = try #require(seen.format)
        #expect(format.codec == .h264)
        #expect(format.width == 1280)
        #expect(format.height == 720)
        #expect(format.codecString.hasPrefix("avc1."))
        #expect(seen.firstFrameKeyframe == true)
        #expect(seen.frames >= 50, "3 s at 25 fps should give about 75 frames, got \(seen.frames)")
        #expect(stats.packetsLost == 0)
        #expect(stats.malformedPackets == 0)
        #expect(info?.server?.contains("GStreamer") == true)
        // RTP timestamps of a 25 fps stream step by 3600 at 90 kHz.
        let steps = zip(seen.timestamps.dropFirst(), seen.timestamps).map { $0 - $1 }
        #expect(steps.allSatisfy { $0 == 3600 }, "timestamp steps: \(Set(steps))")
    }

    @Test func h264OverUDP() async throws {
        let server = try PeerRTSPServer(["--codec", "h264", "--protocols", "udp"])
        defer { server.stop() }
        let (seen, stats, _) = try await collect(server.url(), configuration: RTSPClientConfiguration(transport: .udp), seconds: 3)
        #expect(seen.format?.width == 1280)
        #expect(seen.frames >= 50)
        #expect(stats.rtpPackets > 0)
    }

    @Test func h265OverTCP() async throws {
        let server = try PeerRTSPServer(["--codec", "h265"])
        defer { server.stop() }
        let (seen, _, _) = try await collect(server.url(), seconds: 4)
        let format = try #require(seen.format)
        #expect(format.codec == .h265)
        #expect(format.width == 1280)
        #expect(format.height == 720)
        #expect(format.codecString.hasPrefix("hvc1."))
        #expect(seen.frames >= 25)
        #expect(seen.keyframes >= 1)
    }

    @Test func basicAuthWithTheRightPassword() async throws {
        let server = try PeerRTSPServer(["--auth", "basic", "--user", "admin", "--password", "s3cret"])
        defer { server.stop() }
        let (seen, _, info) = try await collect(server.url(user: "admin", password: "s3cret"), seconds: 2)
        #expect(seen.frames > 10)
        #expect(info?.authenticationScheme == "Basic")
    }

    @Test func digestAuthWithTheRightPassword() async throws {
        let server = try PeerRTSPServer(["--auth", "digest", "--user", "admin", "--password", "s3cret"])
        defer { server.stop() }
        let (seen, _, info) = try await collect(server.url(user: "admin", password: "s3cret"), seconds: 2)
        #expect(seen.frames > 10)
        #expect(info?.authenticationScheme?.hasPrefix("Digest") == true)
    }

    @Test func digestAuthWithAWrongPasswordFailsClearly() async throws {
        let server = try PeerRTSPServer(["--auth", "digest", "--user", "admin", "--password", "s3cret"])
        defer { server.stop() }
        do {
            _ = try await collect(server.url(user: "admin", password: "wrong-pw"), seconds: 1)
            Issue.record("a wrong password must fail")
        } catch let error as RTSPClientError {
            #expect(error.kind == .authenticationFailed)
            #expect(error.message == "authentication failed for rtsp://127.0.0.1:\(server.port)/stream: check the username and password")
        }
    }

    @Test func unknownPathIsNotFound() async throws {
        let server = try PeerRTSPServer(["--codec", "h264"])
        defer { server.stop() }
        do {
            _ = try await collect(server.url("/nothing-here"), seconds: 1)
            Issue.record("an unknown path must fail")
        } catch let error as RTSPClientError {
            #expect(error.kind == .notFound)
            #expect(error.message.contains("check the stream path"))
        }
    }

    @Test func keepaliveHoldsASessionPastItsTimeout() async throws {
        // The server expires sessions after 6 s without a keepalive; we play for 14 s.
        let server = try PeerRTSPServer(["--codec", "h264", "--session-timeout", "6"])
        defer { server.stop() }
        let (seen, _, info) = try await collect(server.url(), seconds: 14)
        #expect(info?.sessionTimeout == 6)
        #expect(seen.frames >= 300, "14 s at 25 fps ≈ 350 frames; got \(seen.frames): the session expired")
    }

    @Test func reconnectsAfterTheServerIsKilledAndRestarted() async throws {
        let port = freeLoopbackPort()
        var server = try PeerRTSPServer(["--codec", "h264"], port: port)
        let url = try RTSPURL(string: server.url())
        struct Log: Sendable { var frames = 0; var playing = 0; var disconnects: [RTSPClientError.Kind] = [] }
        let log = NIOLockedValueBox(Log())
        let supervisor = RTSPStreamSupervisor(url: url, configuration: RTSPClientConfiguration(dataTimeout: .seconds(2)),
                                              reconnect: ReconnectPolicy(initialDelay: .milliseconds(200), maximumDelay: .seconds(1)))
        let task = Task {
            await supervisor.run { event in
                log.withLockedValue { l in
                    switch event {
                    case .playing: l.playing += 1
                    case .media(.video): l.frames += 1
                    case .disconnected(let error, _): l.disconnects.append(error.kind)
                    default: break
                    }
                }
            }
        }
        defer { task.cancel() }
        try await Task.sleep(for: .seconds(2))
        let before = log.withLockedValue { $0.frames }
        #expect(before > 20)
        server.kill()
        try await Task.sleep(for: .seconds(3))
        let during = log.withLockedValue { $0.frames }
        server = try PeerRTSPServer(["--codec", "h264"], port: port)
        defer { server.stop() }
        try await Task.sleep(for: .seconds(6))
        let after = log.withLockedValue { $0 }
        #expect(after.playing >= 2, "should have played again after the restart")
        #expect(after.frames - during > 25, "frames resume after the restart (before \(before), during \(during), after \(after.frames))")
        #expect(!after.disconnects.isEmpty)
    }
}

/// A self-signed certificate made with openssl for the RTSPS tests.
func makeSelfSignedCertificate() throws -> (cert: String, key: String) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("watchbox-tls-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let cert = directory.appendingPathComponent("cert.pem").path
    let key = directory.appendingPathComponent("key.pem").path
    let result = try runCommand("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                                                     "-subj", "/CN=127.0.0.1", "-keyout", key, "-out", cert])
    guard result.status == 0 else { throw PeerError(message: "openssl failed: \(result.stderr)") }
    return (cert, key)
}

@Suite(.serialized, .enabled(if: PeerRTSPServer.isAvailable && FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"),
                             "GStreamer's RTSP server or openssl is not installed; scripts/test installs them"))
struct RTSPSIntegrationTests {
    @Test func selfSignedCertificateIsRefusedUnlessAllowed() async throws {
        let (cert, key) = try makeSelfSignedCertificate()
        let server = try PeerRTSPServer(["--codec", "h264", "--tls-cert", cert, "--tls-key", key])
        defer { server.stop() }
        do {
            _ = try await collect(server.url(scheme: "rtsps"), seconds: 1)
            Issue.record("an unverifiable certificate must be refused by default")
        } catch let error as RTSPClientError {
            #expect(error.kind == .tls)
            #expect(error.message.contains("--insecure"), "\(error.message)")
        }
        let (seen, _, _) = try await collect(server.url(scheme: "rtsps"),
                                             configuration: RTSPClientConfiguration(allowSelfSignedCertificates: true), seconds: 2)
        #expect(seen.frames > 20)
        #expect(seen.format?.width == 1280)
    }

    @Test func probeOverRTSPSWithInsecure() async throws {
        let (cert, key) = try makeSelfSignedCertificate()
        let server = try PeerRTSPServer(["--codec", "h264", "--tls-cert", cert, "--tls-key", key, "--auth", "digest",
                                         "--user", "admin", "--password", "tls-pw"])
        defer { server.stop() }
        let result = try runCommand(watchboxExecutable, ["probe", "--insecure", "--duration", "2", "--json",
                                                         server.url(user: "admin", password: "tls-pw", scheme: "rtsps")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"codec\":\"h264\""))
        #expect(!result.stdout.contains("tls-pw"))
    }
}
