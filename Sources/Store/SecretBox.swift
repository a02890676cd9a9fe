import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// AES-GCM (NIST SP 800-38D, through swift-crypto) sealing of camera passwords.
///
/// The key: the environment variable `WATCHBOX_SECRET_KEY` (base64 of 32 bytes) if set, else the file
/// `<dataDirectory>/secret.key` (32 random bytes, created on first use with mode 0600). A key file that group
/// or others may access, or that has the wrong size, is refused with a sentence saying what to do.
///
/// A sealed password is the "combined" form: 12-byte nonce, ciphertext, 16-byte tag. A fresh random nonce is
/// drawn for every seal, so sealing the same password twice gives different bytes.
public struct SecretBox: Sendable {
    /// The environment variable that, when set and not empty, holds the key (base64 of 32 bytes).
    public static let environmentVariable = "WATCHBOX_SECRET_KEY"
    /// The key file's name inside the data directory.
    public static let keyFileName = "secret.key"
    /// The key size in bytes (AES-256).
    public static let keyByteCount = 32

    private static let nonceByteCount = 12
    private static let tagByteCount = 16

    private let storage: KeyStorage
    private var key: SymmetricKey { storage.key }
    /// Where the key came from, for messages and logs ("the key file /var/lib/watchbox/secret.key"); never the key.
    public let keyOrigin: String

    public init(key: SymmetricKey) {
        self.init(key: key, origin: "the key given by the program")
    }

    private init(key: SymmetricKey, origin: String) {
        self.storage = KeyStorage(key)
        self.keyOrigin = origin
    }

    /// Loads the key from `WATCHBOX_SECRET_KEY`, else from `<dataDirectory>/secret.key`, creating that file
    /// (and the directory) on first use.
    public static func load(dataDirectory: URL,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SecretBox {
        if let text = environment[environmentVariable], !text.isEmpty {
            return try SecretBox(key: keyFromEnvironment(text), origin: "the \(environmentVariable) environment variable")
        }
        let path = dataDirectory.standardizedFileURL.appendingPathComponent(keyFileName).path
        let origin = "the key file \(path)"
        if let key = try readKeyFile(path) {
            return SecretBox(key: key, origin: origin)
        }
        try DataDirectory.prepare(dataDirectory)
        if let key = try createKeyFile(path) {
            return SecretBox(key: key, origin: origin)
        }
        // Another process created the file between our read and our create: use its key.
        guard let key = try readKeyFile(path) else {
            throw StoreError(.secret, "the secret key file \(path) vanished while it was being created: start again")
        }
        return SecretBox(key: key, origin: origin)
    }

    // MARK: - Sealing

    /// Encrypts and authenticates `plaintext` (UTF-8) with a fresh nonce; returns nonce + ciphertext + tag.
    public func seal(_ plaintext: String) throws -> Data {
        do {
            let box = try AES.GCM.seal(Data(plaintext.utf8), using: key)
            guard let combined = box.combined else {
                throw StoreError(.secret, "cannot seal a password: AES-GCM gave no combined form (unexpected nonce size)")
            }
            return combined
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.secret, "cannot seal a password with \(keyOrigin): \(error)")
        }
    }

    /// Checks and decrypts what `seal(_:)` returned. A different key, or altered bytes, throw a `StoreError`
    /// saying the secret key changed.
    public func open(_ sealed: Data) throws -> String {
        let minimum = Self.nonceByteCount + Self.tagByteCount
        guard sealed.count >= minimum else {
            throw StoreError(.secret, """
                cannot decrypt a camera password: the sealed value has \(sealed.count) bytes, fewer than the \
                \(minimum) bytes of nonce and tag, so it is damaged; enter the camera's password again
                """)
        }
        let plaintext: Data
        do {
            plaintext = try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key)
        } catch {
            throw StoreError(.secret, """
                cannot decrypt a camera password with \(keyOrigin): the secret key changed since the password was \
                saved (or the stored value is damaged); restore the old key (\(Self.environmentVariable) or \
                \(Self.keyFileName) in the data directory), or enter the camera's password again
                """)
        }
        guard let text = String(data: plaintext, encoding: .utf8) else {
            throw StoreError(.secret, "a decrypted camera password is not UTF-8 text: enter the camera's password again")
        }
        return text
    }

    // MARK: - Key sources

    private static func keyFromEnvironment(_ text: String) throws -> SymmetricKey {
        guard let bytes = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw StoreError(.secret, """
                \(environmentVariable) is not valid base64: set it to the base64 of \(keyByteCount) random bytes, \
                for example the output of `openssl rand -base64 \(keyByteCount)`
                """)
        }
        guard bytes.count == keyByteCount else {
            throw StoreError(.secret, """
                \(environmentVariable) decodes to \(bytes.count) bytes, not \(keyByteCount): set it to the base64 \
                of \(keyByteCount) random bytes, for example the output of `openssl rand -base64 \(keyByteCount)`
                """)
        }
        return SymmetricKey(data: bytes)
    }

    /// The key in the file, or nil when there is no file. Refuses a file that group or others may access.
    private static func readKeyFile(_ path: String) throws -> SymmetricKey? {
        let descriptor = DataDirectory.openFile(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let error = errno
            if error == ENOENT { return nil }
            throw StoreError(.secret, """
                cannot read the secret key file \(path) (\(DataDirectory.text(error))): give the user running \
                WatchBox (uid \(geteuid())) read access to it, or set \(environmentVariable)
                """)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw StoreError(.secret, "cannot inspect the secret key file \(path): \(DataDirectory.lastErrorText())")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw StoreError(.secret, "the secret key file \(path) is not a regular file: move it away (a new key is made on the next start) or restore the right file")
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw StoreError(.secret, """
                the secret key file \(path) has mode 0\(String(mode, radix: 8)), which lets other users read or \
                change it: run `chmod 600 \(path)` (the key decrypts the camera passwords)
                """)
        }
        var bytes = [UInt8](repeating: 0, count: keyByteCount + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw StoreError(.secret, "cannot read the secret key file \(path): \(DataDirectory.lastErrorText())")
            }
            if got == 0 { break }
            count += got
        }
        guard count == keyByteCount else {
            let size = info.st_size
            throw StoreError(.secret, """
                the secret key file \(path) holds \(size) bytes, not \(keyByteCount): it is damaged or not a \
                WatchBox key. Restore it from a backup, or move it away to make a new key (camera passwords \
                sealed with the old key must then be entered again)
                """)
        }
        defer { bytes.withUnsafeMutableBytes { buffer in _ = memset(buffer.baseAddress!, 0, buffer.count) } }
        return SymmetricKey(data: bytes[0..<keyByteCount])
    }

    /// Writes a new random key to `path` with mode 0600; nil when the file already exists.
    private static func createKeyFile(_ path: String) throws -> SymmetricKey? {
        let descriptor = DataDirectory.openFile(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let error = errno
            if error == EEXIST { return nil }
            throw StoreError(.secret, """
                cannot create the secret key file \(path) (\(DataDirectory.text(error))): give the user running \
                WatchBox write access to the data directory, or set \(environmentVariable)
                """)
        }
        let key = SymmetricKey(size: .bits256)
        let written: Bool = key.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let result = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if result < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += result
            }
            return fsync(descriptor) == 0
        }
        let writeError = errno
        close(descriptor)
        guard written else {
            unlink(path)
            throw StoreError(.secret, "cannot write the secret key file \(path): \(DataDirectory.text(writeError)); free some disk space or \(DataDirectory.advice)")
        }
        return key
    }
}

/// Holds the key for `SecretBox`. swift-crypto 3's `SymmetricKey` is not marked `Sendable`; it is an immutable
/// value over a zeroizing byte buffer that only `withUnsafeBytes` reads, so sharing one read-only instance
/// between tasks is safe. Keeping it here, rather than copying the bytes into a `Data`, keeps the key in memory
/// that is wiped when released.
private final class KeyStorage: @unchecked Sendable {
    let key: SymmetricKey

    init(_ key: SymmetricKey) {
        self.key = key
    }
}
