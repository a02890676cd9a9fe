import Crypto
import Foundation
import Testing
@testable import Store

@Suite struct SecretBoxTests {
    static let noEnvironment: [String: String] = [:]

    @Test(arguments: ["hunter2", "", "pässwörd 🔐 with spaces", String(repeating: "x", count: 4096)])
    func sealsAndOpens(password: String) throws {
        let box = SecretBox(key: SymmetricKey(size: .bits256))
        let sealed = try box.seal(password)
        #expect(sealed.count == 12 + password.utf8.count + 16)
        #expect(try box.open(sealed) == password)
        // A fresh nonce each time: the same password never seals to the same bytes.
        #expect(try box.seal(password) != sealed)
    }

    @Test func createsTheKeyFileWithMode0600AndReusesIt() async throws {
        try await withTemporaryDirectory { directory in
            let first = try SecretBox.load(dataDirectory: directory, environment: Self.noEnvironment)
            let path = directory.appendingPathComponent(SecretBox.keyFileName).path
            #expect(try permissions(path) == 0o600)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == 32)
            #expect(try permissions(directory.path) == 0o700)
            #expect(first.keyOrigin == "the key file \(path)")

            let sealed = try first.seal("hunter2")
            let second = try SecretBox.load(dataDirectory: directory, environment: Self.noEnvironment)
            #expect(try second.open(sealed) == "hunter2")
            #expect(try permissions(path) == 0o600)
        }
    }

    @Test(arguments: [0o644, 0o640, 0o604, 0o620, 0o660])
    func refusesAKeyFileOthersCanReach(mode: Int) async throws {
        try await withTemporaryDirectory { directory in
            _ = try SecretBox.load(dataDirectory: directory, environment: Self.noEnvironment)
            let path = directory.appendingPathComponent(SecretBox.keyFileName).path
            #expect(chmod(path, mode_t(mode)) == 0)
            let error = await storeError { _ = try SecretBox.load(dataDirectory: directory, environment: Self.noEnvironment) }
            #expect(error?.kind == .secret)
            #expect(error?.description.contains("has mode 0\(String(mode, radix: 8)),") == true)
            #expect(error?.description.contains("chmod 600 \(path)") == true)
        }
    }

    @Test(arguments: [0, 31, 33, 64])
    func refusesAKeyFileOfTheWrongSize(size: Int) async throws {
        try await withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let path = directory.appendingPathComponent(SecretBox.keyFileName).path
            #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: 7, count: size),
                                                   attributes: [.posixPermissions: 0o600]))
            let error = await storeError { _ = try SecretBox.load(dataDirectory: directory, environment: Self.noEnvironment) }
            #expect(error?.kind == .secret)
            #expect(error?.description.contains("\(path) holds \(size) bytes, not 32") == true)
        }
    }

    @Test func refusesAKeyPathThatIsADirectory() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent(SecretBox.keyFileName)
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let error = await storeError { _ = try SecretBox.load(dataDirectory: directory, environment: Self.noEnvironment) }
            #expect(error?.description.contains("is not a regular file") == true)
        }
    }

    @Test func takesTheKeyFromTheEnvironment() async throws {
        try await withTemporaryDirectory { directory in
            let bytes = Data((0..<32).map { UInt8($0 * 7 % 256) })
            let environment = [SecretBox.environmentVariable: bytes.base64EncodedString()]
            let box = try SecretBox.load(dataDirectory: directory, environment: environment)
            #expect(box.keyOrigin == "the WATCHBOX_SECRET_KEY environment variable")
            let sealed = try box.seal("hunter2")
            #expect(try SecretBox(key: SymmetricKey(data: bytes)).open(sealed) == "hunter2")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(SecretBox.keyFileName).path))

            // The environment wins over a key file, and an empty variable means "not set".
            let fileBox = try SecretBox.load(dataDirectory: directory, environment: [SecretBox.environmentVariable: ""])
            #expect(fileBox.keyOrigin.hasPrefix("the key file"))
            let again = try SecretBox.load(dataDirectory: directory, environment: environment)
            #expect(try again.open(sealed) == "hunter2")
        }
    }

    @Test(arguments: [("not base64 at all!", "is not valid base64"),
                      (Data(count: 16).base64EncodedString(), "decodes to 16 bytes, not 32")])
    func refusesABadEnvironmentKey(value: String, message: String) async throws {
        try await withTemporaryDirectory { directory in
            let error = await storeError {
                _ = try SecretBox.load(dataDirectory: directory, environment: [SecretBox.environmentVariable: value])
            }
            #expect(error?.kind == .secret)
            #expect(error?.description.contains(message) == true)
            #expect(error?.description.contains("openssl rand -base64 32") == true)
        }
    }

    @Test func aWrongKeySaysTheKeyChanged() async throws {
        try await withTemporaryDirectory { directory in
            let sealed = try SecretBox.load(dataDirectory: directory, environment: Self.noEnvironment).seal("hunter2-secret")
            try FileManager.default.removeItem(at: directory.appendingPathComponent(SecretBox.keyFileName))
            let newBox = try SecretBox.load(dataDirectory: directory, environment: Self.noEnvironment)
            let error = await storeError { _ = try newBox.open(sealed) }
            #expect(error?.kind == .secret)
            #expect(error?.description.contains("cannot decrypt") == true)
            #expect(error?.description.contains("the secret key changed") == true)
            #expect(error?.description.contains("hunter2") == false)
        }
    }

    @Test func damagedSealedValuesAreRefused() throws {
        let box = SecretBox(key: SymmetricKey(size: .bits256))
        let sealed = try box.seal("hunter2")
        for index in [0, 11, 12, sealed.count - 1] {
            var tampered = sealed
            tampered[tampered.startIndex + index] ^= 0x01
            #expect(throws: StoreError.self, "byte \(index)") { try box.open(tampered) }
        }
        let short = #expect(throws: StoreError.self) { try box.open(sealed.prefix(27)) }
        #expect(short?.description.contains("fewer than the 28 bytes") == true)
    }
}
