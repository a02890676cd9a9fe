import Foundation
import Testing
@testable import Store

/// A camera password must never reach the disk in clear, in the database file or in its write-ahead log.
@Suite struct SecretLeakTests {
    static let password = "hunter2-secret"

    /// The names of the files under `directory` whose bytes contain `needle`.
    static func files(in directory: URL, containing needle: String) throws -> [String] {
        let bytes = Data(needle.utf8)
        var found: [String] = []
        var scanned = 0
        let enumerator = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
        for case let url as URL in enumerator {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            scanned += 1
            if try Data(contentsOf: url).range(of: bytes) != nil { found.append(url.lastPathComponent) }
        }
        #expect(scanned >= 2, "expected the database and the key file in \(directory.path)")
        return found.sorted()
    }

    @Test func noClearPasswordInTheDataDirectory() async throws {
        try await withTemporaryDirectory { directory in
            let database = try AppDatabase.open(dataDirectory: directory)
            let box = try SecretBox.load(dataDirectory: directory, environment: [:])
            var camera = try await database.insert(Camera(
                name: "Leak probe camera", rtspURL: "rtsp://192.0.2.5/stream1", username: "admin",
                passwordSealed: try box.seal(Self.password), host: "192.0.2.5"))
            // A second write of a newly sealed password leaves older pages behind in the log and the file.
            camera.passwordSealed = try box.seal(Self.password)
            try await database.update(camera)
            _ = try await database.insertProfile(StreamProfile(cameraID: camera.id, rtspURL: "rtsp://192.0.2.5/stream2"))
            // A URL with the password in it is refused before it reaches SQLite.
            let refused = await storeError {
                _ = try await database.insert(Camera(name: "Careless", rtspURL: "rtsp://admin:\(Self.password)@192.0.2.6/"))
            }
            #expect(refused?.description.contains(Self.password) == false)

            // Before the checkpoint the rows are in the write-ahead log; after it, in the database file.
            #expect(try Self.files(in: directory, containing: Self.password).isEmpty)
            try await database.checkpoint()
            #expect(try Self.files(in: directory, containing: Self.password).isEmpty)

            // The scan does see what the database holds: the camera's name is in the database file.
            #expect(try Self.files(in: directory, containing: "Leak probe camera") == [AppDatabase.fileName])
            #expect(try box.open(try #require(try await database.camera(id: camera.id)?.passwordSealed)) == Self.password)
        }
    }
}
