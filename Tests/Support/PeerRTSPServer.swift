import Foundation

/// GStreamer's RTSP server (Tests/Peers/rtsp_server.py), a real implementation to test against.
public final class PeerRTSPServer: @unchecked Sendable {
    public let process: Process
    public let port: Int
    private let output: Pipe

    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    public static var scriptPath: String {
        ProcessInfo.processInfo.environment["WATCHBOX_RTSP_SERVER"]
            ?? repositoryRoot.appendingPathComponent("Tests/Peers/rtsp_server.py").path
    }

    public static var python: String {
        ProcessInfo.processInfo.environment["WATCHBOX_PYTHON"] ?? "/usr/bin/python3"
    }

    /// Whether the peer can run here. Under CI it must: the tests then fail instead of being skipped.
    public static var isAvailable: Bool {
        if ProcessInfo.processInfo.environment["CI"] == "true" { return true }
        guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: scriptPath) else { return false }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: python)
        check.arguments = ["-c", "import gi; gi.require_version('GstRtspServer', '1.0'); from gi.repository import GstRtspServer"]
        check.standardOutput = FileHandle.nullDevice
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return false }
        check.waitUntilExit()
        return check.terminationStatus == 0
    }

    /// Start the server and wait for its `READY <port>` line.
    public init(_ arguments: [String], port: Int = 0) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [Self.scriptPath, "--port", String(port)] + arguments
        output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        let handle = output.fileHandleForReading
        var line = Data()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty { break }
            if byte == Data([0x0A]) { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("READY "), let value = Int(text.dropFirst(6).trimmingCharacters(in: .whitespaces)) else {
            process.terminate()
            throw PeerError(message: "GStreamer RTSP server did not start (said: \"\(text)\")")
        }
        self.port = value
    }

    public func url(_ path: String = "/stream", user: String? = nil, password: String? = nil, scheme: String = "rtsp") -> String {
        let auth = user.map { "\($0):\(password ?? "")@" } ?? ""
        return "\(scheme)://\(auth)127.0.0.1:\(port)\(path)"
    }

    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        // The test runner may hand its children a signal mask that blocks SIGTERM; don't wait forever.
        let deadline = Date().addingTimeInterval(3)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        kill()
    }

    /// Kill without a goodbye (no TEARDOWN, no FIN handshake niceties beyond the kernel's).
    public func kill() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}

public struct PeerError: Error, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// A free TCP port on loopback (bound and released; good enough for tests that restart a server on the same port).
public func freeLoopbackPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    return Int(UInt16(bigEndian: address.sin_port))
}
