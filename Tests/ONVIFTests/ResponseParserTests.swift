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

    func testTapoSystemDateAndTimeWithAnOddlyClosedHeader() throws {
        // A real TP-Link Tapo C500 answer: `SOAP-ENV:` envelope, pretty-printed body, `</SOAP-ENV:Header` with
        // its `>` on the next line, and Hikvision's `hikwsd`/`hikxsd` namespaces declared though unused.
        let time = try XCTUnwrap(ONVIFSystemDateAndTime(response: try Fixture.body("tplink_tapo_c500_get_system_date_and_time.xml")))
        XCTAssertEqual(time.utc, Date(timeIntervalSince1970: 1_692_949_499))  // 2023-08-25T07:44:59Z, not the local 09:44:59
        XCTAssertEqual(time.timeZone, "UTC+01:00")
    }

    func testDeviceInformation() throws {
        let hikvision = ONVIFDeviceInformation(response: try Fixture.body("hikvision/GetDeviceInformation.xml"))
        XCTAssertEqual(hikvision.manufacturer, "HIKVISION")
        XCTAssertEqual(hikvision.model, "DS-2CD3T45P1-I")
        XCTAssertEqual(hikvision.firmwareVersion, "V5.5.31 build 180903")
        XCTAssertEqual(hikvision.serialNumber, "DS-2CD3T45P1-I20210803AACH248538890")
        XCTAssertEqual(hikvision.hardwareID, "88")
        let dahua = ONVIFDeviceInformation(response: try Fixture.body("dahua/GetDeviceInformation.xml"))
        XCTAssertEqual(dahua.manufacturer, "Dahua")
        XCTAssertEqual(dahua.model, "IPC-HDW1025C")
        XCTAssertEqual(dahua.firmwareVersion, "2.420.Dahua 00.14.R, build: 2016-06-18", "newlines and indentation around it trimmed")
        XCTAssertEqual(dahua.serialNumber, "2J01018PAA00813")
        XCTAssertEqual(dahua.hardwareID, "1.00")
    }

    func testMediaAddressFromCapabilitiesAndServices() throws {
        let capabilities = ONVIFServiceAddresses(capabilitiesResponse: try Fixture.body("hikvision/GetCapabilities.xml"))
        XCTAssertEqual(capabilities.media, "http://192.0.2.10/onvif/Media")
        XCTAssertNil(capabilities.media2)
        // Dahua's real GetCapabilities: `s:`/`tt:` prefixes, element names with dots (`tt:TLS1.1`, `tt:X.509Token`).
        let dahua = ONVIFServiceAddresses(capabilitiesResponse: try Fixture.body("dahua/GetCapabilities.xml"))
        XCTAssertEqual(dahua.media, "http://192.0.2.10/onvif/media_service")
        XCTAssertNil(dahua.media2)
        let services = ONVIFServiceAddresses(servicesResponse: try Fixture.body("media2/GetServices.xml"))
        XCTAssertEqual(services.media, "http://192.0.2.10/onvif/media_service")
        XCTAssertEqual(services.media2, "http://192.0.2.10/onvif/media2_service")
    }

    func testHikvisionProfilesWithItsH265Attribute() throws {
        // A real Hikvision answer: `env:`/`trt:`/`tt:` prefixes, 40 namespace declarations, analytics
        // configurations with `hikxsd:` types, and the main stream's codec in `encoding="H265"`.
        let profiles = ONVIFMediaProfile.parseMedia1(getProfilesResponse: try Fixture.body("hikvision/GetProfiles.xml"))
        XCTAssertEqual(profiles, [
            ONVIFMediaProfile(token: "Profile_1", name: "mainStream", encoding: "H265", width: 1920, height: 1080, fps: 10),
            ONVIFMediaProfile(token: "Profile_2", name: "subStream", encoding: "H264", width: 640, height: 360, fps: 25),
        ])
    }

    func testTheVendorEncodingAttributeOverridesTheElementOnlyWhereItIsPresent() throws {
        let tt = "xmlns:trt=\"http://www.onvif.org/ver10/media/wsdl\" xmlns:tt=\"http://www.onvif.org/ver10/schema\""
        func parse(_ attribute: String) throws -> String? {
            let xml = "<trt:GetProfilesResponse \(tt)><trt:Profiles token=\"p\"><tt:Name>n</tt:Name><tt:VideoEncoderConfiguration\(attribute)>"
                + "<tt:Encoding>H264</tt:Encoding></tt:VideoEncoderConfiguration></trt:Profiles></trt:GetProfilesResponse>"
            return ONVIFMediaProfile.parseMedia1(getProfilesResponse: try XMLTreeParser.parse(xml)).first?.encoding
        }
        XCTAssertEqual(try parse(""), "H264")
        XCTAssertEqual(try parse(" encoding=\"H265\""), "H265")
        XCTAssertEqual(try parse(" encoding=\"hevc\""), "H265")
        XCTAssertEqual(try parse(" encoding=\" \""), "H264", "a blank attribute is ignored")
    }

    func testHikvisionProfilesInDefaultNamespaces() throws {
        let profiles = ONVIFMediaProfile.parseMedia1(getProfilesResponse: try Fixture.body("hikvision_zoneminder_get_profiles.xml"))
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
                       "http://192.0.2.10/onvifsnapshot/media_service/snapshot?channel=1&subtype=1", "&amp; decoded")
        XCTAssertEqual(ONVIFMediaURI.parse(response: try Fixture.body("dahua/GetStreamUri.xml")), "rtsp://127.0.0.1:554/Profile_1")
        let media2 = try XMLTreeParser.parse("<r:GetStreamUriResponse xmlns:r=\"http://www.onvif.org/ver20/media/wsdl\"><r:Uri> rtsp://h/s </r:Uri></r:GetStreamUriResponse>")
        XCTAssertEqual(ONVIFMediaURI.parse(response: media2), "rtsp://h/s")
    }
}
