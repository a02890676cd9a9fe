import Foundation
import GRDB

/// A floor plan's picture: a row of the `floorPlanImage` table (schema "v2-floor-plans"), apart from the plan
/// so that listing plans never reads it.
struct FloorPlanImage: Codable, Sendable, FetchableRecord, PersistableRecord {
    var planID: UUID
    var bytes: Data

    static let databaseTableName = "floorPlanImage"

    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        .uppercaseString
    }
}
