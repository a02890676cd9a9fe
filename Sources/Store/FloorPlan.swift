import Foundation
import GRDB

/// One floor plan of a site: a row of the `floorPlan` table (schema "v2-floor-plans").
///
/// The picture itself is in `floorPlanImage` (one row per plan), so that listing plans never reads it;
/// this row keeps its media type and intrinsic size, and a version that grows with every new picture
/// (it names the picture in URLs, so that browsers may cache each version for good).
public struct FloorPlan: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    public var id: UUID
    /// The site the plan belongs to (`site.id`).
    public var siteID: UUID
    /// The name shown to people ("Ground floor").
    public var name: String
    /// The storey: 0 the ground floor, -1 the first basement, 1 the first upper floor.
    public var floorLevel: Int
    /// "image/jpeg", "image/png" or "image/svg+xml"; nil until a picture is uploaded.
    public var imageType: String?
    /// The picture's intrinsic width (pixels, or SVG user units).
    public var imageWidth: Double?
    /// The picture's intrinsic height.
    public var imageHeight: Double?
    /// 0 without a picture; one more with every upload.
    public var imageVersion: Int
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: UUID = UUID(), siteID: UUID, name: String, floorLevel: Int = 0, createdAt: Date = Date()) {
        self.id = id
        self.siteID = siteID
        self.name = name
        self.floorLevel = floorLevel
        self.imageType = nil
        self.imageWidth = nil
        self.imageHeight = nil
        self.imageVersion = 0
        self.createdAt = createdAt
        self.updatedAt = createdAt
    }

    /// The media types a plan's picture may have.
    public static let imageTypes: Set<String> = ["image/jpeg", "image/png", "image/svg+xml"]
}

extension FloorPlan {
    public static let databaseTableName = "floorPlan"

    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        .uppercaseString
    }

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let siteID = Column(CodingKeys.siteID)
        public static let name = Column(CodingKeys.name)
        public static let floorLevel = Column(CodingKeys.floorLevel)
        public static let imageType = Column(CodingKeys.imageType)
        public static let imageWidth = Column(CodingKeys.imageWidth)
        public static let imageHeight = Column(CodingKeys.imageHeight)
        public static let imageVersion = Column(CodingKeys.imageVersion)
        public static let createdAt = Column(CodingKeys.createdAt)
        public static let updatedAt = Column(CodingKeys.updatedAt)
    }

    /// The plans of a site: by floor, then name (then id, so that the order is total).
    static func ofSite(_ siteID: UUID) -> QueryInterfaceRequest<FloorPlan> {
        FloorPlan.filter(Columns.siteID == siteID.uuidString).order(Columns.floorLevel, Columns.name, Columns.id)
    }

    func validate() throws {
        try RecordValidation.requireName(name, what: "floor plan")
    }
}
