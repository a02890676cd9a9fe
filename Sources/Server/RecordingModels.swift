import Foundation
import Hummingbird
import Recording
import Store

/// ISO 8601 UTC with milliseconds (`2026-11-23T03:12:00.000Z`), as every recording API time is written;
/// reading also takes times without a fraction or with an offset.
enum ISOTime {
    static func string(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}

/// `state` of a RecordingConfig and of the `recording` event.
struct RecordingStateResponse: Codable, Sendable, Equatable {
    var state: String
    var message: String?
    var since: String?
    var manualUntil: String?

    init(_ value: RecorderState) {
        state = value.state.rawValue
        message = value.message
        since = value.since.map(ISOTime.string)
        manualUntil = value.manualUntil.map(ISOTime.string)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(state, forKey: .state)
        try container.encode(message, forKey: .message)
        try container.encode(since, forKey: .since)
        try container.encode(manualUntil, forKey: .manualUntil)
    }
}

/// `GET/PUT /api/cameras/{id}/recording`.
struct RecordingConfigResponse: ResponseCodable, Sendable {
    var mode: String
    var schedule: [ScheduleWindow]
    var retentionDays: Int?
    var state: RecordingStateResponse

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mode, forKey: .mode)
        try container.encode(schedule, forKey: .schedule)
        try container.encode(retentionDays, forKey: .retentionDays)
        try container.encode(state, forKey: .state)
    }
}

/// The body of `PUT /api/cameras/{id}/recording`: every field optional (what is left out keeps its value);
/// `retentionDays: null` removes the maximum age.
struct RecordingConfigInput: Decodable, Sendable {
    var mode: String?
    var schedule: [ScheduleWindow]?
    var retentionDays: Int??

    enum CodingKeys: String, CodingKey { case mode, schedule, retentionDays }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mode = try container.decodeIfPresent(String.self, forKey: .mode)
        schedule = try container.decodeIfPresent([ScheduleWindow].self, forKey: .schedule)
        if container.contains(.retentionDays) {
            retentionDays = .some(try container.decodeNil(forKey: .retentionDays) ? nil : try container.decode(Int.self, forKey: .retentionDays))
        }
    }
}

struct ManualStartInput: Decodable, Sendable {
    var durationSeconds: Double?
}

struct SegmentResponse: Codable, Sendable {
    var id: Int64
    var cameraID: UUID
    var start: String
    var end: String
    var durationSeconds: Double
    var bytes: Int64
    var codec: String
    var width: Int
    var height: Int
    var `protected`: Bool
    /// The segment being written: `end` is its last whole fragment; its (negative) id lasts until it closes.
    var inProgress: Bool

    init(_ open: OpenSegment, isProtected: Bool) {
        id = open.id
        cameraID = open.cameraID
        start = ISOTime.string(open.start)
        end = ISOTime.string(open.end)
        durationSeconds = (open.writtenSeconds * 1000).rounded() / 1000
        bytes = open.committedBytes
        codec = open.codec
        width = open.width
        height = open.height
        self.protected = isProtected
        inProgress = true
    }

    init(_ listing: SegmentListing) {
        let segment = listing.segment
        id = segment.id ?? 0
        cameraID = segment.cameraID
        start = ISOTime.string(segment.start)
        end = ISOTime.string(segment.end)
        durationSeconds = (segment.duration * 1000).rounded() / 1000
        bytes = segment.bytes
        codec = segment.codec
        width = segment.width
        height = segment.height
        self.protected = listing.isProtected
        inProgress = false
    }
}

struct SegmentsResponse: ResponseCodable, Sendable {
    var segments: [SegmentResponse]
}

struct DaysResponse: ResponseCodable, Sendable {
    var days: [String]
}

struct ProtectionInput: Decodable, Sendable {
    var from: String?
    var to: String?
    var note: String?
}

struct ProtectionResponse: ResponseCodable, Sendable {
    var id: Int64
    var cameraID: UUID
    var from: String
    var to: String
    var note: String

    init(_ protection: Protection) {
        id = protection.id ?? 0
        cameraID = protection.cameraID
        from = ISOTime.string(protection.from)
        to = ISOTime.string(protection.to)
        note = protection.note
    }
}

struct ProtectionsResponse: ResponseCodable, Sendable {
    var protections: [ProtectionResponse]
}

struct StorageSettingsBody: ResponseCodable, Sendable {
    var maxBytes: Int64?
    var minFreeBytes: Int64

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(maxBytes, forKey: .maxBytes)
        try container.encode(minFreeBytes, forKey: .minFreeBytes)
    }
}

struct StorageSettingsInput: Decodable, Sendable {
    var maxBytes: Int64??
    var minFreeBytes: Int64?

    enum CodingKeys: String, CodingKey { case maxBytes, minFreeBytes }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.maxBytes) {
            maxBytes = .some(try container.decodeNil(forKey: .maxBytes) ? nil : try container.decode(Int64.self, forKey: .maxBytes))
        }
        minFreeBytes = try container.decodeIfPresent(Int64.self, forKey: .minFreeBytes)
    }
}

struct StorageCameraResponse: Codable, Sendable {
    var id: UUID
    var name: String
    var bytes: Int64
    var segments: Int
    var oldest: String?
    var newest: String?
    var retentionDays: Int?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(segments, forKey: .segments)
        try container.encode(oldest, forKey: .oldest)
        try container.encode(newest, forKey: .newest)
        try container.encode(retentionDays, forKey: .retentionDays)
    }
}

struct StorageResponse: ResponseCodable, Sendable {
    var directory: String
    var totalBytes: Int64
    var freeBytes: Int64
    var recordingBytes: Int64
    var cameras: [StorageCameraResponse]
    var settings: StorageSettingsBody
}

/// The data of a `recording` server-sent event.
struct RecordingEvent: Encodable, Sendable {
    var cameraID: UUID
    var state: RecordingStateResponse
}
