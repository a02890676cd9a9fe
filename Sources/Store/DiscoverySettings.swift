import Foundation
import GRDB

/// The defaults of the "Find cameras" form: a single row of the `discoverySettings` table (migration
/// "v2-discovery-settings"). The password is sealed by `SecretBox`, like a camera's.
public struct DiscoverySettings: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    /// Always 1: there is one row.
    public var id: Int = 1
    /// CIDR subnets, as the person wrote them ("192.168.1.0/24"); empty: the host's own /24.
    public var subnets: [String]
    public var ports: [Int]
    public var onvif: Bool
    /// "" for none.
    public var username: String
    public var passwordSealed: Data?

    public init(subnets: [String] = [], ports: [Int] = [554, 8554, 88, 7447, 5000], onvif: Bool = true,
                username: String = "", passwordSealed: Data? = nil) {
        self.subnets = subnets
        self.ports = ports
        self.onvif = onvif
        self.username = username
        self.passwordSealed = passwordSealed
    }

    public static let databaseTableName = "discoverySettings"

    // Arrays are stored as JSON text (GRDB's default for Codable columns that are not scalars).
    public static func databaseJSONEncoder(for column: String) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}

/// Where the discovery settings live; the Server's discovery controller is generic over it.
public protocol DiscoverySettingsRepository: Sendable {
    /// The stored settings, or the defaults when none were saved.
    func discoverySettings() async throws -> DiscoverySettings
    /// Replaces the settings.
    func saveDiscoverySettings(_ settings: DiscoverySettings) async throws
}

extension AppDatabase: DiscoverySettingsRepository {
    public func discoverySettings() async throws -> DiscoverySettings {
        try await read("reading the discovery settings") { db in
            try DiscoverySettings.fetchOne(db, key: 1) ?? DiscoverySettings()
        }
    }

    public func saveDiscoverySettings(_ settings: DiscoverySettings) async throws {
        var row = settings
        row.id = 1
        let stored = row
        try await write("saving the discovery settings") { db in
            try stored.save(db)
        }
    }
}
