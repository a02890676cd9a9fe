import Foundation
import GRDB

/// A place that holds floor plans ("Building B, 12 Harbour Road"): a row of the `site` table
/// (schema "v2-floor-plans", see `AppDatabase+Migrations.swift`). Deleting a site deletes its plans.
public struct Site: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    /// Primary key, stored as an upper-case UUID string.
    public var id: UUID
    /// The name shown to people.
    public var name: String
    /// A postal address or any note on where the site is; "" for none.
    public var address: String
    /// When the site was made (stored with millisecond precision).
    public var createdAt: Date

    public init(id: UUID = UUID(), name: String, address: String = "", createdAt: Date = Date()) {
        self.id = id
        self.name = name
        self.address = address
        self.createdAt = createdAt
    }

    /// At most this many floor plans per site (issue 8).
    public static let maxPlans = 10
}

extension Site {
    public static let databaseTableName = "site"

    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        .uppercaseString
    }

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let name = Column(CodingKeys.name)
        public static let address = Column(CodingKeys.address)
        public static let createdAt = Column(CodingKeys.createdAt)
    }

    func validate() throws {
        try RecordValidation.requireName(name, what: "site")
    }
}
