import Foundation
import GRDB

/// The camera registry: one SQLite database, reached through GRDB, following GRDB's `AppDatabase` pattern
/// (one struct owning the database writer, one migrator, records as `Codable` structs).
///
/// On disk it is a `DatabasePool` in WAL mode (readers never wait for the writer); in tests an in-memory
/// `DatabaseQueue`. Foreign keys are enforced. The `CameraRepository` methods live in
/// `AppDatabase+CameraRepository.swift`.
public struct AppDatabase: Sendable, CameraRepository {
    /// The database file's name inside the data directory.
    public static let fileName = "watchbox.sqlite"

    /// The one writer: every write goes through it, one at a time.
    let writer: any DatabaseWriter

    /// Read-only access, for queries the repository does not offer (and for tests).
    public var reader: any DatabaseReader { writer }

    /// Wraps a writer made with `makeConfiguration()` and migrates it to the latest schema.
    init(_ writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrate(writer)
    }

    /// The configuration of every connection: foreign keys on, a busy timeout for other processes (a `sqlite3`
    /// shell, a backup tool) holding a lock, statement arguments kept out of error messages and traces.
    static func makeConfiguration() -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.publicStatementArguments = false
        configuration.label = "WatchBox"
        return configuration
    }

    // MARK: - Opening

    /// Opens (creating the directory and the file `watchbox.sqlite` if needed) and migrates. Throws a
    /// `StoreError` that names the path and what to do when the directory cannot be created or written, or
    /// when the file is not a WatchBox database.
    public static func open(dataDirectory: URL) throws -> AppDatabase {
        let directory = try DataDirectory.prepare(dataDirectory)
        let path = (directory as NSString).appendingPathComponent(fileName)
        try DataDirectory.checkExistingFile(path, what: "the database file")
        try DataDirectory.createPrivateFile(path)
        do {
            let pool = try DatabasePool(path: path, configuration: makeConfiguration())
            return try AppDatabase(pool)
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw openingError(error, path: path)
        } catch {
            throw StoreError(.database, "cannot open the database \(path): \(error)")
        }
    }

    /// An empty database in memory, gone when the value is: for tests and previews.
    public static func inMemory() throws -> AppDatabase {
        do {
            return try AppDatabase(DatabaseQueue(configuration: makeConfiguration()))
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.database, "cannot create an in-memory database: \(error)")
        }
    }

    private static func migrate(_ writer: any DatabaseWriter) throws {
        let migrator = Self.migrator
        let superseded = try writer.read { db in try migrator.hasBeenSuperseded(db) }
        if superseded {
            let applied = try writer.read { db in try migrator.appliedIdentifiers(db) }
            let known = Set(migrator.migrations)
            let unknown = applied.filter { !known.contains($0) }.sorted()
            throw StoreError(.storage, """
                the database \(writer.path) was written by a newer WatchBox (schema \(unknown.joined(separator: ", ")) \
                is unknown to this one): run the newer WatchBox, or restore a backup made by this version
                """)
        }
        try migrator.migrate(writer)
    }

    private static func openingError(_ error: DatabaseError, path: String) -> StoreError {
        switch error.resultCode {
        case .SQLITE_NOTADB:
            return StoreError(.storage, """
                \(path) is not a SQLite database (SQLite: \(error.message ?? "file is not a database")): \
                move it away to start with an empty camera registry, or restore it from a backup
                """)
        case .SQLITE_CORRUPT:
            return StoreError(.storage, """
                the database \(path) is damaged (SQLite: \(error.message ?? "malformed")): restore it from a \
                backup, or move it away to start with an empty camera registry
                """)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH:
            return StoreError(.storage, """
                cannot open the database \(path) for writing (SQLite: \(error.message ?? "\(error.resultCode)")): \
                give the user running WatchBox (uid \(geteuid())) write access to the file and its directory, \
                or \(DataDirectory.advice)
                """)
        case .SQLITE_FULL:
            return StoreError(.storage, "the disk holding \(path) is full: free some space and start again")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return StoreError(.storage, """
                the database \(path) is locked by another process: stop the other WatchBox (or sqlite3 shell) \
                using this data directory, or \(DataDirectory.advice)
                """)
        default:
            return StoreError(.database, "cannot open the database \(path): \(error)")
        }
    }

    // MARK: - Maintenance

    /// Copies every change from the write-ahead log into the database file and empties the log
    /// (`PRAGMA wal_checkpoint(TRUNCATE)`, https://sqlite.org/wal.html): before a file-level backup, and in tests.
    public func checkpoint() async throws {
        do {
            // Outside of any transaction: SQLite cannot checkpoint from within one.
            try await writer.writeWithoutTransaction { db in
                _ = try db.checkpoint(.truncate)
            }
        } catch {
            throw Self.storeError(error, while: "checkpointing the write-ahead log")
        }
    }

    // MARK: - Error mapping

    /// Runs `updates` in one write transaction, turning GRDB's errors into `StoreError`s that say what was being done.
    func write<T: Sendable>(_ action: String, _ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await writer.write(updates)
        } catch {
            throw Self.storeError(error, while: action)
        }
    }

    /// Runs `value` in a read transaction, turning GRDB's errors into `StoreError`s.
    func read<T: Sendable>(_ action: String, _ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await writer.read(value)
        } catch {
            throw Self.storeError(error, while: action)
        }
    }

    static func storeError(_ error: any Error, while action: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? DatabaseError {
            let message = error.message ?? "\(error.resultCode)"
            switch error.resultCode {
            case .SQLITE_CONSTRAINT:
                return StoreError(.invalidInput, "\(action) was refused by the database schema (SQLite: \(message))")
            case .SQLITE_FULL:
                return StoreError(.storage, "\(action) failed: the disk holding the database is full; free some space")
            case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_IOERR:
                return StoreError(.storage, """
                    \(action) failed: the database cannot be written (SQLite: \(message)); check the data \
                    directory's permissions and disk
                    """)
            case .SQLITE_CORRUPT, .SQLITE_NOTADB:
                return StoreError(.storage, "\(action) failed: the database is damaged (SQLite: \(message)); restore it from a backup")
            default:
                return StoreError(.database, "\(action) failed (SQLite: \(message))")
            }
        }
        if let error = error as? RecordError, case .recordNotFound(let table, _) = error {
            return StoreError(.notFound, "\(action) failed: no such row in \(table)")
        }
        return StoreError(.database, "\(action) failed: \(error)")
    }
}
