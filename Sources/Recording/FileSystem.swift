#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The few file-system calls recording needs beyond Foundation: directory fsync (so a new file's name is on
/// stable storage, POSIX fsync(2) on the directory), free space (statvfs(3)), truncation.
public enum FileSystem {
    /// Flushes a directory's entries. Errors are returned in words, nil on success.
    @discardableResult
    public static func syncDirectory(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return "cannot open \(path) to flush it: \(String(cString: strerror(errno)))" }
        defer { close(fd) }
        if fsync(fd) != 0, errno != EINVAL { return "cannot flush \(path): \(String(cString: strerror(errno)))" }
        return nil
    }

    /// Total and available bytes of the filesystem holding `path` (available: to an unprivileged user).
    public static func space(_ path: String) -> (total: Int64, free: Int64)? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        let unit = Int64(info.f_frsize)
        return (Int64(info.f_blocks) * unit, Int64(info.f_bavail) * unit)
    }

    /// Cuts a file to `length` bytes and flushes it.
    public static func truncate(_ path: String, to length: Int64) -> String? {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return "cannot open \(path): \(String(cString: strerror(errno)))" }
        defer { close(fd) }
        guard ftruncate(fd, off_t(length)) == 0 else { return "cannot cut \(path) to \(length) bytes: \(String(cString: strerror(errno)))" }
        _ = fsync(fd)
        return nil
    }

    public static func fileSize(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// Creates a directory and its parents; flushes the parent of each one created.
    public static func makeDirectory(_ path: String) throws {
        var missing: [String] = []
        var current = path
        while !FileManager.default.fileExists(atPath: current) {
            missing.append(current)
            current = (current as NSString).deletingLastPathComponent
            if current == "/" || current.isEmpty { break }
        }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for directory in missing.reversed() { syncDirectory((directory as NSString).deletingLastPathComponent) }
    }
}
