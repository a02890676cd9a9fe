import Foundation

/// Storage behind the REST API; the Server's controllers are generic over this protocol, so that their tests
/// can run on `AppDatabase.inMemory()` or on a fake.
///
/// Every method throws `StoreError`: `.notFound` for an id that names nothing, `.invalidInput` for a value the
/// schema refuses, `.database` or `.storage` when SQLite or the disk fail.
public protocol CameraRepository: Sendable {
    /// Every camera in grid order: by `gridPosition`, then `addedAt`.
    func cameras() async throws -> [Camera]

    /// The camera with this id, or nil.
    func camera(id: UUID) async throws -> Camera?

    /// Stores a new camera at the end of the grid (its `gridPosition` becomes the largest one + 1, or 0 for the
    /// first camera, whatever the given value) and returns it as stored (dates rounded to the millisecond).
    /// Throws `.invalidInput` when the id is taken or a field breaks a rule.
    func insert(_ camera: Camera) async throws -> Camera

    /// Writes the fields a person edits (name, URL, credentials, host, port, manufacturer, model, isActive,
    /// transport, allowSelfSignedCertificate, isDemo). The store keeps `gridPosition`, `addedAt`,
    /// `lastConnectedAt` and the thumbnail itself: use `reorder(_:)`, `markConnected(cameraID:at:)` and
    /// `setThumbnail(cameraID:jpeg:at:)`. Throws `.notFound` ("no camera with id ...") when absent.
    func update(_ camera: Camera) async throws

    /// Deletes the camera and its stream profiles (cascade), then closes the gap in the grid.
    /// Returns false when there was no such camera.
    func deleteCamera(id: UUID) async throws -> Bool

    /// The full new order of camera ids: the listed cameras come first in that order, the others keep their
    /// relative order after them. An unknown or repeated id throws (`.notFound`, `.invalidInput`) and changes nothing.
    func reorder(_ ids: [UUID]) async throws

    /// The camera's stream profiles: the default first, then by name. Empty for an unknown camera.
    func profiles(cameraID: UUID) async throws -> [StreamProfile]

    /// Stores a new profile and returns it. When it is the default, the camera's other profiles stop being one.
    /// Throws `.notFound` when the camera does not exist.
    func insertProfile(_ profile: StreamProfile) async throws -> StreamProfile

    /// Writes every field of the profile. When it is the default, the camera's other profiles stop being one.
    /// Throws `.notFound` when the profile (or the camera it names) does not exist.
    func updateProfile(_ profile: StreamProfile) async throws

    /// Deletes the profile; returns false when there was no such profile.
    func deleteProfile(id: UUID) async throws -> Bool

    /// Stores the camera's latest snapshot (JPEG) and when it was taken. Throws `.notFound` when absent.
    func setThumbnail(cameraID: UUID, jpeg: Data, at: Date) async throws

    /// Records when a stream from the camera last started. Throws `.notFound` when absent.
    func markConnected(cameraID: UUID, at: Date) async throws
}
