import Foundation
import GRDB

/// When a camera records (issue 7).
public enum RecordingMode: String, Codable, Sendable, CaseIterable {
    /// Never, except a manual recording started through the API.
    case off
    /// All the time.
    case continuous
    /// Inside the weekly windows of the schedule (server-local time).
    case scheduled
    /// Only when started through the API (same as `off` when none runs; kept apart so the UI shows the intent).
    case manual
}

/// One weekly window: on `days` (0 = Sunday … 6 = Saturday) from `start` to `end` ("HH:MM", server-local time).
/// A window whose end is before its start crosses midnight: it starts on the listed day and ends the next.
public struct ScheduleWindow: Codable, Sendable, Equatable {
    public var days: [Int]
    public var start: String
    public var end: String

    public init(days: [Int], start: String, end: String) {
        self.days = days
        self.start = start
        self.end = end
    }

    /// Minutes after midnight of "HH:MM" (00:00 … 24:00), nil when malformed.
    public static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
              let hours = Int(parts[0]), let minutes = Int(parts[1]),
              (0...24).contains(hours), (0..<60).contains(minutes), hours * 60 + minutes <= 24 * 60 else { return nil }
        return hours * 60 + minutes
    }
}

/// A camera's recording settings: a row of `recordingSettings` (migration "v3-recording"). A camera
/// without a row does not record (`off`) and keeps its footage until the global cap needs the space.
public struct RecordingSettings: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public var cameraID: UUID
    public var mode: RecordingMode
    public var schedule: [ScheduleWindow]
    /// Footage older than this many days is deleted (unless protected); nil: kept until the cap needs space.
    public var retentionDays: Int?

    public init(cameraID: UUID, mode: RecordingMode = .off, schedule: [ScheduleWindow] = [], retentionDays: Int? = nil) {
        self.cameraID = cameraID
        self.mode = mode
        self.schedule = schedule
        self.retentionDays = retentionDays
    }

    public static let databaseTableName = "recordingSettings"

    /// Camera ids are stored as upper-case text, as in `camera`.
    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        .uppercaseString
    }

    public static func databaseJSONEncoder(for column: String) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

    /// Refuses what the schema would refuse, with the field and what to do.
    public func validate() throws {
        if let retentionDays, retentionDays < 1 {
            throw StoreError(.invalidInput, "retentionDays must be at least 1 (or null to keep footage until space is needed)")
        }
        for window in schedule {
            if window.days.isEmpty || window.days.contains(where: { !(0...6).contains($0) }) {
                throw StoreError(.invalidInput, "schedule days are 0 (Sunday) to 6 (Saturday), at least one per window")
            }
            guard ScheduleWindow.minutes(window.start) != nil, ScheduleWindow.minutes(window.end) != nil else {
                throw StoreError(.invalidInput, "schedule times are \"HH:MM\" from 00:00 to 24:00, like \"08:00\"")
            }
        }
    }
}

/// The global limits on footage: a row of `storageSettings` (id 1).
public struct StorageSettings: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public var id: Int = 1
    /// At most this many bytes of footage in all; nil: no cap but the free space.
    public var maxBytes: Int64?
    /// Keep at least this much free space on the recordings' filesystem.
    public var minFreeBytes: Int64

    public static let defaultMinFreeBytes: Int64 = 1 << 30

    public init(maxBytes: Int64? = nil, minFreeBytes: Int64 = StorageSettings.defaultMinFreeBytes) {
        self.maxBytes = maxBytes
        self.minFreeBytes = minFreeBytes
    }

    public static let databaseTableName = "storageSettings"
}
