import Foundation

/// Sites, their floor plans (with pictures) and the cameras placed on them. Every method is one transaction.
/// Errors are `StoreError`s: `.notFound` for an id that names nothing, `.invalidInput` for a broken rule
/// (an eleventh plan, a position outside the picture).
public protocol PlanRepository: Sendable {
    /// Every site, by name.
    func sites() async throws -> [Site]
    func site(id: UUID) async throws -> Site?
    func insertSite(_ site: Site) async throws -> Site
    /// Writes name and address.
    func updateSite(_ site: Site) async throws
    /// Deletes the site with its plans and their placements; false when there was none.
    func deleteSite(id: UUID) async throws -> Bool

    /// Every plan of every site (without pictures), by site, floor and name.
    func plans() async throws -> [FloorPlan]
    func plans(siteID: UUID) async throws -> [FloorPlan]
    func plan(id: UUID) async throws -> FloorPlan?
    /// Adds a plan; refuses an eleventh one in a site (`Site.maxPlans`).
    func insertPlan(_ plan: FloorPlan) async throws -> FloorPlan
    /// Writes name and floor level.
    func updatePlan(_ plan: FloorPlan) async throws
    func deletePlan(id: UUID) async throws -> Bool
    /// Replaces the plan's picture and its type and size; returns the plan with its new `imageVersion`.
    func setPlanImage(planID: UUID, bytes: Data, type: String, width: Double, height: Double) async throws -> FloorPlan
    /// The picture and its type, nil when the plan has none.
    func planImage(planID: UUID) async throws -> (bytes: Data, type: String)?

    /// (plan id, camera id) of every placement, for search without positions.
    func placedCameras() async throws -> [(planID: UUID, cameraID: UUID)]
    func placements(planID: UUID) async throws -> [Placement]
    func placement(id: UUID) async throws -> Placement?
    /// Adds a placement; refuses a camera already on the plan.
    func insertPlacement(_ placement: Placement) async throws -> Placement
    /// Writes the position, direction, field of view and range.
    func updatePlacement(_ placement: Placement) async throws -> Placement
    func deletePlacement(id: UUID) async throws -> Bool
}
