import Foundation
import Recording
import Testing

@Suite("Segment naming")
struct SegmentNamingTests {
    let camera = UUID(uuidString: "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0")!

    @Test("a path is <camera>/<UTC day>/<HHMMSS>-<n>.mp4")
    func path() {
        // 2026-11-23T03:12:05.750Z
        let date = Date(timeIntervalSince1970: 1_795_403_525.75)
        #expect(SegmentNaming.relativePath(cameraID: camera, start: date, number: 1)
                == "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0/2026-11-23/031205-1.mp4")
        #expect(SegmentNaming.relativePath(cameraID: camera, start: date, number: 12).hasSuffix("/031205-12.mp4"))
    }

    @Test("the day is the UTC day, whatever the local time zone")
    func utcDay() {
        // 2026-11-22T23:59:59Z is already the 23rd east of UTC; the path keeps the 22nd.
        let date = Date(timeIntervalSince1970: 1_795_391_999)
        #expect(SegmentNaming.relativePath(cameraID: camera, start: date, number: 1).contains("/2026-11-22/235959-1.mp4"))
    }

    @Test("parsing gives back the camera, the second and the number; other names are refused")
    func parse() throws {
        let date = Date(timeIntervalSince1970: 1_795_403_525)
        let path = SegmentNaming.relativePath(cameraID: camera, start: date, number: 3)
        let parsed = try #require(SegmentNaming.parse(path))
        #expect(parsed.cameraID == camera)
        #expect(parsed.start == date)
        #expect(parsed.number == 3)
        for bad in ["\(camera.uuidString)/2026-11-23/031205-1.mp4.damaged", "\(camera.uuidString)/2026-11-23/0312-1.mp4",
                    "not-a-uuid/2026-11-23/031205-1.mp4", "\(camera.uuidString)/2026-13-40/031205-1.mp4",
                    "\(camera.uuidString)/031205-1.mp4", "\(camera.uuidString)/2026-11-23/031205-0.mp4"] {
            #expect(SegmentNaming.parse(bad) == nil, "\(bad)")
        }
    }
}
