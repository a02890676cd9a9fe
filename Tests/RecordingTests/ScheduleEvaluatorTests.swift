import Foundation
import Recording
import Store
import Testing

@Suite("Schedule evaluation")
struct ScheduleEvaluatorTests {
    /// A fixed zone (no DST) so the test means the same everywhere.
    let zone = TimeZone(secondsFromGMT: 3600)!

    /// A moment in `zone`: 2026-11-23 is a Monday.
    func at(_ day: Int, _ hour: Int, _ minute: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: 2026, month: 11, day: day, hour: hour, minute: minute))!
    }

    @Test("a weekday window: inside, at its edges, other days")
    func weekdays() {
        let schedule = [ScheduleWindow(days: [1, 2, 3, 4, 5], start: "08:00", end: "18:30")]
        #expect(ScheduleEvaluator.isActive(schedule, at: at(23, 8, 0), timeZone: zone))     // Monday 08:00: starts
        #expect(ScheduleEvaluator.isActive(schedule, at: at(23, 18, 29), timeZone: zone))
        #expect(!ScheduleEvaluator.isActive(schedule, at: at(23, 18, 30), timeZone: zone))   // the end is excluded
        #expect(!ScheduleEvaluator.isActive(schedule, at: at(23, 7, 59), timeZone: zone))
        #expect(!ScheduleEvaluator.isActive(schedule, at: at(22, 12, 0), timeZone: zone))    // Sunday
        #expect(!ScheduleEvaluator.isActive(schedule, at: at(28, 12, 0), timeZone: zone))    // Saturday
    }

    @Test("a window crossing midnight belongs to the day it starts on")
    func crossingMidnight() {
        // Friday 22:00 → Saturday 06:00 only.
        let schedule = [ScheduleWindow(days: [5], start: "22:00", end: "06:00")]
        #expect(ScheduleEvaluator.isActive(schedule, at: at(27, 22, 0), timeZone: zone))     // Friday night
        #expect(ScheduleEvaluator.isActive(schedule, at: at(28, 5, 59), timeZone: zone))     // Saturday early
        #expect(!ScheduleEvaluator.isActive(schedule, at: at(28, 6, 0), timeZone: zone))
        #expect(!ScheduleEvaluator.isActive(schedule, at: at(28, 22, 30), timeZone: zone))   // Saturday night: not listed
        #expect(!ScheduleEvaluator.isActive(schedule, at: at(27, 5, 0), timeZone: zone))     // Friday early: Thursday's night, not listed
        // Sunday's night runs into Monday (day 6 → 0 wraps too).
        let saturday = [ScheduleWindow(days: [6], start: "23:00", end: "01:00")]
        #expect(ScheduleEvaluator.isActive(saturday, at: at(29, 0, 30), timeZone: zone))     // Sunday 00:30
    }

    @Test("the time zone decides: the same instant is in or out")
    func zoneMatters() {
        let schedule = [ScheduleWindow(days: [1], start: "08:00", end: "09:00")]
        let instant = at(23, 8, 30)  // 07:30 UTC
        #expect(ScheduleEvaluator.isActive(schedule, at: instant, timeZone: zone))
        #expect(!ScheduleEvaluator.isActive(schedule, at: instant, timeZone: TimeZone(identifier: "UTC")!))
    }

    @Test("00:00–24:00 is the whole day; equal start and end is 24 hours; an empty schedule never")
    func edges() {
        let whole = [ScheduleWindow(days: [1], start: "00:00", end: "24:00")]
        #expect(ScheduleEvaluator.isActive(whole, at: at(23, 0, 0), timeZone: zone))
        #expect(ScheduleEvaluator.isActive(whole, at: at(23, 23, 59), timeZone: zone))
        #expect(!ScheduleEvaluator.isActive(whole, at: at(24, 0, 0), timeZone: zone))
        let day = [ScheduleWindow(days: [1], start: "12:00", end: "12:00")]
        #expect(ScheduleEvaluator.isActive(day, at: at(24, 11, 59), timeZone: zone))
        #expect(!ScheduleEvaluator.isActive(day, at: at(24, 12, 0), timeZone: zone))
        #expect(!ScheduleEvaluator.isActive([], at: at(23, 12, 0), timeZone: zone))
    }
}
