import XCTest
@testable import ONVIF

final class ONVIFDeviceReportTests: XCTestCase {
    func testProfilesSortedHighestResolutionFirstWithMainAndSub() {
        let report = ONVIFDeviceReport(deviceServiceURL: "http://127.0.0.1/onvif/device_service", profiles: [
            ONVIFMediaProfile(token: "sub", name: "sub", width: 640, height: 360),
            ONVIFMediaProfile(token: "main", name: "main", width: 1920, height: 1080),
            ONVIFMediaProfile(token: "third", name: "third", width: 1280, height: 720),
        ])
        XCTAssertEqual(report.profiles.map(\.token), ["main", "third", "sub"])
        XCTAssertEqual(report.mainProfile?.token, "main")
        XCTAssertEqual(report.subProfile?.token, "sub")
        let single = ONVIFDeviceReport(deviceServiceURL: "x", profiles: [ONVIFMediaProfile(token: "a", name: "a")])
        XCTAssertEqual(single.mainProfile?.token, "a")
        XCTAssertNil(single.subProfile)
    }
}
