import Foundation
import Testing
@testable import Store

/// A fresh directory under the system's temporary directory, removed after `body`.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("watchbox-store-\(UUID().uuidString)", isDirectory: true)
    defer {
        // Restore write access first, in case a test made the directory read-only.
        chmod(url.path, 0o700)
        try? FileManager.default.removeItem(at: url)
    }
    return try await body(url)
}

/// The error `body` throws, which must be a `StoreError`.
func storeError(_ body: () async throws -> Void) async -> StoreError? {
    do {
        try await body()
        return nil
    } catch let error as StoreError {
        return error
    } catch {
        Issue.record("expected a StoreError, got \(type(of: error)): \(error)")
        return nil
    }
}

/// The POSIX mode bits of a file.
func permissions(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return try #require(attributes[.posixPermissions] as? Int)
}

let isRoot = geteuid() == 0

func sampleCamera(_ name: String, id: UUID = UUID(), addedAt: Date = Date()) -> Camera {
    Camera(id: id, name: name, rtspURL: "rtsp://192.0.2.10/\(name.lowercased())", host: "192.0.2.10", addedAt: addedAt)
}
