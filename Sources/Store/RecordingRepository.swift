import Foundation

/// Recording settings, the segment index, protections and storage settings (issue 7). Every method is one
/// transaction; errors are `StoreError`s.
public protocol RecordingRepository: Sendable {
    /// The camera's settings, or the defaults (off, no schedule, no max age) when none were saved.
    func recordingSettings(cameraID: UUID) async throws -> RecordingSettings
    func allRecordingSettings() async throws -> [RecordingSettings]
    func saveRecordingSettings(_ settings: RecordingSettings) async throws

    /// Adds a segment row (after its file is on stable storage) and returns it with its id.
    func insertSegment(_ segment: Segment) async throws -> Segment
    func segment(id: Int64) async throws -> Segment?
    /// The camera's segments overlapping [from, to), by start, each with whether a protection covers it.
    func segments(cameraID: UUID, from: Date, to: Date) async throws -> [SegmentListing]
    /// Deletes a row; false when there was none.
    func deleteSegment(id: Int64) async throws -> Bool
    /// Every segment's id and relative path (for reconciling the index with the files at start-up).
    func segmentPaths() async throws -> [(id: Int64, path: String)]
    /// Days (YYYY-MM-DD, in the given offset from UTC) with footage in [fromDay, toDay].
    func footageDays(cameraID: UUID, utcOffsetMinutes: Int, fromDay: String, toDay: String) async throws -> [String]
    /// Unprotected segments, oldest first: those of `cameraID` ending before `endingBefore` when given, else all.
    func unprotectedSegments(cameraID: UUID?, endingBefore: Date?, limit: Int) async throws -> [SegmentCandidate]
    /// Totals per camera.
    func footage() async throws -> [CameraFootage]

    func insertProtection(_ protection: Protection) async throws -> Protection
    func protections(cameraID: UUID) async throws -> [Protection]
    func protection(id: Int64) async throws -> Protection?
    func deleteProtection(id: Int64) async throws -> Bool
    /// Whether a protection covers any part of the segment.
    func isProtected(segmentID: Int64) async throws -> Bool

    func storageSettings() async throws -> StorageSettings
    func saveStorageSettings(_ settings: StorageSettings) async throws
}
