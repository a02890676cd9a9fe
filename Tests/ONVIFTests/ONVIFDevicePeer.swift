import Foundation
import TestSupport

/// Tests/Peers/onvif_device.py on 127.0.0.1 at a random port.
final class ONVIFDevicePeer: @unchecked Sendable {
    let process: Process
    let port: Int
    var deviceServiceURL: String { "http://127.0.0.1:\(port)/onvif/device_service" }

    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: PeerRTSPServer.python)
    }

    init(vendor: String, mode: String, skew: Double = 0, extra: [String] = []) throws {
        let script = PeerRTSPServer.repositoryRoot.appendingPathComponent("Tests/Peers/onvif_device.py").path
        process = Process()
        process.executableURL = URL(fileURLWithPath: PeerRTSPServer.python)
        process.arguments = [script, "--fixtures", Fixture.directory.appendingPathComponent(vendor).path, "--mode", mode,
                             "--username", "admin", "--password", "c0rrect-horse", "--skew", String(skew),
                             "--rtsp-port", "8554"] + extra
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw PeerError(message: "onvif_device.py did not start: '\(text)'")
        }
        self.port = port
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}
