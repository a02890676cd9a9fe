import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder that holds the database and the secret key: created on first use (mode 0700, as it holds camera
/// pictures and sealed passwords), and checked with plain POSIX calls so that errors can say exactly which path
/// failed and why (`strerror`), rather than a generic "the operation could not be completed".
enum DataDirectory {
    /// What people are told to do when the data directory is unusable.
    static let advice = "choose another directory with `watchbox serve --data DIR`"

    /// Makes sure `url` is an existing directory the process can write to, creating it and its parents if needed.
    /// Returns its path.
    @discardableResult
    static func prepare(_ url: URL) throws -> String {
        let path = url.standardizedFileURL.path
        try makeDirectory(path, leaf: path)
        guard access(path, W_OK | X_OK) == 0 else {
            let reason = lastErrorText()
            throw StoreError(.storage, """
                the data directory \(path) is not writable (\(reason)): give the user running WatchBox \
                (uid \(geteuid())) write access to it, for example with `chown` or `chmod u+rwx`, or \(advice)
                """)
        }
        return path
    }

    /// `mkdir -p`: the leaf with mode 0700, missing parents with 0755 (both less the umask).
    private static func makeDirectory(_ path: String, leaf: String) throws {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                let which = path == leaf ? "the data directory \(leaf) is a file" : "cannot create the data directory \(leaf): \(path) is a file"
                throw StoreError(.storage, "\(which), not a directory: move the file away, or \(advice)")
            }
            return
        }
        let statError = errno
        // ENOTDIR: a parent is a file; the walk up below finds which and says so.
        guard statError == ENOENT || statError == ENOTDIR else {
            throw StoreError(.storage, "cannot use the data directory \(leaf): \(path): \(text(statError)); \(advice)")
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path {
            try makeDirectory(parent, leaf: leaf)
        }
        if mkdir(path, path == leaf ? 0o700 : 0o755) != 0 {
            let mkdirError = errno
            guard mkdirError == EEXIST else {
                throw StoreError(.storage, """
                    cannot create the data directory \(leaf): mkdir \(path): \(text(mkdirError)); \
                    create it yourself with write access for the user running WatchBox, or \(advice)
                    """)
            }
        }
    }

    /// Creates an empty file with mode 0600 if there is none: SQLite then gives its -wal and -shm files the same
    /// mode, so that camera pictures are not readable by other users whatever the directory's mode.
    static func createPrivateFile(_ path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return
        }
        let openError = errno
        guard openError == EEXIST else {
            throw StoreError(.storage, "cannot create \(path): \(text(openError)); \(advice)")
        }
    }

    /// Throws unless `path` is absent, or a regular file this process can read and write.
    static func checkExistingFile(_ path: String, what: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw StoreError(.storage, "\(what) \(path) is not a regular file: move it away, or \(advice)")
        }
        guard access(path, R_OK | W_OK) == 0 else {
            let reason = lastErrorText()
            throw StoreError(.storage, """
                \(what) \(path) cannot be read and written (\(reason)): give the user running WatchBox \
                (uid \(geteuid())) access to it, for example with `chown`, or \(advice)
                """)
        }
    }

    /// POSIX `open(2)`, named so that types with an `open` method of their own can call it.
    static func openFile(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        open(path, flags, mode)
    }

    static func text(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    static func lastErrorText() -> String {
        text(errno)
    }
}
