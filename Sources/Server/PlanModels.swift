import Foundation
import Hummingbird
import Store

/// A site as the API shows it, with its plans (without positions: those load when a plan opens).
public struct SiteResponse: ResponseCodable, Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var address: String
    public var createdAt: Date
    public var plans: [PlanSummary]
}

/// A floor plan in a list: its picture's address and size, and which cameras are on it (for search).
public struct PlanSummary: ResponseCodable, Sendable, Equatable {
    public var id: UUID
    public var siteID: UUID
    public var name: String
    public var floorLevel: Int
    /// `/api/plans/{id}/image?v={version}`; nil until a picture is uploaded.
    public var imageURL: String?
    public var imageType: String?
    public var imageWidth: Double?
    public var imageHeight: Double?
    public var updatedAt: Date
    public var cameraIDs: [UUID]

    init(_ plan: FloorPlan, cameraIDs: [UUID]) {
        id = plan.id
        siteID = plan.siteID
        name = plan.name
        floorLevel = plan.floorLevel
        imageURL = plan.imageType == nil ? nil : "/api/plans/\(plan.id.uuidString)/image?v=\(plan.imageVersion)"
        imageType = plan.imageType
        imageWidth = plan.imageWidth
        imageHeight = plan.imageHeight
        updatedAt = plan.updatedAt
        self.cameraIDs = cameraIDs
    }
}

/// A floor plan opened: the summary with every placement.
public struct PlanResponse: ResponseCodable, Sendable, Equatable {
    public var plan: PlanSummary
    public var siteName: String
    public var placements: [PlacementResponse]
    /// After an SVG upload: what the sanitizer removed.
    public var removedFromImage: [String]?
}

public struct PlacementResponse: ResponseCodable, Sendable, Equatable {
    public var id: UUID
    public var planID: UUID
    public var cameraID: UUID
    public var x: Double
    public var y: Double
    public var direction: Double
    public var fieldOfView: Double
    public var range: Double
    public var updatedAt: Date

    init(_ placement: Placement) {
        id = placement.id
        planID = placement.planID
        cameraID = placement.cameraID
        x = placement.x
        y = placement.y
        direction = placement.direction
        fieldOfView = placement.fieldOfView
        range = placement.range
        updatedAt = placement.updatedAt
    }
}

/// `POST /api/sites`, and (every field optional) `PATCH /api/sites/{id}`.
public struct SiteInput: Decodable, Sendable {
    public var name: String?
    public var address: String?
}

/// `POST /api/sites/{id}/plans`, and (every field optional) `PATCH /api/plans/{id}`.
public struct PlanInput: Decodable, Sendable {
    public var name: String?
    public var floorLevel: Int?
}

/// `POST /api/plans/{id}/placements` (cameraID, x and y required), and `PATCH /api/placements/{id}`.
public struct PlacementInput: Decodable, Sendable {
    public var cameraID: String?
    public var x: Double?
    public var y: Double?
    public var direction: Double?
    public var fieldOfView: Double?
    public var range: Double?
}
