#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import NIOCore

/// Why a recording file could not be written, in words a person can act on.
public struct RecordingWriteError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: String, Sendable { case diskFull, permissionDenied, notFound, fileTooLarge, other }
    public var kind: Kind
    public var description: String

    public init(kind: Kind, description: String) {
        self.kind = kind
        self.description = description
    }
}

/// Writes a fragmented MP4 file whole fragments at a time, so that what is on disk is always a valid
/// file: the initialization segment followed by complete `moof`+`mdat` pairs.
///
/// A write that fails part-way (the disk filled up, a file size limit) is rolled back: the file is cut
/// back to the end of the last complete fragment, and the error says what happened. Nothing written
/// before is lost. Not thread-safe; one owner.
public final class FragmentFileWriter {
    public let path: String
    private var descriptor: Int32
    /// Bytes of complete segments and fragments on disk.
    public private(set) var committedBytes: Int64 = 0
    public private(set) var fragmentsWritten = 0
    public private(set) var failure: RecordingWriteError?

    /// Creates (or truncates) the file. Throws ``RecordingWriteError`` with the reason.
    public init(path: String) throws(RecordingWriteError) {
        self.path = path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Self.error(errno, path: path, doing: "create") }
        descriptor = fd
    }

    deinit {
        if descriptor >= 0 { _ = posixClose(descriptor) }
    }

    /// Appends one initialization segment or fragment. After a failure every later call is refused
    /// with the same error: the file stays as it was after the last complete fragment.
    public func append(_ buffer: ByteBuffer, isFragment: Bool = true) throws(RecordingWriteError) {
        if let failure { throw failure }
        guard descriptor >= 0 else {
            throw RecordingWriteError(kind: .other, description: "\(path) is already closed")
        }
        var written = 0
        let total = buffer.readableBytes
        var writeErrno: Int32 = 0
        buffer.withUnsafeReadableBytes { bytes in
            while written < total {
                let result = write(descriptor, bytes.baseAddress! + written, total - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    writeErrno = errno
                    return
                }
                if result == 0 { writeErrno = ENOSPC; return }
                written += result
            }
        }
        if writeErrno != 0 {
            // Roll back the partial fragment so the file ends on a fragment boundary.
            _ = ftruncate(descriptor, off_t(committedBytes))
            _ = lseek(descriptor, off_t(committedBytes), SEEK_SET)
            let error = Self.error(writeErrno, path: path, doing: "write")
            failure = error
            throw error
        }
        committedBytes += Int64(total)
        if isFragment { fragmentsWritten += 1 }
    }

    /// Flushes to stable storage and closes. Safe to call twice.
    public func close() throws(RecordingWriteError) {
        guard descriptor >= 0 else { return }
        let syncFailed = fsync(descriptor) != 0 ? errno : 0
        let fd = descriptor
        descriptor = -1
        if posixClose(fd) != 0, failure == nil {
            throw Self.error(errno, path: path, doing: "close")
        }
        if syncFailed != 0, syncFailed != EINVAL, failure == nil {
            throw Self.error(syncFailed, path: path, doing: "flush")
        }
    }

    static func error(_ code: Int32, path: String, doing action: String) -> RecordingWriteError {
        let reason = String(cString: strerror(code))
        switch code {
        case ENOSPC, EDQUOT:
            return RecordingWriteError(kind: .diskFull, description:
                "the disk holding \(path) is full (\(reason)): free some space or record elsewhere; what was recorded so far is kept and plays")
        case EFBIG:
            return RecordingWriteError(kind: .fileTooLarge, description:
                "\(path) reached the largest file size allowed here (\(reason)): record shorter files; what was recorded so far is kept and plays")
        case EACCES, EPERM, EROFS:
            return RecordingWriteError(kind: .permissionDenied, description:
                "cannot \(action) \(path): \(reason); choose a folder you can write to")
        case ENOENT, ENOTDIR:
            return RecordingWriteError(kind: .notFound, description:
                "cannot \(action) \(path): \(reason); create the folder first")
        default:
            return RecordingWriteError(kind: .other, description: "cannot \(action) \(path): \(reason)")
        }
    }
}

/// `close(2)`, out of reach of the method of the same name.
private func posixClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
