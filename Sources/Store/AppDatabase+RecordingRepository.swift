import Foundation
import GRDB

/// `RecordingRepository` on SQLite (tables of migration "v3-recording").
extension AppDatabase: RecordingRepository {
    /// SQL: a protection of the same camera overlaps the segment aliased `s`.
    static let protectedSQL = """
        EXISTS (SELECT 1 FROM protection p WHERE p.cameraID = s.cameraID AND p."from" < s."end" AND p."to" > s.start)
        """

    public func recordingSettings(cameraID: UUID) async throws -> RecordingSettings {
        try await read("reading the recording settings of camera \(cameraID.uuidString)") { db in
            try RecordingSettings.fetchOne(db, key: cameraID.uuidString) ?? RecordingSettings(cameraID: cameraID)
        }
    }

    public func allRecordingSettings() async throws -> [RecordingSettings] {
        try await read("reading the recording settings") { db in try RecordingSettings.fetchAll(db) }
    }

    public func saveRecordingSettings(_ settings: RecordingSettings) async throws {
        try settings.validate()
        try await write("saving the recording settings of camera \(settings.cameraID.uuidString)") { db in
            guard try Camera.exists(db, id: settings.cameraID) else { throw StoreError.noCamera(settings.cameraID) }
            try settings.save(db)
        }
    }

    public func insertSegment(_ segment: Segment) async throws -> Segment {
        try await write("indexing the segment \(segment.path)") { db in
            var row = segment
            try row.insert(db)
            return row
        }
    }

    public func segment(id: Int64) async throws -> Segment? {
        try await read("reading segment \(id)") { db in try Segment.fetchOne(db, key: id) }
    }

    public func segments(cameraID: UUID, from: Date, to: Date) async throws -> [SegmentListing] {
        try await read("listing the segments of camera \(cameraID.uuidString)") { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT s.*, \(Self.protectedSQL) AS isProtected FROM segment s
                WHERE s.cameraID = ? AND s.start < ? AND s."end" > ? ORDER BY s.start
                """, arguments: [cameraID.uuidString, to, from])
            return try rows.map { row in
                SegmentListing(segment: try Segment(row: row), isProtected: row["isProtected"])
            }
        }
    }

    public func deleteSegment(id: Int64) async throws -> Bool {
        try await write("deleting segment \(id)") { db in try Segment.deleteOne(db, key: id) }
    }

    public func segmentPaths() async throws -> [(id: Int64, path: String)] {
        try await read("listing the segment files") { db in
            try Row.fetchAll(db, sql: "SELECT id, path FROM segment").map { (id: $0["id"], path: $0["path"]) }
        }
    }

    public func footageDays(cameraID: UUID, utcOffsetMinutes: Int, fromDay: String, toDay: String) async throws -> [String] {
        let modifier = "\(utcOffsetMinutes >= 0 ? "+" : "")\(utcOffsetMinutes) minutes"
        return try await read("listing the days with footage") { db in
            // A segment crossing midnight counts for both days.
            try String.fetchAll(db, sql: """
                SELECT day FROM (
                    SELECT date(start, ?) AS day FROM segment WHERE cameraID = ?
                    UNION SELECT date("end", '-1 seconds', ?) AS day FROM segment WHERE cameraID = ?
                ) WHERE day BETWEEN ? AND ? ORDER BY day
                """, arguments: [modifier, cameraID.uuidString, modifier, cameraID.uuidString, fromDay, toDay])
        }
    }

    public func unprotectedSegments(cameraID: UUID?, endingBefore: Date?, limit: Int) async throws -> [SegmentCandidate] {
        try await read("choosing segments for retention") { db in
            var conditions = ["NOT \(Self.protectedSQL)"]
            var arguments: StatementArguments = []
            if let cameraID {
                conditions.append("s.cameraID = ?")
                arguments += [cameraID.uuidString]
            }
            if let endingBefore {
                conditions.append("s.\"end\" <= ?")
                arguments += [endingBefore]
            }
            arguments += [limit]
            let rows = try Row.fetchAll(db, sql: """
                SELECT s.id, s.cameraID, s.start, s."end", s.bytes, s.path FROM segment s
                WHERE \(conditions.joined(separator: " AND ")) ORDER BY s.start LIMIT ?
                """, arguments: arguments)
            return rows.map { row in
                SegmentCandidate(id: row["id"], cameraID: row["cameraID"], start: row["start"], end: row["end"],
                                 bytes: row["bytes"], path: row["path"])
            }
        }
    }

    public func footage() async throws -> [CameraFootage] {
        try await read("adding up the footage") { db in
            try Row.fetchAll(db, sql: """
                SELECT cameraID, SUM(bytes) AS bytes, COUNT(*) AS count, MIN(start) AS oldest, MAX("end") AS newest
                FROM segment GROUP BY cameraID
                """).map { row in
                CameraFootage(cameraID: row["cameraID"], bytes: row["bytes"], segments: row["count"],
                              oldest: row["oldest"], newest: row["newest"])
            }
        }
    }

    public func insertProtection(_ protection: Protection) async throws -> Protection {
        guard protection.to > protection.from else {
            throw StoreError(.invalidInput, "a protection ends after it starts: give \"to\" later than \"from\"")
        }
        return try await write("protecting footage of camera \(protection.cameraID.uuidString)") { db in
            var row = protection
            try row.insert(db)
            return row
        }
    }

    public func protections(cameraID: UUID) async throws -> [Protection] {
        try await read("listing the protections of camera \(cameraID.uuidString)") { db in
            try Protection.filter(Column("cameraID") == cameraID.uuidString).order(Column("from")).fetchAll(db)
        }
    }

    public func protection(id: Int64) async throws -> Protection? {
        try await read("reading protection \(id)") { db in try Protection.fetchOne(db, key: id) }
    }

    public func deleteProtection(id: Int64) async throws -> Bool {
        try await write("deleting protection \(id)") { db in try Protection.deleteOne(db, key: id) }
    }

    public func isProtected(segmentID: Int64) async throws -> Bool {
        try await read("checking whether segment \(segmentID) is protected") { db in
            try Bool.fetchOne(db, sql: "SELECT \(Self.protectedSQL) FROM segment s WHERE s.id = ?", arguments: [segmentID]) ?? false
        }
    }

    public func storageSettings() async throws -> StorageSettings {
        try await read("reading the storage settings") { db in try StorageSettings.fetchOne(db, key: 1) ?? StorageSettings() }
    }

    public func saveStorageSettings(_ settings: StorageSettings) async throws {
        if let maxBytes = settings.maxBytes, maxBytes <= 0 {
            throw StoreError(.invalidInput, "maxBytes must be a positive number of bytes, or null for no cap")
        }
        guard settings.minFreeBytes >= 0 else {
            throw StoreError(.invalidInput, "minFreeBytes must be 0 or more bytes")
        }
        var row = settings
        row.id = 1
        let stored = row
        try await write("saving the storage settings") { db in try stored.save(db) }
    }
}
