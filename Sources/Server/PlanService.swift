import Foundation
import Logging
import Store

/// Sites, floor plans and placements: what the floor-plan API does, without HTTP. Every change is announced
/// to the `plans` server-sent event. Errors are `APIError`s: 400 naming the field, 404 for an unknown id.
public final class PlanService: Sendable {
    let repository: any PlanRepository
    let cameras: any CameraRepository
    let changes = PlanChangeBroadcaster()
    private let logger: Logger

    public init(repository: any PlanRepository, cameras: any CameraRepository, logger: Logger = Logger(label: "watchbox.plans")) {
        self.repository = repository
        self.cameras = cameras
        self.logger = logger
    }

    public func shutdown() {
        changes.finish()
    }

    // MARK: - Sites

    public func sites() async throws -> [SiteResponse] {
        let plans = try await mapped { try await self.repository.plans() }
        let placed = try await mapped { try await self.repository.placedCameras() }
        var onPlan: [UUID: [UUID]] = [:]
        for entry in placed { onPlan[entry.planID, default: []].append(entry.cameraID) }
        let byPlanSite = Dictionary(grouping: plans, by: \.siteID)
        return try await mapped { try await self.repository.sites() }.map { site in
            SiteResponse(id: site.id, name: site.name, address: site.address, createdAt: site.createdAt,
                         plans: (byPlanSite[site.id] ?? []).sorted(by: Self.planOrder)
                            .map { PlanSummary($0, cameraIDs: onPlan[$0.id] ?? []) })
        }
    }

    public func site(_ id: UUID) async throws -> SiteResponse {
        let site = try await existingSite(id)
        let plans = try await mapped { try await self.repository.plans(siteID: id) }
        var summaries: [PlanSummary] = []
        for plan in plans {
            let ids = try await mapped { try await self.repository.placements(planID: plan.id) }.map(\.cameraID)
            summaries.append(PlanSummary(plan, cameraIDs: ids))
        }
        return SiteResponse(id: site.id, name: site.name, address: site.address, createdAt: site.createdAt, plans: summaries)
    }

    public func createSite(_ input: SiteInput) async throws -> SiteResponse {
        let name = try CameraService.validName(input.name, what: "site")
        let address = try Self.validAddress(input.address) ?? ""
        let site = try await mapped { try await self.repository.insertSite(Site(name: name, address: address)) }
        logger.info("site added", metadata: ["site": "\(site.id)"])
        changes.notify(PlanChange(kind: "site", siteID: site.id))
        return SiteResponse(id: site.id, name: site.name, address: site.address, createdAt: site.createdAt, plans: [])
    }

    public func updateSite(_ id: UUID, _ input: SiteInput) async throws -> SiteResponse {
        var site = try await existingSite(id)
        if let name = input.name { site.name = try CameraService.validName(name, what: "site") }
        if let address = try Self.validAddress(input.address) { site.address = address }
        let updated = site
        try await mapped { try await self.repository.updateSite(updated) }
        changes.notify(PlanChange(kind: "site", siteID: id))
        return try await self.site(id)
    }

    public func deleteSite(_ id: UUID) async throws {
        guard try await mapped({ try await self.repository.deleteSite(id: id) }) else { throw Self.noSite(id) }
        changes.notify(PlanChange(kind: "site", siteID: id))
    }

    // MARK: - Plans

    public func plan(_ id: UUID, removed: [String]? = nil) async throws -> PlanResponse {
        let plan = try await existingPlan(id)
        let site = try await existingSite(plan.siteID)
        let placements = try await mapped { try await self.repository.placements(planID: id) }
        return PlanResponse(plan: PlanSummary(plan, cameraIDs: placements.map(\.cameraID)), siteName: site.name,
                            placements: placements.map(PlacementResponse.init), removedFromImage: removed)
    }

    public func createPlan(siteID: UUID, _ input: PlanInput) async throws -> PlanResponse {
        let site = try await existingSite(siteID)
        let name = try CameraService.validName(input.name, what: "floor plan")
        let level = try Self.validFloor(input.floorLevel) ?? 0
        let count = try await mapped { try await self.repository.plans(siteID: siteID) }.count
        guard count < Site.maxPlans else { throw Self.tooManyPlans(site, count) }
        let plan: FloorPlan
        do {
            plan = try await repository.insertPlan(FloorPlan(siteID: siteID, name: name, floorLevel: level))
        } catch let error as StoreError where error.kind == .invalidInput {
            // Another request added the tenth plan meanwhile: the store's own check, in its transaction.
            throw APIError.badRequest(error.description, field: "siteID")
        } catch {
            throw Self.apiError(error)
        }
        logger.info("floor plan added", metadata: ["plan": "\(plan.id)", "site": "\(siteID)"])
        changes.notify(PlanChange(kind: "plan", siteID: siteID, planID: plan.id))
        return try await self.plan(plan.id)
    }

    public func updatePlan(_ id: UUID, _ input: PlanInput) async throws -> PlanResponse {
        var plan = try await existingPlan(id)
        if let name = input.name { plan.name = try CameraService.validName(name, what: "floor plan") }
        if let level = try Self.validFloor(input.floorLevel) { plan.floorLevel = level }
        let updated = plan
        try await mapped { try await self.repository.updatePlan(updated) }
        changes.notify(PlanChange(kind: "plan", siteID: plan.siteID, planID: id))
        return try await self.plan(id)
    }

    public func deletePlan(_ id: UUID) async throws {
        let plan = try await existingPlan(id)
        _ = try await mapped { try await self.repository.deletePlan(id: id) }
        changes.notify(PlanChange(kind: "plan", siteID: plan.siteID, planID: id))
    }

    /// Checks the picture (type from its bytes, size, SVG sanitized) and stores it.
    public func setImage(_ id: UUID, _ data: Data) async throws -> PlanResponse {
        _ = try await existingPlan(id)
        let image: PlanImage
        do {
            image = try PlanImage.inspect(data)
        } catch let error as PlanImageError {
            throw APIError.badRequest("image: \(error.description)", field: "image")
        }
        let plan = try await mapped {
            try await self.repository.setPlanImage(planID: id, bytes: image.bytes, type: image.type,
                                                   width: image.width, height: image.height)
        }
        logger.info("floor plan picture stored", metadata: [
            "plan": "\(id)", "type": "\(image.type)", "bytes": "\(image.bytes.count)",
            "size": "\(image.width)x\(image.height)", "removed": "\(image.removed)",
        ])
        changes.notify(PlanChange(kind: "image", siteID: plan.siteID, planID: id))
        return try await self.plan(id, removed: image.type == "image/svg+xml" ? image.removed : nil)
    }

    public func image(_ id: UUID) async throws -> (bytes: Data, type: String, version: Int, updatedAt: Date) {
        let plan = try await existingPlan(id)
        guard let image = try await mapped({ try await self.repository.planImage(planID: id) }) else {
            throw APIError.notFound("floor plan \"\(plan.name)\" has no picture yet: upload one (JPEG, PNG or SVG)")
        }
        return (image.bytes, image.type, plan.imageVersion, plan.updatedAt)
    }

    // MARK: - Placements

    public func createPlacement(planID: UUID, _ input: PlacementInput) async throws -> PlacementResponse {
        let plan = try await existingPlan(planID)
        guard let text = input.cameraID else {
            throw APIError.badRequest("cameraID is missing: say which camera to place", field: "cameraID")
        }
        guard let cameraID = UUID(uuidString: text) else {
            throw APIError.badRequest("cameraID \"\(text)\" is not a camera id (a UUID)", field: "cameraID")
        }
        guard try await mapped({ try await self.cameras.camera(id: cameraID) }) != nil else {
            throw APIError.badRequest("cameraID: there is no camera with id \(text); list the cameras again", field: "cameraID")
        }
        guard let x = input.x else { throw APIError.badRequest("x is missing: give the position across the picture, 0 to 1", field: "x") }
        guard let y = input.y else { throw APIError.badRequest("y is missing: give the position down the picture, 0 to 1", field: "y") }
        var placement = Placement(planID: planID, cameraID: cameraID, x: x, y: y)
        if let direction = input.direction { placement.direction = direction }
        if let fieldOfView = input.fieldOfView { placement.fieldOfView = fieldOfView }
        if let range = input.range { placement.range = range }
        try Self.validate(placement)
        let existing = try await mapped { try await self.repository.placements(planID: planID) }
        if existing.contains(where: { $0.cameraID == cameraID }) {
            throw APIError.badRequest("cameraID: this camera is already on \"\(plan.name)\"; move it instead of placing it again",
                                      field: "cameraID")
        }
        let stored = placement
        let inserted = try await mapped { try await self.repository.insertPlacement(stored) }
        changes.notify(PlanChange(kind: "placement", siteID: plan.siteID, planID: planID))
        return PlacementResponse(inserted)
    }

    public func updatePlacement(_ id: UUID, _ input: PlacementInput) async throws -> PlacementResponse {
        guard var placement = try await mapped({ try await self.repository.placement(id: id) }) else { throw Self.noPlacement(id) }
        if input.cameraID != nil {
            throw APIError.badRequest("cameraID cannot change: remove the placement and place the other camera", field: "cameraID")
        }
        if let x = input.x { placement.x = x }
        if let y = input.y { placement.y = y }
        if let direction = input.direction { placement.direction = direction }
        if let fieldOfView = input.fieldOfView { placement.fieldOfView = fieldOfView }
        if let range = input.range { placement.range = range }
        try Self.validate(placement)
        let stored = placement
        let updated = try await mapped { try await self.repository.updatePlacement(stored) }
        let plan = try await existingPlan(placement.planID)
        changes.notify(PlanChange(kind: "placement", siteID: plan.siteID, planID: plan.id))
        return PlacementResponse(updated)
    }

    public func deletePlacement(_ id: UUID) async throws {
        guard let placement = try await mapped({ try await self.repository.placement(id: id) }) else { throw Self.noPlacement(id) }
        _ = try await mapped { try await self.repository.deletePlacement(id: id) }
        let siteID = (try? await repository.plan(id: placement.planID))?.siteID
        changes.notify(PlanChange(kind: "placement", siteID: siteID, planID: placement.planID))
    }

    // MARK: - Validation

    /// 400 naming the first field out of range, with the range.
    static func validate(_ placement: Placement) throws {
        func check(_ ok: Bool, _ value: Double, _ field: String, _ rule: String) throws {
            guard ok, value.isFinite else {
                throw APIError.badRequest("\(field) must be \(rule), not \(value)", field: field)
            }
        }
        try check(Placement.xRange.contains(placement.x), placement.x, "x", "between 0 and 1 (a fraction of the plan's width)")
        try check(Placement.yRange.contains(placement.y), placement.y, "y", "between 0 and 1 (a fraction of the plan's height)")
        try check(Placement.directionRange.contains(placement.direction), placement.direction, "direction",
                  "at least 0 and less than 360 degrees (clockwise from the top of the plan)")
        try check(Placement.fieldOfViewRange.contains(placement.fieldOfView), placement.fieldOfView, "fieldOfView",
                  "between 1 and 360 degrees")
        try check(Placement.rangeRange.contains(placement.range), placement.range, "range",
                  "between 0.01 and 1 (a fraction of the plan's longer side)")
    }

    static func validAddress(_ address: String?) throws -> String? {
        guard let address else { return nil }
        let trimmed = address.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= 300 else { throw APIError.badRequest("address is at most 300 characters", field: "address") }
        return trimmed
    }

    static func validFloor(_ level: Int?) throws -> Int? {
        guard let level else { return nil }
        guard (-20...200).contains(level) else {
            throw APIError.badRequest("floorLevel must be between -20 and 200 (0 is the ground floor), not \(level)", field: "floorLevel")
        }
        return level
    }

    static func tooManyPlans(_ site: Site, _ count: Int) -> APIError {
        APIError.badRequest("""
            siteID: site "\(site.name)" already has \(count) floor plans, the most a site can hold (\(Site.maxPlans)): \
            delete one, or put this plan in another site
            """, field: "siteID")
    }

    private static func planOrder(_ a: FloorPlan, _ b: FloorPlan) -> Bool {
        (a.floorLevel, a.name, a.id.uuidString) < (b.floorLevel, b.name, b.id.uuidString)
    }

    // MARK: - Helpers

    private func existingSite(_ id: UUID) async throws -> Site {
        guard let site = try await mapped({ try await self.repository.site(id: id) }) else { throw Self.noSite(id) }
        return site
    }

    private func existingPlan(_ id: UUID) async throws -> FloorPlan {
        guard let plan = try await mapped({ try await self.repository.plan(id: id) }) else { throw Self.noPlan(id) }
        return plan
    }

    static func noSite(_ id: UUID) -> APIError { .notFound("there is no site with id \(id): it was deleted; list the sites again") }
    static func noPlan(_ id: UUID) -> APIError { .notFound("there is no floor plan with id \(id): it was deleted; list the sites again") }
    static func noPlacement(_ id: UUID) -> APIError { .notFound("there is no placement with id \(id): it was removed; open the plan again") }

    /// Runs a store call, turning its `StoreError` into the matching `APIError`.
    private func mapped<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw Self.apiError(error)
        }
    }

    static func apiError(_ error: any Error) -> any Error {
        guard let error = error as? StoreError else { return error }
        switch error.kind {
        case .notFound: return APIError.notFound(error.description)
        case .invalidInput: return APIError.badRequest(error.description)
        default: return APIError(.internalServerError, error.description)
        }
    }
}
