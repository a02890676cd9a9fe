import Foundation
import GRDB

/// `PlanRepository` on SQLite: sites, floor plans, their pictures and placements, each method one transaction,
/// so that the ten-plans rule holds whatever runs concurrently.
extension AppDatabase: PlanRepository {
    // MARK: - Sites

    public func sites() async throws -> [Site] {
        try await read("listing the sites") { db in
            try Site.order(Site.Columns.name.collating(.nocase), Site.Columns.id).fetchAll(db)
        }
    }

    public func site(id: UUID) async throws -> Site? {
        try await read("reading site \(id.uuidString)") { db in try Site.fetchOne(db, id: id) }
    }

    public func insertSite(_ site: Site) async throws -> Site {
        try site.validate()
        return try await write("adding site \"\(site.name)\"") { db in
            guard try !Site.exists(db, id: site.id) else {
                throw StoreError(.invalidInput, "a site with id \(site.id.uuidString) already exists: give the new site another id")
            }
            try site.insert(db)
            return try Site.find(db, id: site.id)
        }
    }

    public func updateSite(_ site: Site) async throws {
        try site.validate()
        try await write("updating site \(site.id.uuidString)") { db in
            guard try Site.exists(db, id: site.id) else { throw StoreError.noSite(site.id) }
            try site.update(db, columns: [Site.Columns.name, Site.Columns.address])
        }
    }

    public func deleteSite(id: UUID) async throws -> Bool {
        try await write("deleting site \(id.uuidString)") { db in try Site.deleteOne(db, id: id) }
    }

    // MARK: - Plans

    public func plans() async throws -> [FloorPlan] {
        try await read("listing the floor plans") { db in
            try FloorPlan.order(FloorPlan.Columns.siteID, FloorPlan.Columns.floorLevel, FloorPlan.Columns.name,
                                FloorPlan.Columns.id).fetchAll(db)
        }
    }

    public func plans(siteID: UUID) async throws -> [FloorPlan] {
        try await read("listing the floor plans of site \(siteID.uuidString)") { db in
            try FloorPlan.ofSite(siteID).fetchAll(db)
        }
    }

    public func plan(id: UUID) async throws -> FloorPlan? {
        try await read("reading floor plan \(id.uuidString)") { db in try FloorPlan.fetchOne(db, id: id) }
    }

    public func insertPlan(_ plan: FloorPlan) async throws -> FloorPlan {
        try plan.validate()
        return try await write("adding floor plan \"\(plan.name)\"") { db in
            guard let site = try Site.fetchOne(db, id: plan.siteID) else { throw StoreError.noSite(plan.siteID) }
            let count = try FloorPlan.filter(FloorPlan.Columns.siteID == plan.siteID.uuidString).fetchCount(db)
            guard count < Site.maxPlans else {
                throw StoreError(.invalidInput, """
                    site "\(site.name)" already has \(count) floor plans, the most a site can hold: \
                    delete one, or put this plan in another site
                    """)
            }
            guard try !FloorPlan.exists(db, id: plan.id) else {
                throw StoreError(.invalidInput, "a floor plan with id \(plan.id.uuidString) already exists: give the new plan another id")
            }
            try plan.insert(db)
            return try FloorPlan.find(db, id: plan.id)
        }
    }

    public func updatePlan(_ plan: FloorPlan) async throws {
        try plan.validate()
        try await write("updating floor plan \(plan.id.uuidString)") { db in
            guard try FloorPlan.exists(db, id: plan.id) else { throw StoreError.noPlan(plan.id) }
            try FloorPlan.filter(id: plan.id).updateAll(
                db, FloorPlan.Columns.name.set(to: plan.name), FloorPlan.Columns.floorLevel.set(to: plan.floorLevel),
                FloorPlan.Columns.updatedAt.set(to: Date()))
        }
    }

    public func deletePlan(id: UUID) async throws -> Bool {
        try await write("deleting floor plan \(id.uuidString)") { db in try FloorPlan.deleteOne(db, id: id) }
    }

    public func setPlanImage(planID: UUID, bytes: Data, type: String, width: Double, height: Double) async throws -> FloorPlan {
        guard FloorPlan.imageTypes.contains(type) else {
            throw StoreError(.invalidInput, "a floor plan's picture is JPEG, PNG or SVG, not \(type)")
        }
        guard width.isFinite, height.isFinite, width > 0, height > 0 else {
            throw StoreError(.invalidInput, "a floor plan's picture needs a positive size, not \(width)×\(height)")
        }
        return try await write("storing the picture of floor plan \(planID.uuidString)") { db in
            guard var plan = try FloorPlan.fetchOne(db, id: planID) else { throw StoreError.noPlan(planID) }
            try FloorPlanImage(planID: planID, bytes: bytes).save(db)
            plan.imageType = type
            plan.imageWidth = width
            plan.imageHeight = height
            plan.imageVersion += 1
            plan.updatedAt = Date()
            try plan.update(db)
            return try FloorPlan.find(db, id: planID)
        }
    }

    public func planImage(planID: UUID) async throws -> (bytes: Data, type: String)? {
        try await read("reading the picture of floor plan \(planID.uuidString)") { db in
            guard let plan = try FloorPlan.fetchOne(db, id: planID) else { throw StoreError.noPlan(planID) }
            guard let type = plan.imageType, let image = try FloorPlanImage.fetchOne(db, key: planID.uuidString) else { return nil }
            return (image.bytes, type)
        }
    }

    // MARK: - Placements

    public func placedCameras() async throws -> [(planID: UUID, cameraID: UUID)] {
        try await read("listing the placed cameras") { db in
            try Row.fetchAll(db, sql: "SELECT planID, cameraID FROM placement ORDER BY planID, cameraID").map { row in
                (planID: UUID(uuidString: row["planID"]) ?? UUID(), cameraID: UUID(uuidString: row["cameraID"]) ?? UUID())
            }
        }
    }

    public func placements(planID: UUID) async throws -> [Placement] {
        try await read("listing the placements of floor plan \(planID.uuidString)") { db in
            try Placement.filter(Placement.Columns.planID == planID.uuidString).order(Placement.Columns.id).fetchAll(db)
        }
    }

    public func placement(id: UUID) async throws -> Placement? {
        try await read("reading placement \(id.uuidString)") { db in try Placement.fetchOne(db, id: id) }
    }

    public func insertPlacement(_ placement: Placement) async throws -> Placement {
        try placement.validate()
        return try await write("placing camera \(placement.cameraID.uuidString)") { db in
            guard let plan = try FloorPlan.fetchOne(db, id: placement.planID) else { throw StoreError.noPlan(placement.planID) }
            guard try Camera.exists(db, id: placement.cameraID) else { throw StoreError.noCamera(placement.cameraID) }
            let onPlan = try Placement
                .filter(Placement.Columns.planID == placement.planID.uuidString)
                .filter(Placement.Columns.cameraID == placement.cameraID.uuidString)
                .fetchCount(db)
            guard onPlan == 0 else {
                throw StoreError(.invalidInput, """
                    camera \(placement.cameraID.uuidString) is already on floor plan "\(plan.name)": move it there \
                    instead of placing it twice
                    """)
            }
            try placement.insert(db)
            return try Placement.find(db, id: placement.id)
        }
    }

    public func updatePlacement(_ placement: Placement) async throws -> Placement {
        try placement.validate()
        return try await write("moving placement \(placement.id.uuidString)") { db in
            guard try Placement.exists(db, id: placement.id) else { throw StoreError.noPlacement(placement.id) }
            try Placement.filter(id: placement.id).updateAll(
                db, Placement.Columns.x.set(to: placement.x), Placement.Columns.y.set(to: placement.y),
                Placement.Columns.direction.set(to: placement.direction),
                Placement.Columns.fieldOfView.set(to: placement.fieldOfView),
                Placement.Columns.range.set(to: placement.range), Placement.Columns.updatedAt.set(to: Date()))
            return try Placement.find(db, id: placement.id)
        }
    }

    public func deletePlacement(id: UUID) async throws -> Bool {
        try await write("removing placement \(id.uuidString)") { db in try Placement.deleteOne(db, id: id) }
    }
}
