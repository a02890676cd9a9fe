import Foundation
import GRDB

/// A camera put on a floor plan: a row of the `placement` table (schema "v2-floor-plans").
///
/// Positions are normalized to the plan's picture, so that they hold at any resolution and zoom: `x` is a
/// fraction of its width and `y` of its height, from the top-left corner. `direction` is where the camera
/// looks, in degrees clockwise from the top of the picture ("north up"); `fieldOfView` the angle it sees;
/// `range` how far, as a fraction of the picture's longer side. A camera is on a plan at most once, and may
/// be on several plans. Deleting the camera or the plan deletes the placement.
public struct Placement: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    public var id: UUID
    public var planID: UUID
    public var cameraID: UUID
    /// 0...1 of the picture's width.
    public var x: Double
    /// 0...1 of the picture's height.
    public var y: Double
    /// 0..<360 degrees clockwise from up.
    public var direction: Double
    /// Greater than 0, at most 360 degrees.
    public var fieldOfView: Double
    /// Greater than 0, at most 1 (of the picture's longer side).
    public var range: Double
    public var updatedAt: Date

    public init(id: UUID = UUID(), planID: UUID, cameraID: UUID, x: Double, y: Double, direction: Double = 0,
                fieldOfView: Double = 90, range: Double = 0.15, updatedAt: Date = Date()) {
        self.id = id
        self.planID = planID
        self.cameraID = cameraID
        self.x = x
        self.y = y
        self.direction = direction
        self.fieldOfView = fieldOfView
        self.range = range
        self.updatedAt = updatedAt
    }

    /// What each field may hold; the API checks them first to name the field in its answer.
    public static let xRange = 0.0...1.0
    public static let yRange = 0.0...1.0
    public static let directionRange = 0.0..<360.0
    public static let fieldOfViewRange = 1.0...360.0
    public static let rangeRange = 0.01...1.0
}

extension Placement {
    public static let databaseTableName = "placement"

    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        .uppercaseString
    }

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let planID = Column(CodingKeys.planID)
        public static let cameraID = Column(CodingKeys.cameraID)
        public static let x = Column(CodingKeys.x)
        public static let y = Column(CodingKeys.y)
        public static let direction = Column(CodingKeys.direction)
        public static let fieldOfView = Column(CodingKeys.fieldOfView)
        public static let range = Column(CodingKeys.range)
        public static let updatedAt = Column(CodingKeys.updatedAt)
    }

    /// Throws a `StoreError` (`.invalidInput`) naming the first value out of its range.
    func validate() throws {
        func check(_ ok: Bool, _ name: String, _ value: Double, _ rule: String) throws {
            guard ok, value.isFinite else {
                throw StoreError(.invalidInput, "a placement's \(name) must be \(rule), not \(value)")
            }
        }
        try check(Self.xRange.contains(x), "x", x, "between 0 and 1 (a fraction of the picture's width)")
        try check(Self.yRange.contains(y), "y", y, "between 0 and 1 (a fraction of the picture's height)")
        try check(Self.directionRange.contains(direction), "direction", direction, "at least 0 and less than 360 degrees")
        try check(Self.fieldOfViewRange.contains(fieldOfView), "fieldOfView", fieldOfView, "between 1 and 360 degrees")
        try check(Self.rangeRange.contains(range), "range", range, "between 0.01 and 1 (a fraction of the picture's longer side)")
    }
}
