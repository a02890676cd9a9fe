import Foundation
import Hub
import Hummingbird
import HummingbirdTesting
import HummingbirdWebSocket
import HummingbirdWSTesting
import NIOConcurrencyHelpers
import NIOCore
@testable import Server
import Testing
import TestSupport

@Suite("Live WebSocket, server-sent events, and secrets kept secret", .serialized)
struct LiveAndSecretsTests {
    @Test func liveWebSocketSendsInitThenFragmentsOfTheSharedStream() async throws {
        let test = try await TestServer.make(demo: true)
        let id = try #require(try await test.server.service.list().first?.id)
        struct Seen: Sendable {
            var texts: [String] = []
            var binaries: [ByteBuffer] = []
        }
        let seen = NIOLockedValueBox(Seen())
        _ = try await test.live { client in
            try await client.ws("/api/cameras/\(id.uuidString)/live") { inbound, _, _ in
                for try await message in inbound.messages(maxSize: 8 << 20) {
                    let done = seen.withLockedValue { s -> Bool in
                        switch message {
                        case .text(let text): s.texts.append(text)
                        case .binary(let bytes): s.binaries.append(bytes)
                        }
                        return s.binaries.count >= 30
                    }
                    if done { break }
                }
            }
        }
        let result = seen.withLockedValue { $0 }
        let initText = try #require(result.texts.first { $0.contains("\"type\":\"init\"") })
        #expect(initText.contains("avc1."))
        #expect(initText.contains("\"width\":1280"))
        let first = try #require(result.binaries.first)
        #expect(String(decoding: first.getBytes(at: first.readerIndex + 4, length: 4) ?? [], as: UTF8.self) == "ftyp")
        let second = result.binaries[1]
        #expect(String(decoding: second.getBytes(at: second.readerIndex + 4, length: 4) ?? [], as: UTF8.self) == "moof")
        await test.shutdown()
    }

    /// The server answers the upgrade, sends the error and closes at once. Read with a plain socket: the
    /// WebSocket test client (swift-nio 2.101's NIOTypedHTTPClientUpgradeHandler) can lose a half-close that
    /// arrives while it is still switching protocols, and then waits for the end of input forever.
    @Test func unknownCameraGetsAnErrorMessage() async throws {
        let test = try await TestServer.make()
        let reply = try await test.live { client in
            let port = try #require(client.port)
            return try await readHTTPBytes(port: port, path: "/api/cameras/\(UUID().uuidString)/live", until: nil, timeout: 20,
                                      headers: ["Upgrade: websocket", "Connection: Upgrade",
                                                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13"])
        }
        let head = try #require(reply.range(of: Data("\r\n\r\n".utf8)))
        #expect(String(decoding: reply[..<head.lowerBound], as: UTF8.self).hasPrefix("HTTP/1.1 101"))
        let frames = try webSocketFrames(reply[head.upperBound...])
        #expect(frames.first?.opcode == 0x1)
        #expect(frames.first.map { String(decoding: $0.payload, as: UTF8.self) }?.contains("no camera") == true)
        // Then a normal close (1000).
        #expect(frames.last?.opcode == 0x8)
        #expect(frames.last?.payload.prefix(2) == Data([0x03, 0xE8]))
        await test.shutdown()
    }

    @Test func serverSentEventsStartWithASnapshot() async throws {
        let test = try await TestServer.make(demo: true)
        try await test.live { client in
            let port = try #require(client.port)
            let text = try await readHTTPStream(port: port, path: "/api/events", until: "event: snapshot", timeout: 20)
            #expect(text.contains("text/event-stream"))
            #expect(text.contains("event: snapshot"))
        }
        await test.shutdown()
    }

    /// The secret-leak test: the password never reaches the database file, the logs or an answer,
    /// even after the hub has used it to log in to a real camera.
    @Test(.enabled(if: PeerRTSPServer.isAvailable, "needs GStreamer's RTSP server"))
    func thePasswordIsInNoFileNoLogNoAnswer() async throws {
        let password = "hunter2-Zq9-secret"
        let peer = try PeerRTSPServer(["--width", "320", "--height", "240", "--auth", "digest",
                                       "--user", "admin", "--password", password])
        defer { peer.stop() }
        let test = try await TestServer.make()
        let collected = NIOLockedValueBox("")
        try await test.application.test(.router) { client in
            let created = try await client.execute(uri: "/api/cameras", method: .post, headers: jsonHeaders, body: json([
                "name": "Secret cam", "rtspURL": peer.url(), "username": "admin", "password": password,
            ]))
            collected.withLockedValue { $0 += String(buffer: created.body) }
            let id = object(created.body)["id"] as! String
            let tested = try await client.execute(uri: "/api/cameras/\(id)/test", method: .post)
            collected.withLockedValue { $0 += String(buffer: tested.body) }
            #expect(object(tested.body)["ok"] as? Bool == true, "the sealed password logs in: \(String(buffer: tested.body))")
            let list = try await client.execute(uri: "/api/cameras", method: .get)
            collected.withLockedValue { $0 += String(buffer: list.body) }
            // Play it through the hub too (the path a viewer takes) and take a snapshot.
            let snapshot = try await client.execute(uri: "/api/cameras/\(id)/snapshot.jpg", method: .get)
            #expect(snapshot.status == .ok)
        }
        await test.server.service.shutdown()

        #expect(!collected.withLockedValue { $0 }.contains(password))
        #expect(!test.logs.text.isEmpty)
        #expect(!test.logs.text.contains(password), "a log line holds the password")
        var scanned = 0
        // Every file under the data directory, recordings included (directories are walked, not read).
        let files = FileManager.default.enumerator(atPath: test.directory.path)
        while let file = files?.nextObject() as? String {
            let url = test.directory.appendingPathComponent(file)
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let data = try Data(contentsOf: url)
            scanned += 1
            #expect(data.range(of: Data(password.utf8)) == nil, "\(file) holds the password")
        }
        #expect(scanned >= 2, "the database and the key file were scanned")
        try? FileManager.default.removeItem(at: test.directory)
    }
}

/// Reads an HTTP response from a loopback server until `marker` appears (for streams that never end).
/// An event stream's text, as ``readHTTPBytes(port:path:until:timeout:headers:)`` reads it.
func readHTTPStream(port: Int, path: String, until marker: String, timeout: Double) async throws -> String {
    String(decoding: try await readHTTPBytes(port: port, path: path, until: marker, timeout: timeout), as: UTF8.self)
}

/// Sends a GET over a plain socket and returns what comes back until `marker` appears, the server closes, or
/// `timeout` seconds pass. The socket is read on a thread of its own: blocking one of the concurrency pool's
/// threads (two on this machine) while the server under test needs them to answer starved both.
func readHTTPBytes(port: Int, path: String, until marker: String?, timeout: Double,
                   headers: [String] = ["Accept: text/event-stream"]) async throws -> Data {
    try await offThePool { try readHTTPBytesBlocking(port: port, path: path, until: marker, timeout: timeout, headers: headers) }
}

/// Runs blocking work (socket reads with timeouts) on a Dispatch thread, not on the Swift concurrency pool.
func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}

private func readHTTPBytesBlocking(port: Int, path: String, until marker: String?, timeout: Double,
                                   headers: [String]) throws -> Data {
    let fd = try connectedSocket(port: port)
    defer { close(fd) }
    var tv = timeval(tv_sec: 1, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n"
    _ = request.withCString { send(fd, $0, strlen($0), 0) }
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        let count = recv(fd, &buffer, buffer.count, 0)
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { continue }
        if count <= 0 { break }
        received.append(contentsOf: buffer[0..<count])
        if let marker, String(decoding: received, as: UTF8.self).contains(marker) { break }
    }
    return received
}

/// The frames of an unmasked (server → client) WebSocket byte stream (RFC 6455 §5.2).
/// `allowingCutEnd`: the read stopped anywhere, so a last frame cut short is dropped instead of an error.
func webSocketFrames(_ bytes: Data, allowingCutEnd: Bool = false) throws -> [(opcode: UInt8, payload: Data)] {
    var frames: [(opcode: UInt8, payload: Data)] = []
    var index = bytes.startIndex
    while index < bytes.endIndex {
        if allowingCutEnd, let whole = webSocketFrameLength(bytes[index...]), whole > bytes.endIndex - index { break }
        guard bytes.endIndex - index >= 2 else {
            if allowingCutEnd { break }
            throw PeerError(message: "a WebSocket frame header is cut short")
        }
        let opcode = bytes[index] & 0x0F
        var length = Int(bytes[index + 1] & 0x7F)
        var start = index + 2
        if length == 126 {
            guard bytes.endIndex - start >= 2 else { throw PeerError(message: "a WebSocket length is cut short") }
            length = Int(bytes[start]) << 8 | Int(bytes[start + 1])
            start += 2
        } else if length == 127 {
            guard bytes.endIndex - start >= 8 else { throw PeerError(message: "a WebSocket length is cut short") }
            length = bytes[start..<start + 8].reduce(0) { $0 << 8 | Int($1) }
            start += 8
        }
        guard bytes.endIndex - start >= length else { throw PeerError(message: "a WebSocket payload is cut short") }
        frames.append((opcode, Data(bytes[start..<start + length])))
        index = start + length
    }
    return frames
}

/// The whole length (header and payload) of the frame starting `bytes`, or nil when its header is cut short.
private func webSocketFrameLength(_ bytes: Data) -> Int? {
    let start = bytes.startIndex
    guard bytes.count >= 2 else { return nil }
    let length = Int(bytes[start + 1] & 0x7F)
    switch length {
    case 126:
        guard bytes.count >= 4 else { return nil }
        return 4 + (Int(bytes[start + 2]) << 8 | Int(bytes[start + 3]))
    case 127:
        guard bytes.count >= 10 else { return nil }
        return 10 + bytes[start + 2..<start + 10].reduce(0) { $0 << 8 | Int($1) }
    default:
        return 2 + length
    }
}
