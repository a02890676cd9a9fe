import Foundation
import Store

/// Whether a weekly schedule covers a moment, in a given time zone (the server's local time). Pure.
///
/// A window lists days (0 = Sunday … 6 = Saturday) and "HH:MM" times; it starts on each listed day at `start`
/// and ends at `end` the same day, or the next day when `end` is before `start` (it crosses midnight). A window
/// whose start equals its end lasts 24 hours. Wall-clock minutes are compared, so a DST change shortens or
/// lengthens a window rather than moving it.
public enum ScheduleEvaluator {
    public static func isActive(_ schedule: [ScheduleWindow], at date: Date, timeZone: TimeZone) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.weekday, .hour, .minute], from: date)
        let weekday = (parts.weekday ?? 1) - 1
        let minute = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        let yesterday = (weekday + 6) % 7
        for window in schedule {
            guard let start = ScheduleWindow.minutes(window.start), let end = ScheduleWindow.minutes(window.end) else { continue }
            if end > start {
                if window.days.contains(weekday) && minute >= start && minute < end { return true }
            } else {
                // Crosses midnight (or lasts a whole day when end == start).
                if window.days.contains(weekday) && minute >= start { return true }
                if window.days.contains(yesterday) && minute < end { return true }
            }
        }
        return false
    }
}
