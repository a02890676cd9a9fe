#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import NIOCore
@testable import Server
import Testing
import TestSupport

/// Connections that never send a request must not keep the server up: SIGTERM used to wait for them forever
/// (a browser's preconnect, a port scanner), so camera sessions and recordings were never closed.
@Suite("Connections that never speak")
struct ConnectionTests {
    @Test func shutdownDoesNotWaitForAConnectionThatNeverSentARequest() async throws {
        let test = try await TestServer.make()
        let silent = NIOLockedValueBox<Int32>(-1)
        defer { if silent.withLockedValue({ $0 }) >= 0 { close(silent.withLockedValue { $0 }) } }
        try await withDeadline(seconds: 30, "the server's graceful shutdown with a silent connection open") {
            try await test.live { client in
                let port = try #require(client.port)
                let fd = try connectedSocket(port: port)
                silent.withLockedValue { $0 = fd }
                // Make sure the server has accepted it before shutting down.
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        // The server closed it: reading gives end of file.
        let silentFD = silent.withLockedValue { $0 }
        #expect(try await offThePool { try readToEnd(silentFD, timeout: 5) } == Data())
        // Closing it is expected, not an error for the log.
        let errors = test.logs.text.split(separator: "\n").filter { $0.hasPrefix("error") }
        #expect(errors.isEmpty, "\(errors)")
        await test.shutdown()
    }

    @Test func aConnectionSilentForTheFirstByteTimeoutIsClosedAndOthersAreServed() async throws {
        let test = try await TestServer.make()
        try await withDeadline(seconds: 30, "the first-byte timeout test") {
            try await test.application(firstByteTimeout: .seconds(2)).test(.live) { client in
                let port = try #require(client.port)
                let fd = try connectedSocket(port: port)
                defer { close(fd) }
                let started = Date()
                #expect(try await offThePool { try readToEnd(fd, timeout: 10) } == Data())
                #expect(Date().timeIntervalSince(started) >= 1.9)
                // A client that speaks in time is answered.
                let reply = String(decoding: try await readHTTPBytes(port: port, path: "/api/health", until: "ok", timeout: 10,
                                                               headers: []), as: UTF8.self)
                #expect(reply.hasPrefix("HTTP/1.1 200"))
                // (The framework's own HTTP client was silent too, so the server closed it as well.)
            }
        }
        await test.shutdown()
    }
}

/// A TCP connection to 127.0.0.1:`port` that sends nothing. `receiveBuffer`: its SO_RCVBUF, set before
/// connecting so that the window the server sees stays that small.
func connectedSocket(port: Int, receiveBuffer: Int32? = nil) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    if var size = receiveBuffer {
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        close(fd)
        throw PeerError(message: "cannot connect to 127.0.0.1:\(port)")
    }
    return fd
}

/// Everything `fd` receives until the peer closes (or `timeout` seconds pass: then it throws).
func readToEnd(_ fd: Int32, timeout: Double) throws -> Data {
    var tv = timeval(tv_sec: 0, tv_usec: 200_000)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        let count = recv(fd, &buffer, buffer.count, 0)
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { continue }
        if count <= 0 { return received }
        received.append(contentsOf: buffer[0..<count])
    }
    throw PeerError(message: "the connection was still open after \(timeout) s")
}

/// Runs `operation` in a task of its own and waits at most `seconds` for it: a hang fails the test instead of
/// stopping the whole run (the stuck task is left behind).
@discardableResult
func withDeadline<T: Sendable>(seconds: Double, _ what: String,
                               _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    let slot = NIOLockedValueBox<CheckedContinuation<T, any Error>?>(nil)
    return try await withCheckedThrowingContinuation { continuation in
        slot.withLockedValue { $0 = continuation }
        Task {
            do {
                let value = try await operation()
                slot.withLockedValue { $0.take() }?.resume(returning: value)
            } catch {
                slot.withLockedValue { $0.take() }?.resume(throwing: error)
            }
        }
        Task {
            try? await Task.sleep(for: .seconds(seconds))
            slot.withLockedValue { $0.take() }?.resume(throwing: PeerError(message: "\(what) did not finish within \(Int(seconds)) s"))
        }
    }
}
