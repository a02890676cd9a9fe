import Foundation

/// Where a segment file goes: `<camera id>/<YYYY-MM-DD>/<HHMMSS>-<n>.mp4` under the recordings root, the date
/// and time being the UTC wall clock of its first frame and `n` telling apart files started in the same second
/// (1, 2, …). Pure.
public enum SegmentNaming {
    /// The path relative to the recordings root.
    public static func relativePath(cameraID: UUID, start: Date, number: Int) -> String {
        let parts = utcParts(start)
        let day = String(format: "%04d-%02d-%02d", parts.year, parts.month, parts.day)
        let time = String(format: "%02d%02d%02d", parts.hour, parts.minute, parts.second)
        return "\(cameraID.uuidString)/\(day)/\(time)-\(number).mp4"
    }

    /// The camera and the start (to the second) a relative path names; nil for any other file.
    public static func parse(_ relativePath: String) -> (cameraID: UUID, start: Date, number: Int)? {
        let components = relativePath.split(separator: "/")
        guard components.count == 3, let cameraID = UUID(uuidString: String(components[0])) else { return nil }
        let day = components[1].split(separator: "-")
        guard day.count == 3, let year = Int(day[0]), let month = Int(day[1]), let dayOfMonth = Int(day[2]) else { return nil }
        let file = components[2]
        guard file.hasSuffix(".mp4") else { return nil }
        let stem = file.dropLast(4).split(separator: "-")
        guard stem.count == 2, stem[0].count == 6, let number = Int(stem[1]), number >= 1,
              let hour = Int(stem[0].prefix(2)), let minute = Int(stem[0].dropFirst(2).prefix(2)),
              let second = Int(stem[0].suffix(2)) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components2 = DateComponents(year: year, month: month, day: dayOfMonth, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: components2),
              relativePath == Self.relativePath(cameraID: cameraID, start: date, number: number) else { return nil }
        return (cameraID, date, number)
    }

    static func utcParts(_ date: Date) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return (c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }
}
