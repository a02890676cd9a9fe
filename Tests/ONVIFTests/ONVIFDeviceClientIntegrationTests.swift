import Foundation
import XCTest
@testable import ONVIF

/// ONVIFDeviceClient against Tests/Peers/onvif_device.py (a real HTTP server that checks the
/// WS-Security digest and HTTP Digest itself) serving the vendor fixtures.
final class ONVIFDeviceClientIntegrationTests: XCTestCase {
    override func setUpWithError() throws {
        if !ONVIFDevicePeer.isAvailable {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("/usr/bin/python3 missing") }
            throw XCTSkip("/usr/bin/python3 missing")
        }
    }

    func testWSSecurityWithASkewedCameraClock() async throws {
        // The camera runs an hour and a half ahead: the token is only accepted if Created is corrected.
        let peer = try ONVIFDevicePeer(vendor: "hikvision", mode: "wssecurity", skew: 5400, extra: ["--no-get-services"])
        defer { peer.stop() }
        let report = try await ONVIFDeviceClient(deviceServiceURL: peer.deviceServiceURL, username: "admin", password: "c0rrect-horse").query()
        XCTAssertEqual(report.authentication, "ws-security")
        XCTAssertEqual(report.clockOffsetSeconds, 5400, accuracy: 3)
        XCTAssertEqual(report.manufacturer, "HIKVISION")
        XCTAssertEqual(report.model, "DS-2CD3T45P1-I")
        XCTAssertEqual(report.profiles.map(\.token), ["Profile_1", "Profile_2"])
        XCTAssertEqual(report.profiles.map(\.encoding), ["H265", "H264"], "Hikvision's encoding attribute")
        XCTAssertEqual(report.mainProfile?.streamURI, "rtsp://127.0.0.1:8554/Profile_1")
        XCTAssertEqual(report.subProfile?.streamURI, "rtsp://127.0.0.1:8554/Profile_2")
        XCTAssertEqual(report.mainProfile?.snapshotURI, "http://127.0.0.1:\(peer.port)/onvif-http/snapshot?Profile_1")
        XCTAssertEqual(report.deviceServiceURL, peer.deviceServiceURL)
    }

    func testMedia2IsPreferredWhereOffered() async throws {
        let peer = try ONVIFDevicePeer(vendor: "media2", mode: "wssecurity", skew: -42)
        defer { peer.stop() }
        let report = try await ONVIFDeviceClient(deviceServiceURL: peer.deviceServiceURL, username: "admin", password: "c0rrect-horse").query()
        XCTAssertEqual(report.clockOffsetSeconds, -42, accuracy: 3)
        XCTAssertEqual(report.profiles, [ONVIFMediaProfile(token: "profile_1_h264", name: "profile_1 h264", encoding: "H264",
                                                           width: 2688, height: 1520, fps: 30,
                                                           streamURI: "rtsp://127.0.0.1:8554/profile_1_h264",
                                                           snapshotURI: "http://127.0.0.1:\(peer.port)/snapshot/profile_1_h264.jpg")])
        XCTAssertNil(report.subProfile, "one profile: no sub stream")
    }

    func testWrongPasswordIsAClearAuthenticationFailure() async throws {
        let peer = try ONVIFDevicePeer(vendor: "hikvision", mode: "wssecurity")
        defer { peer.stop() }
        do {
            _ = try await ONVIFDeviceClient(deviceServiceURL: peer.deviceServiceURL, username: "admin", password: "wrong").query()
            XCTFail("a wrong password was accepted")
        } catch {
            XCTAssertEqual(error, .authenticationFailed(url: peer.deviceServiceURL))
            XCTAssertEqual(error.description, "authentication failed for \(peer.deviceServiceURL): check the username and password")
        }
    }

    func testDigestOnlyCameraFallsBackToHTTPDigest() async throws {
        let peer = try ONVIFDevicePeer(vendor: "dahua", mode: "digest")
        defer { peer.stop() }
        let report = try await ONVIFDeviceClient(deviceServiceURL: "http://admin:c0rrect-horse@127.0.0.1:\(peer.port)/onvif/device_service",
                                                 username: nil, password: nil).query()
        XCTAssertEqual(report.authentication, "http-digest")
        XCTAssertEqual(report.manufacturer, "Dahua")
        XCTAssertEqual(report.model, "IPC-HDW1025C")
        XCTAssertEqual(report.profiles.first?.encoding, "H265")
        XCTAssertEqual(report.mainProfile?.streamURI, "rtsp://127.0.0.1:8554/Profile000")
        XCTAssertEqual(report.subProfile?.streamURI, "rtsp://127.0.0.1:8554/Profile001")
        XCTAssertFalse(report.deviceServiceURL.contains("c0rrect-horse"), "userinfo never reaches the report")
        do {
            _ = try await ONVIFDeviceClient(deviceServiceURL: peer.deviceServiceURL, username: "admin", password: "nope").query()
            XCTFail("a wrong digest password was accepted")
        } catch {
            XCTAssertEqual(error, .authenticationFailed(url: peer.deviceServiceURL))
        }
    }

    func testGarbageAnswerIsAClearError() async throws {
        let peer = try ONVIFDevicePeer(vendor: "hikvision", mode: "garbage")
        defer { peer.stop() }
        do {
            _ = try await ONVIFDeviceClient(deviceServiceURL: peer.deviceServiceURL, username: "admin", password: "x").query()
            XCTFail("garbage accepted")
        } catch {
            guard case .malformedResponse(let url, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(url, peer.deviceServiceURL)
            XCTAssertTrue(error.description.contains("isn't ONVIF SOAP"), error.description)
        }
    }

    func testSilentDeviceTimesOutWithinTheTimeout() async throws {
        let peer = try ONVIFDevicePeer(vendor: "hikvision", mode: "silent")
        defer { peer.stop() }
        let started = ContinuousClock.now
        do {
            _ = try await ONVIFDeviceClient(deviceServiceURL: peer.deviceServiceURL, username: "admin", password: "x",
                                            timeout: .seconds(1)).query()
            XCTFail("a silent device answered")
        } catch {
            XCTAssertEqual(error, .timedOut(url: peer.deviceServiceURL, seconds: 1))
        }
        // The contract's bound (timeout + 1 s), not a speed measurement.
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(2))
    }

    func testRefusedConnectionIsUnreachable() async throws {
        let peer = try ONVIFDevicePeer(vendor: "hikvision", mode: "wssecurity")
        let url = peer.deviceServiceURL
        peer.stop()
        do {
            _ = try await ONVIFDeviceClient(deviceServiceURL: url, username: nil, password: nil, timeout: .seconds(2)).query()
            XCTFail("a closed port answered")
        } catch {
            guard case .unreachable = error else { return XCTFail("\(error)") }
        }
    }

    func testInvalidURL() async {
        do {
            _ = try await ONVIFDeviceClient(deviceServiceURL: "ftp://u:pw@x/y", username: nil, password: nil).query()
            XCTFail("accepted")
        } catch {
            XCTAssertEqual(error, .invalidURL("ftp://x/y"))
        }
    }
}
