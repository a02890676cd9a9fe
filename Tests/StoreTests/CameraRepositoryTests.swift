import Foundation
import GRDB
import Testing
@testable import Store

/// `AppDatabase` as a `CameraRepository`: cameras, the grid, stream profiles.
@Suite struct CameraRepositoryTests {
    // MARK: - Cameras

    @Test func insertsReadsUpdatesAndDeletesACamera() async throws {
        let database = try AppDatabase.inMemory()
        var camera = Camera(name: "Front door", rtspURL: "rtsp://192.0.2.7:8554/Streaming/Channels/101", username: "admin",
                            passwordSealed: Data([1, 2, 3]), host: "192.0.2.7", port: 8554, manufacturer: "Hikvision",
                            model: "DS-2CD2032", isActive: false, transport: "udp", allowSelfSignedCertificate: true)
        let inserted = try await database.insert(camera)
        #expect(try await database.camera(id: camera.id) == inserted)
        #expect(try await database.cameras() == [inserted])
        // Stored with millisecond precision: the returned value is what a later read gives.
        #expect(abs(inserted.addedAt.timeIntervalSince(camera.addedAt)) < 0.001)
        camera.addedAt = inserted.addedAt
        #expect(inserted == camera)

        var changed = inserted
        changed.name = "Back door"
        changed.rtspURL = "rtsp://192.0.2.8/live"
        changed.username = "viewer"
        changed.passwordSealed = nil
        changed.host = "192.0.2.8"
        changed.port = 554
        changed.manufacturer = nil
        changed.model = nil
        changed.isActive = true
        changed.transport = "tcp"
        changed.allowSelfSignedCertificate = false
        changed.isDemo = true
        try await database.update(changed)
        #expect(try await database.camera(id: camera.id) == changed)

        #expect(try await database.deleteCamera(id: camera.id))
        #expect(try await database.camera(id: camera.id) == nil)
        #expect(try await database.cameras().isEmpty)
        #expect(try await !database.deleteCamera(id: camera.id))
    }

    @Test func updateOfAnAbsentCameraSaysSo() async throws {
        let database = try AppDatabase.inMemory()
        let camera = sampleCamera("Ghost")
        let error = await storeError { try await database.update(camera) }
        #expect(error?.kind == .notFound)
        #expect(error?.description.contains("no camera with id \(camera.id.uuidString)") == true)
        #expect(try await database.cameras().isEmpty)
    }

    @Test func updateKeepsWhatTheStoreManages() async throws {
        let database = try AppDatabase.inMemory()
        let first = try await database.insert(sampleCamera("One"))
        let stale = try await database.insert(sampleCamera("Two"))
        let shot = Date(timeIntervalSince1970: 1_800_000_000)
        try await database.setThumbnail(cameraID: stale.id, jpeg: Data([0xFF, 0xD8, 0xFF]), at: shot)
        try await database.markConnected(cameraID: stale.id, at: shot)
        try await database.reorder([stale.id, first.id])

        var edited = stale
        edited.name = "Two, renamed"
        edited.gridPosition = 9
        edited.addedAt = Date(timeIntervalSince1970: 0)
        try await database.update(edited)

        let stored = try #require(try await database.camera(id: stale.id))
        #expect(stored.name == "Two, renamed")
        #expect(stored.gridPosition == 0)
        #expect(stored.addedAt == stale.addedAt)
        #expect(stored.thumbnail == Data([0xFF, 0xD8, 0xFF]))
        #expect(stored.thumbnailAt == shot)
        #expect(stored.lastConnectedAt == shot)
    }

    @Test func insertRefusesATakenId() async throws {
        let database = try AppDatabase.inMemory()
        let camera = try await database.insert(sampleCamera("Once"))
        let error = await storeError { _ = try await database.insert(sampleCamera("Twice", id: camera.id)) }
        #expect(error?.kind == .invalidInput)
        #expect(error?.description.contains("already exists") == true)
        #expect(try await database.cameras().map(\.name) == ["Once"])
    }

    @Test(arguments: [
        (Camera(name: "x", rtspURL: "rtsp://192.0.2.1/", transport: "http"), "transport must be \"tcp\" or \"udp\""),
        (Camera(name: "x", rtspURL: "rtsp://192.0.2.1/", port: 70_000), "port 70000 is outside"),
        (Camera(name: " ", rtspURL: "rtsp://192.0.2.1/"), "needs a name"),
        (Camera(name: "x", rtspURL: ""), "needs a stream URL"),
        (Camera(name: "x", rtspURL: "rtsp://admin:hunter2@192.0.2.1:554/live?x=1"), "(rtsp://192.0.2.1:554/live?x=1) contains a user name or password"),
    ])
    func refusesAnInvalidCamera(camera: Camera, message: String) async throws {
        let database = try AppDatabase.inMemory()
        let inserting = await storeError { _ = try await database.insert(camera) }
        #expect(inserting?.kind == .invalidInput)
        #expect(inserting?.description.contains(message) == true, "\(String(describing: inserting))")
        #expect(inserting?.description.contains("hunter2") == false)

        var valid = try await database.insert(sampleCamera("Valid"))
        valid.name = camera.name
        valid.rtspURL = camera.rtspURL
        valid.transport = camera.transport
        valid.port = camera.port
        let updating = await storeError { try await database.update(valid) }
        #expect(updating?.kind == .invalidInput)
        #expect(try await database.camera(id: valid.id)?.name == "Valid")
    }

    @Test func thumbnailAndConnectionTime() async throws {
        let database = try AppDatabase.inMemory()
        let camera = try await database.insert(sampleCamera("Yard"))
        #expect(camera.thumbnail == nil && camera.thumbnailAt == nil && camera.lastConnectedAt == nil)
        let at = Date(timeIntervalSince1970: 1_700_000_000.25)
        try await database.setThumbnail(cameraID: camera.id, jpeg: Data([0xFF, 0xD8, 0xFF, 0xD9]), at: at)
        try await database.markConnected(cameraID: camera.id, at: at.addingTimeInterval(1))
        let stored = try #require(try await database.camera(id: camera.id))
        #expect(stored.thumbnail == Data([0xFF, 0xD8, 0xFF, 0xD9]))
        #expect(stored.thumbnailAt == at)
        #expect(stored.lastConnectedAt == at.addingTimeInterval(1))

        let missing = UUID()
        let thumbnail = await storeError { try await database.setThumbnail(cameraID: missing, jpeg: Data(), at: at) }
        #expect(thumbnail?.kind == .notFound)
        #expect(thumbnail?.description.contains(missing.uuidString) == true)
        let connected = await storeError { try await database.markConnected(cameraID: missing, at: at) }
        #expect(connected?.kind == .notFound)
    }

    // MARK: - The grid

    @Test func insertAppendsToTheGrid() async throws {
        let database = try AppDatabase.inMemory()
        var names: [String] = []
        for (index, name) in ["A", "B", "C"].enumerated() {
            var camera = sampleCamera(name)
            camera.gridPosition = 7 - index  // ignored: insert always appends
            let inserted = try await database.insert(camera)
            #expect(inserted.gridPosition == index)
            names.append(name)
        }
        let cameras = try await database.cameras()
        #expect(cameras.map(\.name) == names)
        #expect(cameras.map(\.gridPosition) == [0, 1, 2])
    }

    @Test func camerasAreOrderedByGridPositionThenAddedAt() async throws {
        let database = try AppDatabase.inMemory()
        let early = Date(timeIntervalSince1970: 1_000)
        let rows: [(String, Int, Date)] = [("late", 1, early.addingTimeInterval(10)), ("early", 1, early), ("first", 0, early.addingTimeInterval(99))]
        try await database.writer.write { db in
            for (name, position, added) in rows {
                var camera = sampleCamera(name, addedAt: added)
                camera.gridPosition = position
                try camera.insert(db)
            }
        }
        #expect(try await database.cameras().map(\.name) == ["first", "early", "late"])
    }

    @Test func deleteCompactsTheGrid() async throws {
        let database = try AppDatabase.inMemory()
        var ids: [UUID] = []
        for name in ["A", "B", "C", "D"] { ids.append(try await database.insert(sampleCamera(name)).id) }
        #expect(try await database.deleteCamera(id: ids[1]))
        var cameras = try await database.cameras()
        #expect(cameras.map(\.name) == ["A", "C", "D"])
        #expect(cameras.map(\.gridPosition) == [0, 1, 2])

        #expect(try await database.deleteCamera(id: ids[0]))
        let appended = try await database.insert(sampleCamera("E"))
        #expect(appended.gridPosition == 2)
        cameras = try await database.cameras()
        #expect(cameras.map(\.name) == ["C", "D", "E"])
        #expect(cameras.map(\.gridPosition) == [0, 1, 2])
    }

    @Test func reorderPutsTheListedCamerasFirst() async throws {
        let database = try AppDatabase.inMemory()
        var ids: [String: UUID] = [:]
        for name in ["A", "B", "C", "D", "E"] { ids[name] = try await database.insert(sampleCamera(name)).id }
        let id = { (name: String) in ids[name]! }

        try await database.reorder([id("D"), id("B")])
        var cameras = try await database.cameras()
        #expect(cameras.map(\.name) == ["D", "B", "A", "C", "E"])
        #expect(cameras.map(\.gridPosition) == [0, 1, 2, 3, 4])

        try await database.reorder(["E", "D", "C", "B", "A"].map(id))
        cameras = try await database.cameras()
        #expect(cameras.map(\.name) == ["E", "D", "C", "B", "A"])
        #expect(cameras.map(\.gridPosition) == [0, 1, 2, 3, 4])

        try await database.reorder([])
        #expect(try await database.cameras().map(\.name) == ["E", "D", "C", "B", "A"])
    }

    @Test func reorderWithAnUnknownOrRepeatedIdChangesNothing() async throws {
        let database = try AppDatabase.inMemory()
        var ids: [UUID] = []
        for name in ["A", "B", "C"] { ids.append(try await database.insert(sampleCamera(name)).id) }
        let unknown = UUID()

        let error = await storeError { try await database.reorder([ids[2], unknown, ids[0]]) }
        #expect(error?.kind == .notFound)
        #expect(error?.description.contains("no camera with id \(unknown.uuidString)") == true)
        #expect(try await database.cameras().map(\.name) == ["A", "B", "C"])

        let repeated = await storeError { try await database.reorder([ids[2], ids[1], ids[2]]) }
        #expect(repeated?.kind == .invalidInput)
        #expect(repeated?.description.contains("listed twice") == true)
        #expect(try await database.cameras().map(\.name) == ["A", "B", "C"])
    }

    // MARK: - Stream profiles

    @Test func profileCRUD() async throws {
        let database = try AppDatabase.inMemory()
        let camera = try await database.insert(sampleCamera("Drive"))
        let main = StreamProfile(cameraID: camera.id, name: "Main", rtspURL: "rtsp://192.0.2.10/main", width: 2560,
                                 height: 1440, fps: 12.5, isDefault: true)
        #expect(try await database.insertProfile(main) == main)
        var sub = try await database.insertProfile(StreamProfile(cameraID: camera.id, name: "Sub", rtspURL: "rtsp://192.0.2.10/sub", role: "sub"))
        #expect(try await database.profiles(cameraID: camera.id) == [main, sub])

        sub.width = 640
        sub.height = 360
        sub.fps = 15
        sub.name = "Small"
        try await database.updateProfile(sub)
        #expect(try await database.profiles(cameraID: camera.id) == [main, sub])

        #expect(try await database.deleteProfile(id: sub.id))
        #expect(try await !database.deleteProfile(id: sub.id))
        #expect(try await database.profiles(cameraID: camera.id) == [main])
        #expect(try await database.profiles(cameraID: UUID()).isEmpty)
    }

    @Test func profileErrors() async throws {
        let database = try AppDatabase.inMemory()
        let camera = try await database.insert(sampleCamera("Drive"))
        let missingCamera = UUID()
        let orphan = await storeError {
            _ = try await database.insertProfile(StreamProfile(cameraID: missingCamera, rtspURL: "rtsp://192.0.2.10/main"))
        }
        #expect(orphan?.kind == .notFound)
        #expect(orphan?.description.contains("no camera with id \(missingCamera.uuidString)") == true)

        let absent = StreamProfile(cameraID: camera.id, rtspURL: "rtsp://192.0.2.10/main")
        let update = await storeError { try await database.updateProfile(absent) }
        #expect(update?.kind == .notFound)
        #expect(update?.description.contains("no stream profile with id \(absent.id.uuidString)") == true)

        var profile = try await database.insertProfile(absent)
        let duplicate = await storeError { _ = try await database.insertProfile(profile) }
        #expect(duplicate?.kind == .invalidInput)
        profile.cameraID = missingCamera
        let moved = await storeError { try await database.updateProfile(profile) }
        #expect(moved?.kind == .notFound)

        for bad in [StreamProfile(cameraID: camera.id, rtspURL: "rtsp://192.0.2.10/x", role: "third"),
                    StreamProfile(cameraID: camera.id, rtspURL: "rtsp://user:hunter2@192.0.2.10/x"),
                    StreamProfile(cameraID: camera.id, rtspURL: "rtsp://192.0.2.10/x", width: 0),
                    StreamProfile(cameraID: camera.id, rtspURL: "rtsp://192.0.2.10/x", fps: .nan)] {
            let error = await storeError { _ = try await database.insertProfile(bad) }
            #expect(error?.kind == .invalidInput, "\(bad)")
            #expect(error?.description.contains("hunter2") == false)
        }
        #expect(try await database.profiles(cameraID: camera.id).count == 1)
    }

    @Test func oneDefaultProfilePerCamera() async throws {
        let database = try AppDatabase.inMemory()
        let camera = try await database.insert(sampleCamera("North"))
        let other = try await database.insert(sampleCamera("South"))
        let otherDefault = try await database.insertProfile(
            StreamProfile(cameraID: other.id, name: "Main", rtspURL: "rtsp://192.0.2.11/main", isDefault: true))

        let a = try await database.insertProfile(StreamProfile(cameraID: camera.id, name: "A", rtspURL: "rtsp://192.0.2.10/a", isDefault: true))
        let b = try await database.insertProfile(StreamProfile(cameraID: camera.id, name: "B", rtspURL: "rtsp://192.0.2.10/b", isDefault: true))
        var profiles = try await database.profiles(cameraID: camera.id)
        #expect(profiles.map(\.name) == ["B", "A"])
        #expect(profiles.map(\.isDefault) == [true, false])

        var again = a
        again.isDefault = true
        try await database.updateProfile(again)
        profiles = try await database.profiles(cameraID: camera.id)
        #expect(profiles.map(\.id) == [a.id, b.id])
        #expect(profiles.map(\.isDefault) == [true, false])

        // The other camera's default is untouched.
        #expect(try await database.profiles(cameraID: other.id) == [otherDefault])
    }

    @Test func profilesAreOrderedDefaultFirstThenByName() async throws {
        let database = try AppDatabase.inMemory()
        let camera = try await database.insert(sampleCamera("East"))
        for (name, isDefault) in [("Zeta", false), ("Mid", true), ("Alpha", false)] {
            _ = try await database.insertProfile(StreamProfile(cameraID: camera.id, name: name, rtspURL: "rtsp://192.0.2.10/\(name)",
                                                               isDefault: isDefault))
        }
        #expect(try await database.profiles(cameraID: camera.id).map(\.name) == ["Mid", "Alpha", "Zeta"])
    }

    @Test func deletingACameraDeletesItsProfiles() async throws {
        let database = try AppDatabase.inMemory()
        let doomed = try await database.insert(sampleCamera("Doomed"))
        let kept = try await database.insert(sampleCamera("Kept"))
        for camera in [doomed, kept] {
            _ = try await database.insertProfile(StreamProfile(cameraID: camera.id, name: "Main", rtspURL: "rtsp://192.0.2.10/m", isDefault: true))
            _ = try await database.insertProfile(StreamProfile(cameraID: camera.id, name: "Sub", rtspURL: "rtsp://192.0.2.10/s", role: "sub"))
        }
        #expect(try await database.deleteCamera(id: doomed.id))
        let orphans = try await database.reader.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM streamProfile WHERE cameraID = ?", arguments: [doomed.id.uuidString])
        }
        #expect(orphans == 0)
        #expect(try await database.profiles(cameraID: doomed.id).isEmpty)
        #expect(try await database.profiles(cameraID: kept.id).count == 2)
    }

    @Test func concurrentInsertsKeepTheGridDense() async throws {
        let database = try AppDatabase.inMemory()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask { _ = try await database.insert(sampleCamera("Camera \(index)")) }
            }
            try await group.waitForAll()
        }
        #expect(try await database.cameras().map(\.gridPosition) == Array(0..<20))
    }

    @Test func redactsUserinfoOnlyInTheAuthority() {
        #expect(RecordValidation.redactingUserinfo("rtsp://u:p@h:554/x?y") == "rtsp://h:554/x?y")
        #expect(RecordValidation.redactingUserinfo("rtsps://a@b@h/x") == "rtsps://h/x")
        #expect(RecordValidation.redactingUserinfo("rtsp://h/path@x") == nil)
        #expect(RecordValidation.redactingUserinfo("rtsp://h?q=a@b") == nil)
        #expect(RecordValidation.redactingUserinfo("demo://watchbox/clip") == nil)
    }
}
