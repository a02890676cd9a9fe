import Foundation
import GRDB
import Testing
@testable import Store

/// `AppDatabase` as a `PlanRepository`: sites, floor plans with pictures, placements, the migration.
@Suite struct PlanRepositoryTests {
    @Test func sitesPlansAndPlacementsRoundTripAndCascade() async throws {
        let database = try AppDatabase.inMemory()
        let camera = try await database.insert(sampleCamera("Door"))
        let site = try await database.insertSite(Site(name: "Building B", address: "12 Harbour Road"))
        #expect(try await database.sites() == [site])

        let ground = try await database.insertPlan(FloorPlan(siteID: site.id, name: "Ground", floorLevel: 0))
        let upper = try await database.insertPlan(FloorPlan(siteID: site.id, name: "First", floorLevel: 1))
        #expect(try await database.plans(siteID: site.id).map(\.id) == [ground.id, upper.id])
        #expect(ground.imageType == nil && ground.imageVersion == 0)

        let png = Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3])
        let withImage = try await database.setPlanImage(planID: ground.id, bytes: png, type: "image/png", width: 800, height: 600)
        #expect(withImage.imageVersion == 1 && withImage.imageWidth == 800 && withImage.imageHeight == 600)
        let image = try #require(try await database.planImage(planID: ground.id))
        #expect(image.bytes == png && image.type == "image/png")
        #expect(try await database.planImage(planID: upper.id) == nil)

        let placed = try await database.insertPlacement(Placement(planID: ground.id, cameraID: camera.id, x: 0.25, y: 0.75,
                                                                   direction: 90, fieldOfView: 60, range: 0.2))
        // The same camera on a second plan is fine; twice on one plan is not.
        _ = try await database.insertPlacement(Placement(planID: upper.id, cameraID: camera.id, x: 0.5, y: 0.5))
        let twice = await storeError { _ = try await database.insertPlacement(Placement(planID: ground.id, cameraID: camera.id, x: 0.1, y: 0.1)) }
        #expect(twice?.kind == .invalidInput)
        #expect(try await database.placements(planID: ground.id).map(\.x) == [0.25])
        #expect(try await database.placedCameras().count == 2)

        var moved = placed
        moved.x = 1
        moved.direction = 359.5
        let updated = try await database.updatePlacement(moved)
        #expect(updated.x == 1 && updated.direction == 359.5)

        // Deleting the camera removes its placements; deleting the site removes plans and pictures.
        #expect(try await database.deleteCamera(id: camera.id))
        #expect(try await database.placedCameras().isEmpty)
        #expect(try await database.deleteSite(id: site.id))
        #expect(try await database.plans().isEmpty)
        let images = try await database.reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM floorPlanImage") }
        #expect(images == 0)
    }

    @Test func anEleventhPlanIsRefused() async throws {
        let database = try AppDatabase.inMemory()
        let site = try await database.insertSite(Site(name: "Campus"))
        for index in 1...Site.maxPlans {
            _ = try await database.insertPlan(FloorPlan(siteID: site.id, name: "Floor \(index)", floorLevel: index))
        }
        let error = await storeError { _ = try await database.insertPlan(FloorPlan(siteID: site.id, name: "One more")) }
        #expect(error?.kind == .invalidInput)
        #expect(error?.description.contains("10 floor plans") == true)
        // Another site still takes plans.
        let other = try await database.insertSite(Site(name: "Depot"))
        _ = try await database.insertPlan(FloorPlan(siteID: other.id, name: "Ground"))
    }

    @Test(arguments: [
        (1.01, 0.5, 0.0, 90.0, 0.1, "x"), (-0.01, 0.5, 0.0, 90.0, 0.1, "x"), (0.5, 2.0, 0.0, 90.0, 0.1, "y"),
        (0.5, 0.5, 360.0, 90.0, 0.1, "direction"), (0.5, 0.5, -1.0, 90.0, 0.1, "direction"),
        (0.5, 0.5, 0.0, 0.0, 0.1, "fieldOfView"), (0.5, 0.5, 0.0, 361.0, 0.1, "fieldOfView"),
        (0.5, 0.5, 0.0, 90.0, 0.0, "range"), (0.5, 0.5, 0.0, 90.0, 1.5, "range"), (Double.nan, 0.5, 0.0, 90.0, 0.1, "x"),
    ])
    func placementsOutOfRangeAreRefused(x: Double, y: Double, direction: Double, fov: Double, range: Double, field: String) async throws {
        let database = try AppDatabase.inMemory()
        let camera = try await database.insert(sampleCamera("Door"))
        let site = try await database.insertSite(Site(name: "S"))
        let plan = try await database.insertPlan(FloorPlan(siteID: site.id, name: "P"))
        let error = await storeError {
            _ = try await database.insertPlacement(Placement(planID: plan.id, cameraID: camera.id, x: x, y: y,
                                                             direction: direction, fieldOfView: fov, range: range))
        }
        #expect(error?.kind == .invalidInput)
        #expect(error?.description.contains("placement's \(field) ") == true, "\(String(describing: error))")
    }

    @Test func theSchemaItselfRefusesOutOfRangeRows() async throws {
        // The CHECK constraints hold even for a writer that skips the record's validation.
        let database = try AppDatabase.inMemory()
        let camera = try await database.insert(sampleCamera("Door"))
        let site = try await database.insertSite(Site(name: "S"))
        let plan = try await database.insertPlan(FloorPlan(siteID: site.id, name: "P"))
        #expect(throws: DatabaseError.self) {
            try database.writer.write { db in
                try db.execute(sql: """
                    INSERT INTO placement (id, planID, cameraID, x, y, direction, fieldOfView, range, updatedAt)
                    VALUES ('A', ?, ?, 1.5, 0.5, 0, 90, 0.1, '2026-01-01')
                    """, arguments: [plan.id.uuidString, camera.id.uuidString])
            }
        }
    }

    @Test func theMigrationKeepsExistingCameras() async throws {
        try await withTemporaryDirectory { directory in
            let first = try AppDatabase.open(dataDirectory: directory)
            let camera = try await first.insert(sampleCamera("Door"))
            let applied = try await first.reader.read { db in try AppDatabase.migrator.appliedIdentifiers(db) }
            #expect(applied.contains("v1") && applied.contains("v2-floor-plans"))
            let again = try AppDatabase.open(dataDirectory: directory)
            #expect(try await again.camera(id: camera.id)?.name == "Door")
        }
    }
}
