import Foundation
import Hummingbird
import Logging
import MP4
import NIOCore
import Recording
import Store

/// What the recording API does, without routing: validation (400 naming the field), lookups (404), the
/// manager's settings and state, playback and export bodies.
public struct RecordingService: Sendable {
    public let manager: RecordingManager
    let repository: any RecordingRepository
    let cameras: any CameraRepository
    /// The longest range one export may cover.
    static let maxExportSeconds = 24.0 * 3600

    public init(manager: RecordingManager, repository: any RecordingRepository, cameras: any CameraRepository) {
        self.manager = manager
        self.repository = repository
        self.cameras = cameras
    }

    // MARK: - Settings

    func camera(_ id: UUID) async throws -> Camera {
        guard let camera = try await call({ try await cameras.camera(id: id) }) else {
            throw APIError.notFound("there is no camera with id \(id.uuidString)")
        }
        return camera
    }

    func config(_ cameraID: UUID) async throws -> RecordingConfigResponse {
        _ = try await camera(cameraID)
        let settings = try await call { try await manager.settings(cameraID: cameraID) }
        return RecordingConfigResponse(mode: settings.mode.rawValue, schedule: settings.schedule,
                                       retentionDays: settings.retentionDays,
                                       state: RecordingStateResponse(manager.recordingState(cameraID: cameraID)))
    }

    func update(_ cameraID: UUID, _ input: RecordingConfigInput) async throws -> RecordingConfigResponse {
        _ = try await camera(cameraID)
        var settings = try await call { try await manager.settings(cameraID: cameraID) }
        if let text = input.mode {
            guard let mode = RecordingMode(rawValue: text) else {
                throw APIError.badRequest("mode must be one of off, continuous, scheduled, manual", field: "mode")
            }
            settings.mode = mode
        }
        if let schedule = input.schedule {
            for (number, window) in schedule.enumerated() {
                if window.days.isEmpty || window.days.contains(where: { !(0...6).contains($0) }) {
                    throw APIError.badRequest("schedule window \(number + 1): days are 0 (Sunday) to 6 (Saturday), at least one",
                                              field: "schedule")
                }
                guard ScheduleWindow.minutes(window.start) != nil else {
                    throw APIError.badRequest("schedule window \(number + 1): start must be \"HH:MM\" (00:00 to 24:00)", field: "schedule")
                }
                guard ScheduleWindow.minutes(window.end) != nil else {
                    throw APIError.badRequest("schedule window \(number + 1): end must be \"HH:MM\" (00:00 to 24:00)", field: "schedule")
                }
            }
            settings.schedule = schedule
        }
        if let retention = input.retentionDays {
            if let days = retention, days < 1 || days > 36_500 {
                throw APIError.badRequest("retentionDays must be between 1 and 36500, or null to keep footage until space is needed",
                                          field: "retentionDays")
            }
            settings.retentionDays = retention
        }
        if settings.mode == .scheduled, settings.schedule.isEmpty {
            throw APIError.badRequest("a scheduled recording needs at least one window in schedule", field: "schedule")
        }
        let stored = settings
        try await call { try await manager.update(stored) }
        return try await config(cameraID)
    }

    func startManual(_ cameraID: UUID, _ input: ManualStartInput) async throws -> RecordingConfigResponse {
        _ = try await camera(cameraID)
        if let duration = input.durationSeconds, !(duration > 0 && duration <= 7 * 86_400) {
            throw APIError.badRequest("durationSeconds must be between 1 and 604800 (a week), or left out to record until stopped",
                                      field: "durationSeconds")
        }
        try await call { try await manager.startManual(cameraID: cameraID, durationSeconds: input.durationSeconds) }
        return try await config(cameraID)
    }

    func stopManual(_ cameraID: UUID) async throws -> RecordingConfigResponse {
        _ = try await camera(cameraID)
        await manager.stopManual(cameraID: cameraID)
        return try await config(cameraID)
    }

    // MARK: - Index

    static func time(_ text: String?, field: String, required: Bool = true) throws -> Date? {
        guard let text, !text.isEmpty else {
            if required { throw APIError.badRequest("give \(field) as an ISO 8601 time, like 2026-11-23T03:12:00.000Z", field: field) }
            return nil
        }
        guard let date = ISOTime.parse(text) else {
            throw APIError.badRequest("\(field) is not an ISO 8601 time: write it like 2026-11-23T03:12:00.000Z", field: field)
        }
        return date
    }

    func segments(_ cameraID: UUID, from: String?, to: String?) async throws -> SegmentsResponse {
        _ = try await camera(cameraID)
        let start = try Self.time(from, field: "from")!
        let end = try Self.time(to, field: "to")!
        guard end > start else { throw APIError.badRequest("to must be later than from", field: "to") }
        let listings = try await call { try await repository.segments(cameraID: cameraID, from: start, to: end) }
        var segments = listings.map(SegmentResponse.init)
        let indexed = Set(listings.map(\.segment.path))
        let open = manager.openSegments(cameraID: cameraID).filter { $0.start < end && $0.end > start && !indexed.contains($0.relativePath) }
        if !open.isEmpty {
            let protections = try await call { try await repository.protections(cameraID: cameraID) }
            for segment in open {
                let isProtected = protections.contains { $0.from < segment.end && $0.to > segment.start }
                segments.append(SegmentResponse(segment, isProtected: isProtected))
            }
        }
        return SegmentsResponse(segments: segments)
    }

    func days(_ cameraID: UUID, offset: String?, from: String?, to: String?) async throws -> DaysResponse {
        _ = try await camera(cameraID)
        var minutes = 0
        if let offset {
            guard let value = Int(offset), abs(value) <= 18 * 60 else {
                throw APIError.badRequest("utcOffsetMinutes must be a whole number of minutes between -1080 and 1080", field: "utcOffsetMinutes")
            }
            minutes = value
        }
        func day(_ text: String?, _ field: String, _ fallback: String) throws -> String {
            guard let text else { return fallback }
            let parts = text.split(separator: "-")
            guard text.count == 10, parts.count == 3, parts.allSatisfy({ Int($0) != nil }) else {
                throw APIError.badRequest("\(field) must be a day written YYYY-MM-DD", field: field)
            }
            return text
        }
        let first = try day(from, "from", "0000-01-01")
        let last = try day(to, "to", "9999-12-31")
        guard first <= last else { throw APIError.badRequest("to must not be before from", field: "to") }
        let days = try await call {
            try await repository.footageDays(cameraID: cameraID, utcOffsetMinutes: minutes, fromDay: first, toDay: last)
        }
        return DaysResponse(days: days)
    }

    func deleteSegment(_ id: Int64, force: Bool) async throws {
        try await call { try await manager.deleteSegment(id: id, force: force) }
    }

    // MARK: - Protections

    func protect(_ cameraID: UUID, _ input: ProtectionInput) async throws -> ProtectionResponse {
        _ = try await camera(cameraID)
        let from = try Self.time(input.from, field: "from")!
        let to = try Self.time(input.to, field: "to")!
        guard to > from else { throw APIError.badRequest("to must be later than from", field: "to") }
        let note = input.note ?? ""
        guard note.count <= 500 else { throw APIError.badRequest("note is limited to 500 characters", field: "note") }
        let row = try await call { try await repository.insertProtection(Protection(cameraID: cameraID, from: from, to: to, note: note)) }
        return ProtectionResponse(row)
    }

    func protections(_ cameraID: UUID) async throws -> ProtectionsResponse {
        _ = try await camera(cameraID)
        return ProtectionsResponse(protections: try await call { try await repository.protections(cameraID: cameraID) }.map(ProtectionResponse.init))
    }

    func unprotect(_ id: Int64) async throws {
        guard try await call({ try await repository.deleteProtection(id: id) }) else {
            throw APIError.notFound("there is no protection with id \(id)")
        }
    }

    // MARK: - Storage

    func storage() async throws -> StorageResponse {
        let footage = try await call { try await repository.footage() }
        let settings = try await call { try await repository.storageSettings() }
        let all = try await call { try await repository.allRecordingSettings() }
        var retention: [UUID: Int] = [:]
        for entry in all { if let days = entry.retentionDays { retention[entry.cameraID] = days } }
        let byCamera = Dictionary(footage.map { ($0.cameraID, $0) }) { first, _ in first }
        var rows: [StorageCameraResponse] = []
        for camera in try await call({ try await cameras.cameras() }) {
            let used = byCamera[camera.id]
            rows.append(StorageCameraResponse(id: camera.id, name: camera.name, bytes: used?.bytes ?? 0, segments: used?.segments ?? 0,
                                              oldest: used?.oldest.map(ISOTime.string), newest: used?.newest.map(ISOTime.string),
                                              retentionDays: retention[camera.id]))
        }
        let space = FileSystem.space(manager.root)
        return StorageResponse(directory: manager.root, totalBytes: space?.total ?? 0, freeBytes: space?.free ?? 0,
                               recordingBytes: footage.reduce(0) { $0 + $1.bytes }, cameras: rows,
                               settings: StorageSettingsBody(maxBytes: settings.maxBytes, minFreeBytes: settings.minFreeBytes))
    }

    func saveStorage(_ input: StorageSettingsInput) async throws -> StorageSettingsBody {
        var settings = try await call { try await repository.storageSettings() }
        if let maxBytes = input.maxBytes {
            if let value = maxBytes, value < 1 << 20 {
                throw APIError.badRequest("maxBytes must be at least 1048576 (1 MiB), or null for no cap", field: "maxBytes")
            }
            settings.maxBytes = maxBytes
        }
        if let minFree = input.minFreeBytes {
            guard minFree >= 0 else { throw APIError.badRequest("minFreeBytes must be 0 or more", field: "minFreeBytes") }
            settings.minFreeBytes = minFree
        }
        let stored = settings
        try await call { try await repository.saveStorageSettings(stored) }
        await manager.runRetention()
        return StorageSettingsBody(maxBytes: stored.maxBytes, minFreeBytes: stored.minFreeBytes)
    }

    // MARK: - Errors

    /// Runs a store or manager call, turning its errors into `APIError`s.
    func call<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as RecordingError {
            switch error.kind {
            case .notFound: throw APIError.notFound(error.description)
            case .conflict: throw APIError(.conflict, error.description)
            case .invalidInput: throw APIError.badRequest(error.description, field: error.field)
            case .storage: throw APIError(.init(code: 507, reasonPhrase: "Insufficient Storage"), error.description)
            }
        } catch let error as StoreError {
            switch error.kind {
            case .notFound: throw APIError.notFound(error.description)
            case .invalidInput: throw APIError.badRequest(error.description)
            case .storage: throw APIError(.init(code: 507, reasonPhrase: "Insufficient Storage"), error.description)
            default: throw APIError(.internalServerError, error.description)
            }
        }
    }
}
