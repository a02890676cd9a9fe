import Foundation

/// Core §8.3.12 GetSystemDateAndTimeResponse: the device's UTC time, from which the clock offset
/// used for WS-Security `Created` is computed.
public struct ONVIFSystemDateAndTime: Sendable, Equatable {
    /// `tt:UTCDateTime` as a Date.
    public var utc: Date
    /// `tt:DateTimeType` ("NTP" or "Manual"), when given.
    public var dateTimeType: String?
    /// `tt:TimeZone/TZ` (POSIX TZ string), when given.
    public var timeZone: String?

    /// Reads `GetSystemDateAndTimeResponse`. Nil when there is no usable `UTCDateTime`
    /// (tolerance: a device without it gives offset 0 and a warning from the client).
    public init?(response: XMLTreeElement) {
        guard let system = response.first("SystemDateAndTime"),
              let utcElement = system.child("UTCDateTime"),
              let date = utcElement.child("Date"), let time = utcElement.child("Time") else { return nil }
        func int(_ element: XMLTreeElement?, _ name: String) -> Int? { element?.child(name).flatMap { Int($0.trimmedText) } }
        var components = DateComponents()
        components.year = int(date, "Year"); components.month = int(date, "Month"); components.day = int(date, "Day")
        components.hour = int(time, "Hour"); components.minute = int(time, "Minute"); components.second = int(time, "Second")
        guard components.year != nil, components.month != nil, components.day != nil,
              components.hour != nil, components.minute != nil, components.second != nil else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        components.timeZone = calendar.timeZone
        guard let utc = calendar.date(from: components) else { return nil }
        self.utc = utc
        self.dateTimeType = system.child("DateTimeType")?.trimmedText
        self.timeZone = system.child("TimeZone")?.child("TZ")?.trimmedText
    }

    /// Camera clock − `now`, in seconds.
    public func offset(from now: Date) -> Double {
        utc.timeIntervalSince(now)
    }
}
