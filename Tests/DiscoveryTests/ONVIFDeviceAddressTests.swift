import Discovery
import Foundation
import Testing

@Suite("ONVIF device addresses given by hand (--onvif-device, onvifDevices)")
struct ONVIFDeviceAddressTests {
    @Test(arguments: [
        ("10.0.0.5", "http://10.0.0.5/onvif/device_service"),
        ("10.0.0.5:8080", "http://10.0.0.5:8080/onvif/device_service"),
        (" 10.0.0.5:8080 ", "http://10.0.0.5:8080/onvif/device_service"),
        ("http://10.0.0.5/onvif/device_service", "http://10.0.0.5/onvif/device_service"),
        ("HTTP://10.0.0.5:80/", "http://10.0.0.5:80/onvif/device_service"),
        ("https://10.0.0.5/onvif/DeviceService", "https://10.0.0.5/onvif/DeviceService"),
    ])
    func acceptedFormsBecomeADeviceServiceURL(text: String, url: String) throws {
        #expect(try ONVIFDeviceAddress(parsing: text).url == url)
    }

    @Test(arguments: ["camera.local", "10.0.0", "10.0.0.256", "http://admin:pw@10.0.0.5/onvif/device_service",
                      "10.0.0.5:0", "10.0.0.5:70000", "http://10.0.0.5/onvif?x=1", "ftp://10.0.0.5/", ""])
    func otherFormsAreRefusedWithWhatToWrite(text: String) {
        do {
            let address = try ONVIFDeviceAddress(parsing: text)
            Issue.record("'\(text)' was accepted as \(address)")
        } catch {
            #expect("\(error)".hasPrefix("invalid ONVIF device address '\(text.trimmingCharacters(in: .whitespaces))'"))
            #expect("\(error)".hasSuffix("write A.B.C.D, A.B.C.D:PORT or http://A.B.C.D[:PORT]/onvif/device_service"))
        }
    }

    @Test func aListDropsRepeatsAndBlankEntries() throws {
        let list = try ONVIFDeviceAddress.parseList(["10.0.0.5", " ", "http://10.0.0.5/onvif/device_service", "10.0.0.6:81"])
        #expect(list.map(\.url) == ["http://10.0.0.5/onvif/device_service", "http://10.0.0.6:81/onvif/device_service"])
        #expect(list.first?.host == IPv4Address("10.0.0.5"))
    }
}
