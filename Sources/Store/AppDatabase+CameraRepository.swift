import Foundation
import GRDB

/// `CameraRepository` on SQLite. Every method is one transaction, so that the grid positions and the
/// one-default-profile rule hold whatever runs concurrently.
extension AppDatabase {
    // MARK: - Cameras

    public func cameras() async throws -> [Camera] {
        try await read("listing the cameras") { db in
            try Camera.inGridOrder().fetchAll(db)
        }
    }

    public func camera(id: UUID) async throws -> Camera? {
        try await read("reading camera \(id.uuidString)") { db in
            try Camera.fetchOne(db, id: id)
        }
    }

    public func insert(_ camera: Camera) async throws -> Camera {
        try camera.validate()
        return try await write("adding camera \"\(camera.name)\"") { db in
            guard try !Camera.exists(db, id: camera.id) else {
                throw StoreError(.invalidInput, "a camera with id \(camera.id.uuidString) already exists: give the new camera another id")
            }
            var stored = camera
            let last = try Int.fetchOne(db, Camera.select(max(Camera.Columns.gridPosition)))
            stored.gridPosition = last.map { $0 + 1 } ?? 0
            try stored.insert(db)
            // Read back what SQLite holds (dates have millisecond precision there).
            return try Camera.find(db, id: stored.id)
        }
    }

    public func update(_ camera: Camera) async throws {
        try camera.validate()
        try await write("updating camera \(camera.id.uuidString)") { db in
            guard try Camera.exists(db, id: camera.id) else { throw StoreError.noCamera(camera.id) }
            try camera.update(db, columns: Camera.editableColumns)
        }
    }

    public func deleteCamera(id: UUID) async throws -> Bool {
        try await write("deleting camera \(id.uuidString)") { db in
            guard try Camera.deleteOne(db, id: id) else { return false }
            try Self.renumberGrid(db, order: try Self.gridOrder(db))
            return true
        }
    }

    public func reorder(_ ids: [UUID]) async throws {
        var seen = Set<UUID>()
        for id in ids where !seen.insert(id).inserted {
            throw StoreError(.invalidInput, "camera \(id.uuidString) is listed twice in the new order: list each camera once")
        }
        try await write("reordering the cameras") { db in
            let current = try Self.gridOrder(db)
            let known = Set(current)
            if let unknown = ids.first(where: { !known.contains($0) }) {
                throw StoreError(.notFound, """
                    no camera with id \(unknown.uuidString): the new order names a camera that does not exist; \
                    list the cameras again
                    """)
            }
            let listed = Set(ids)
            try Self.renumberGrid(db, order: ids + current.filter { !listed.contains($0) })
        }
    }

    public func setThumbnail(cameraID: UUID, jpeg: Data, at date: Date) async throws {
        try await write("storing the thumbnail of camera \(cameraID.uuidString)") { db in
            let changed = try Camera.filter(id: cameraID).updateAll(
                db, Camera.Columns.thumbnail.set(to: jpeg), Camera.Columns.thumbnailAt.set(to: date))
            guard changed > 0 else { throw StoreError.noCamera(cameraID) }
        }
    }

    public func markConnected(cameraID: UUID, at date: Date) async throws {
        try await write("recording the connection time of camera \(cameraID.uuidString)") { db in
            let changed = try Camera.filter(id: cameraID).updateAll(db, Camera.Columns.lastConnectedAt.set(to: date))
            guard changed > 0 else { throw StoreError.noCamera(cameraID) }
        }
    }

    /// The camera ids in grid order.
    private static func gridOrder(_ db: Database) throws -> [UUID] {
        try Camera.inGridOrder().select(Camera.Columns.id, as: UUID.self).fetchAll(db)
    }

    /// Gives the cameras the positions 0, 1, 2... in `order`, writing only the rows that change.
    private static func renumberGrid(_ db: Database, order: [UUID]) throws {
        var positions: [UUID: Int] = [:]
        for row in try Row.fetchAll(db, Camera.select(Camera.Columns.id, Camera.Columns.gridPosition)) {
            positions[row[Camera.Columns.id]] = row[Camera.Columns.gridPosition]
        }
        for (position, id) in order.enumerated() where positions[id] != position {
            try Camera.filter(id: id).updateAll(db, Camera.Columns.gridPosition.set(to: position))
        }
    }

    // MARK: - Stream profiles

    public func profiles(cameraID: UUID) async throws -> [StreamProfile] {
        try await read("listing the stream profiles of camera \(cameraID.uuidString)") { db in
            try StreamProfile.forCamera(cameraID).fetchAll(db)
        }
    }

    public func insertProfile(_ profile: StreamProfile) async throws -> StreamProfile {
        try profile.validate()
        return try await write("adding stream profile \"\(profile.name)\"") { db in
            guard try Camera.exists(db, id: profile.cameraID) else { throw StoreError.noCamera(profile.cameraID) }
            guard try !StreamProfile.exists(db, id: profile.id) else {
                throw StoreError(.invalidInput, "a stream profile with id \(profile.id.uuidString) already exists: give the new profile another id")
            }
            if profile.isDefault { try Self.clearDefault(db, cameraID: profile.cameraID, except: profile.id) }
            try profile.insert(db)
            return try StreamProfile.find(db, id: profile.id)
        }
    }

    public func updateProfile(_ profile: StreamProfile) async throws {
        try profile.validate()
        try await write("updating stream profile \(profile.id.uuidString)") { db in
            guard try StreamProfile.exists(db, id: profile.id) else { throw StoreError.noProfile(profile.id) }
            guard try Camera.exists(db, id: profile.cameraID) else { throw StoreError.noCamera(profile.cameraID) }
            if profile.isDefault { try Self.clearDefault(db, cameraID: profile.cameraID, except: profile.id) }
            try profile.update(db)
        }
    }

    public func deleteProfile(id: UUID) async throws -> Bool {
        try await write("deleting stream profile \(id.uuidString)") { db in
            try StreamProfile.deleteOne(db, id: id)
        }
    }

    /// The camera's profiles other than `id` stop being the default.
    private static func clearDefault(_ db: Database, cameraID: UUID, except id: UUID) throws {
        try StreamProfile
            .filter(StreamProfile.Columns.cameraID == cameraID.uuidString)
            .filter(StreamProfile.Columns.id != id.uuidString)
            .filter(StreamProfile.Columns.isDefault == true)
            .updateAll(db, StreamProfile.Columns.isDefault.set(to: false))
    }
}
