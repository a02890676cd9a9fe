import Foundation
import GRDB

/// One recorded file of one camera: a row of `segment` (migration "v3-recording").
///
/// Times are wall-clock UTC (stored with millisecond precision). `path` is relative to the recordings root,
/// `keyframes` is a ``KeyframeIndex`` in its compact form: where each fragment that starts with a keyframe
/// begins, so playback can start anywhere without scanning the file.
public struct Segment: Codable, Sendable, Equatable, Identifiable, FetchableRecord, MutablePersistableRecord {
    public var id: Int64?
    public var cameraID: UUID
    public var start: Date
    public var end: Date
    /// Seconds of video in the file.
    public var duration: Double
    public var bytes: Int64
    public var path: String
    /// "h264" or "h265".
    public var codec: String
    /// The init segment's MIME type with RFC 6381 codecs (`video/mp4; codecs="avc1.64001f"`).
    public var mimeType: String
    public var width: Int
    public var height: Int
    public var keyframes: Data

    public init(id: Int64? = nil, cameraID: UUID, start: Date, end: Date, duration: Double, bytes: Int64, path: String,
                codec: String, mimeType: String, width: Int, height: Int, keyframes: Data) {
        self.id = id
        self.cameraID = cameraID
        self.start = start
        self.end = end
        self.duration = duration
        self.bytes = bytes
        self.path = path
        self.codec = codec
        self.mimeType = mimeType
        self.width = width
        self.height = height
        self.keyframes = keyframes
    }

    public static let databaseTableName = "segment"

    /// Camera ids are stored as upper-case text, as in `camera`.
    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        .uppercaseString
    }

    public enum Columns {
        public static let id = Column("id")
        public static let cameraID = Column("cameraID")
        public static let start = Column("start")
        public static let end = Column("end")
        public static let bytes = Column("bytes")
        public static let path = Column("path")
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    public var keyframeIndex: KeyframeIndex? { try? KeyframeIndex(encoded: keyframes) }
}

/// A segment with whether a protection covers it.
public struct SegmentListing: Sendable, Equatable {
    public var segment: Segment
    public var isProtected: Bool

    public init(segment: Segment, isProtected: Bool) {
        self.segment = segment
        self.isProtected = isProtected
    }
}

/// What retention needs of a segment.
public struct SegmentCandidate: Sendable, Equatable {
    public var id: Int64
    public var cameraID: UUID
    public var start: Date
    public var end: Date
    public var bytes: Int64
    public var path: String

    public init(id: Int64, cameraID: UUID, start: Date, end: Date, bytes: Int64, path: String) {
        self.id = id
        self.cameraID = cameraID
        self.start = start
        self.end = end
        self.bytes = bytes
        self.path = path
    }
}

/// Per camera footage totals, for the storage page.
public struct CameraFootage: Sendable, Equatable {
    public var cameraID: UUID
    public var bytes: Int64
    public var segments: Int
    public var oldest: Date?
    public var newest: Date?

    public init(cameraID: UUID, bytes: Int64, segments: Int, oldest: Date?, newest: Date?) {
        self.cameraID = cameraID
        self.bytes = bytes
        self.segments = segments
        self.oldest = oldest
        self.newest = newest
    }
}

/// A range of a camera's footage that retention never deletes: a row of `protection`.
public struct Protection: Codable, Sendable, Equatable, Identifiable, FetchableRecord, MutablePersistableRecord {
    public var id: Int64?
    public var cameraID: UUID
    public var from: Date
    public var to: Date
    public var note: String
    public var createdAt: Date

    public init(id: Int64? = nil, cameraID: UUID, from: Date, to: Date, note: String = "", createdAt: Date = Date()) {
        self.id = id
        self.cameraID = cameraID
        self.from = from
        self.to = to
        self.note = note
        self.createdAt = createdAt
    }

    public static let databaseTableName = "protection"

    /// Camera ids are stored as upper-case text, as in `camera`.
    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        .uppercaseString
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
