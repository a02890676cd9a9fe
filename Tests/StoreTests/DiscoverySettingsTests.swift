import Foundation
import Store
import Testing

@Suite("Discovery settings (migration v2-discovery-settings)")
struct DiscoverySettingsTests {
    @Test func defaultsThenSavedRowRoundTrips() async throws {
        let database = try AppDatabase.inMemory()
        #expect(try await database.discoverySettings() == DiscoverySettings())
        var settings = DiscoverySettings(subnets: ["192.168.1.0/24"], ports: [554, 8554], onvif: false, username: "admin",
                                         passwordSealed: Data([1, 2, 3]))
        try await database.saveDiscoverySettings(settings)
        #expect(try await database.discoverySettings() == settings)
        settings.subnets = []
        settings.passwordSealed = nil
        try await database.saveDiscoverySettings(settings)
        #expect(try await database.discoverySettings() == settings, "one row, replaced")
        let rows = try await database.reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM discoverySettings") }
        #expect(rows == 1)
    }
}
