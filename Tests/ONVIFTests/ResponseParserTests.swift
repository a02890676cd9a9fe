import XCTest
@testable import ONVIF

final class ResponseParserTests: XCTestCase {
    func testSystemDateAndTimeGivesTheOffsetForBothVendors() throws {
        for vendor in ["hikvision", "dahua"] {
            let time = try XCTUnwrap(ONVIFSystemDateAndTime(response: try Fixture.body("\(vendor)/GetSystemDateAndTime.xml")))
            let expected = Date(timeIntervalSince1970: 1_720_543_746)  // 2024-07-09T16:49:06Z
            XCTAssertEqual(time.utc, expected, vendor)
            XCTAssertEqual(time.offset(from: expected.addingTimeInterval(-90)), 90, accuracy: 0.001)
        }
        XCTAssertEqual(ONVIFSystemDateAndTime(response: try Fixture.body("hikvision/GetSystemDateAndTime.xml"))?.timeZone, "CST-8:00:00")
        XCTAssertNil(ONVIFSystemDateAndTime(response: XMLTreeElement(namespace: "", localName: "GetSystemDateAndTimeResponse")))
    }

    func testDeviceInformation() throws {
        let hikvision = ONVIFDeviceInformation(response: try Fixture.body("hikvision/GetDeviceInformation.xml"))
        XCTAssertEqual(hikvision.manufacturer, "HIKVISION")
        XCTAssertEqual(hikvision.model, "DS-2CD2032-I")
        XCTAssertEqual(hikvision.firmwareVersion, "V5.3.0 build 150513")
        XCTAssertEqual(hikvision.hardwareID, "88")
        let dahua = ONVIFDeviceInformation(response: try Fixture.body("dahua/GetDeviceInformation.xml"))
        XCTAssertEqual(dahua.manufacturer, "Dahua")
        XCTAssertEqual(dahua.model, "IPC-HDW4233C-A")
        XCTAssertEqual(dahua.serialNumber, "4J0000PAZ00000")
    }

    func testMediaAddressFromCapabilitiesAndServices() throws {
        let capabilities = ONVIFServiceAddresses(capabilitiesResponse: try Fixture.body("hikvision/GetCapabilities.xml"))
        XCTAssertEqual(capabilities.media, "http://192.0.2.10/onvif/Media")
        XCTAssertNil(capabilities.media2)
        let services = ONVIFServiceAddresses(servicesResponse: try Fixture.body("dahua/GetServices.xml"))
        XCTAssertEqual(services.media, "http://192.0.2.10/onvif/media_service")
        XCTAssertNil(services.media2)
    }

    func testHikvisionProfilesInDefaultNamespaces() throws {
        let profiles = ONVIFMediaProfile.parseMedia1(getProfilesResponse: try Fixture.body("hikvision/GetProfiles.xml"))
        XCTAssertEqual(profiles, [
            ONVIFMediaProfile(token: "Profile_1", name: "mainStream", encoding: "H264", width: 640, height: 480, fps: 2),
            ONVIFMediaProfile(token: "Profile_2", name: "subStream", encoding: "H264", width: 352, height: 288, fps: 2),
        ])
    }

    func testDahuaProfilesWithPrefixes() throws {
        let profiles = ONVIFMediaProfile.parseMedia1(getProfilesResponse: try Fixture.body("dahua/GetProfiles.xml"))
        XCTAssertEqual(profiles.map(\.token), ["Profile000", "Profile001"])
        XCTAssertEqual(profiles[0].encoding, "H265")
        XCTAssertEqual(profiles[0].width, 1920)
        XCTAssertEqual(profiles[0].height, 1080)
        XCTAssertEqual(profiles[0].fps, 1)
        XCTAssertEqual(profiles[1].encoding, "H264")
        XCTAssertEqual(profiles[1].fps, 25)
    }

    func testFoscamProfileWithXsiTypes() throws {
        let profiles = ONVIFMediaProfile.parseMedia1(getProfilesResponse: try Fixture.body("foscam_get_profiles_fragment.xml"))
        XCTAssertEqual(profiles, [ONVIFMediaProfile(token: "profile_token0", name: "profile_name0", encoding: "H264",
                                                    width: 1280, height: 720, fps: 25)])
    }

    func testMedia2Profiles() throws {
        let profiles = ONVIFMediaProfile.parseMedia2(getProfilesResponse: try Fixture.body("media2_get_profiles.xml"))
        XCTAssertEqual(profiles, [ONVIFMediaProfile(token: "profile_1_h264", name: "profile_1 h264", encoding: "H264",
                                                    width: 2688, height: 1520, fps: 30)])
    }

    func testEncodingNamesAreNormalised() {
        XCTAssertEqual(ONVIFMediaProfile.normalisedEncoding("H.265"), "H265")
        XCTAssertEqual(ONVIFMediaProfile.normalisedEncoding("hevc"), "H265")
        XCTAssertEqual(ONVIFMediaProfile.normalisedEncoding("MPV4-ES"), "MPEG4")
        XCTAssertEqual(ONVIFMediaProfile.normalisedEncoding("JPEG"), "JPEG")
    }

    func testStreamAndSnapshotURIs() throws {
        XCTAssertEqual(ONVIFMediaURI.parse(response: try Fixture.body("hikvision/GetStreamUri.xml")), "rtsp://127.0.0.1:554/Profile_1")
        XCTAssertEqual(ONVIFMediaURI.parse(response: try Fixture.body("hikvision/GetSnapshotUri.xml")),
                       "http://192.0.2.10/onvif-http/snapshot?Profile_1")
        XCTAssertEqual(ONVIFMediaURI.parse(response: try Fixture.body("dahua/GetSnapshotUri.xml")),
                       "http://192.0.2.10/onvifsnapshot/media_service/snapshot?channel=1&subtype=0")
        let media2 = try XMLTreeParser.parse("<r:GetStreamUriResponse xmlns:r=\"http://www.onvif.org/ver20/media/wsdl\"><r:Uri> rtsp://h/s </r:Uri></r:GetStreamUriResponse>")
        XCTAssertEqual(ONVIFMediaURI.parse(response: media2), "rtsp://h/s")
    }
}
