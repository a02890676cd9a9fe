import Foundation
import GRDB
import Testing
@testable import Store

/// Opening, migrating and the schema.
@Suite struct AppDatabaseTests {
    @Test func migratesAnEmptyDatabaseToTheV1Schema() async throws {
        let database = try AppDatabase.inMemory()
        let (applied, cameraColumns, profileColumns, foreignKeys, indexes, foreignKeysOn) = try await database.reader.read { db in
            (try AppDatabase.migrator.appliedMigrations(db),
             try db.columns(in: "camera").map(\.name),
             try db.columns(in: "streamProfile").map(\.name),
             try db.foreignKeys(on: "streamProfile"),
             try db.indexes(on: "streamProfile"),
             try Bool.fetchOne(db, sql: "PRAGMA foreign_keys"))
        }
        #expect(applied == ["v1", "v2-floor-plans", "v2-discovery-settings", "v3-recording"])
        #expect(cameraColumns == ["id", "name", "rtspURL", "username", "passwordSealed", "host", "port", "manufacturer",
                                  "model", "isActive", "gridPosition", "addedAt", "lastConnectedAt", "thumbnail",
                                  "thumbnailAt", "transport", "allowSelfSignedCertificate", "isDemo"])
        #expect(profileColumns == ["id", "cameraID", "name", "rtspURL", "width", "height", "fps", "isDefault", "role"])
        let foreignKey = try #require(foreignKeys.first)
        #expect(foreignKeys.count == 1)
        #expect(foreignKey.destinationTable == "camera")
        #expect(foreignKey.originColumns == ["cameraID"])
        #expect(foreignKey.destinationColumns == ["id"])
        #expect(indexes.contains { $0.columns == ["cameraID"] && !$0.isUnique })
        #expect(indexes.contains { $0.columns == ["cameraID"] && $0.isUnique })
        #expect(foreignKeysOn == true)
    }

    @Test func columnDefaultsFollowTheSchema() async throws {
        let database = try AppDatabase.inMemory()
        let id = UUID()
        let camera = try await database.writer.write { db in
            try db.execute(sql: """
                INSERT INTO camera (id, name, rtspURL, gridPosition, addedAt) VALUES (?, 'Raw', 'rtsp://192.0.2.1/', 0, ?)
                """, arguments: [id.uuidString, Date()])
            try db.execute(sql: "INSERT INTO streamProfile (id, cameraID, name, rtspURL) VALUES (?, ?, 'Main', 'rtsp://192.0.2.1/')",
                           arguments: [UUID().uuidString, id.uuidString])
            return try Camera.find(db, id: id)
        }
        #expect(camera.username == "")
        #expect(camera.port == 554)
        #expect(camera.isActive)
        #expect(camera.transport == "tcp")
        #expect(!camera.allowSelfSignedCertificate)
        #expect(!camera.isDemo)
        #expect(camera.passwordSealed == nil)
        let profile = try #require(try await database.profiles(cameraID: id).first)
        #expect(!profile.isDefault)
        #expect(profile.role == "main")
    }

    @Test func schemaRefusesWhatTheRecordsWouldNeverWrite() async throws {
        let database = try AppDatabase.inMemory()
        let camera = try await database.insert(sampleCamera("Gate"))
        let statements: [(String, StatementArguments)] = [
            ("UPDATE camera SET transport = 'http'", []),
            ("INSERT INTO streamProfile (id, cameraID, name, rtspURL, role) VALUES (?, ?, 'x', 'rtsp://h/', 'third')",
             [UUID().uuidString, camera.id.uuidString]),
            ("INSERT INTO streamProfile (id, cameraID, name, rtspURL) VALUES (?, ?, 'x', 'rtsp://h/')",
             [UUID().uuidString, UUID().uuidString]),
            ("INSERT INTO streamProfile (id, cameraID, name, rtspURL, isDefault) VALUES (?, ?, 'a', 'rtsp://h/', 1), (?, ?, 'b', 'rtsp://h/', 1)",
             [UUID().uuidString, camera.id.uuidString, UUID().uuidString, camera.id.uuidString]),
        ]
        for (sql, arguments) in statements {
            #expect(throws: DatabaseError.self, "\(sql)") {
                try database.writer.write { db in try db.execute(sql: sql, arguments: arguments) }
            }
        }
    }

    @Test func idsAreStoredAsText() async throws {
        let database = try AppDatabase.inMemory()
        let camera = try await database.insert(sampleCamera("Porch"))
        let profile = try await database.insertProfile(StreamProfile(cameraID: camera.id, rtspURL: "rtsp://192.0.2.10/main"))
        let (cameraID, profileCameraID) = try await database.reader.read { db in
            (try String.fetchOne(db, sql: "SELECT id FROM camera WHERE typeof(id) = 'text'"),
             try String.fetchOne(db, sql: "SELECT cameraID FROM streamProfile WHERE id = ?", arguments: [profile.id.uuidString]))
        }
        #expect(cameraID == camera.id.uuidString)
        #expect(profileCameraID == camera.id.uuidString)
    }

    @Test func opensOnDiskInWALModeAndReopensTheSameDirectory() async throws {
        try await withTemporaryDirectory { directory in
            let missing = directory.appendingPathComponent("nested/data", isDirectory: true)
            let id: UUID
            do {
                let database = try AppDatabase.open(dataDirectory: missing)
                let journalMode = try await database.reader.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
                #expect(journalMode == "wal")
                #expect(database.reader is DatabasePool)
                id = try await database.insert(sampleCamera("Garage")).id
            }
            let path = missing.appendingPathComponent(AppDatabase.fileName).path
            #expect(FileManager.default.fileExists(atPath: path))
            #expect(try permissions(missing.path) == 0o700)
            #expect(try permissions(path) & 0o077 == 0)

            // Open the same directory twice at once, then again after both are gone: the migration runs once.
            let first = try AppDatabase.open(dataDirectory: missing)
            let second = try AppDatabase.open(dataDirectory: missing)
            #expect(try await first.camera(id: id)?.name == "Garage")
            #expect(try await second.cameras().map(\.id) == [id])
            let applied = try await second.reader.read { db in try AppDatabase.migrator.appliedMigrations(db) }
            #expect(applied == ["v1", "v2-floor-plans", "v2-discovery-settings", "v3-recording"])
        }
    }

    @Test func refusesADataDirectoryThatIsAFile() async throws {
        try await withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let file = directory.appendingPathComponent("data")
            try Data("not a directory".utf8).write(to: file)
            let error = await storeError { _ = try AppDatabase.open(dataDirectory: file) }
            #expect(error?.kind == .storage)
            #expect(error?.description.contains("\(file.path) is a file, not a directory") == true)
            #expect(error?.description.contains("--data") == true)

            let below = await storeError { _ = try AppDatabase.open(dataDirectory: file.appendingPathComponent("sub")) }
            #expect(below?.description.contains("\(file.path) is a file") == true)
        }
    }

    @Test(.disabled(if: isRoot, "root writes to read-only directories: permissions do not bite"))
    func refusesAReadOnlyDataDirectory() async throws {
        try await withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            #expect(chmod(directory.path, 0o500) == 0)
            let error = await storeError { _ = try AppDatabase.open(dataDirectory: directory) }
            #expect(error?.kind == .storage)
            #expect(error?.description.contains("\(directory.path) is not writable") == true)
            #expect(error?.description.contains("Permission denied") == true)

            let inside = await storeError { _ = try AppDatabase.open(dataDirectory: directory.appendingPathComponent("sub")) }
            #expect(inside?.description.contains("cannot create the data directory") == true)
        }
    }

    @Test func refusesAFileThatIsNotADatabase() async throws {
        try await withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let path = directory.appendingPathComponent(AppDatabase.fileName)
            try Data(String(repeating: "these are not the pages of a SQLite database\n", count: 100).utf8).write(to: path)
            let error = await storeError { _ = try AppDatabase.open(dataDirectory: directory) }
            #expect(error?.kind == .storage)
            #expect(error?.description.contains("\(path.path) is not a SQLite database") == true)
            #expect(error?.description.contains("move it away") == true)
        }
    }

    @Test func refusesADatabaseFromANewerVersion() async throws {
        try await withTemporaryDirectory { directory in
            do {
                let database = try AppDatabase.open(dataDirectory: directory)
                try await database.writer.write { db in
                    try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99')")
                }
            }
            let error = await storeError { _ = try AppDatabase.open(dataDirectory: directory) }
            #expect(error?.kind == .storage)
            #expect(error?.description.contains("newer WatchBox") == true)
            #expect(error?.description.contains("v99") == true)
        }
    }

    @Test func checkpointEmptiesTheWriteAheadLog() async throws {
        try await withTemporaryDirectory { directory in
            let database = try AppDatabase.open(dataDirectory: directory)
            _ = try await database.insert(sampleCamera("Shed"))
            let wal = directory.appendingPathComponent(AppDatabase.fileName + "-wal").path
            let before = try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int
            #expect((before ?? 0) > 0)
            try await database.checkpoint()
            let after = try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int
            #expect(after == 0)
        }
    }
}
