import Foundation

/// Tests/Peers/tcp_peer.py on 127.0.0.1: a listener that is not an RTSP server (`garbage`, `http`, `silent`)
/// or a `relay` to another loopback port.
public final class TCPPeer: @unchecked Sendable {
    public let process: Process
    public let port: Int

    public static var scriptPath: String {
        PeerRTSPServer.repositoryRoot.appendingPathComponent("Tests/Peers/tcp_peer.py").path
    }

    public init(_ mode: String, arguments: [String] = []) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: PeerRTSPServer.python)
        process.arguments = [Self.scriptPath, mode, "--host", "127.0.0.1"] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data([0x0A]) { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("READY "), let port = Int(text.dropFirst(6)) else {
            process.terminate()
            throw PeerError(message: "tcp_peer.py \(mode) did not start (said \"\(text)\")")
        }
        self.port = port
    }

    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }
}
