import Foundation
import NIOCore

/// A recording of what a camera sent: its SDP and every RTP/RTCP packet, as `$`-framed
/// interleaved data (RFC 2326 §10.12) whatever the transport was. `watchbox capture` writes it;
/// fixture tests and benchmarks replay it through the parsers.
///
/// File layout: the line `WATCHBOX-CAPTURE 1`, the line `sdp <byte count>`, the SDP bytes, then
/// the interleaved frames to the end of the file. Channel 2n carries track n's RTP, 2n+1 its RTCP.
public struct SessionCapture: Sendable {
    public static let magic = "WATCHBOX-CAPTURE 1"

    public var sdp: String
    /// The `$`-framed stream.
    public var stream: ByteBuffer

    public init(sdp: String, stream: ByteBuffer = ByteBuffer()) {
        self.sdp = sdp
        self.stream = stream
    }

    public struct FormatError: Error, CustomStringConvertible {
        public var description: String
    }

    public init(bytes: [UInt8]) throws {
        var buffer = ByteBuffer(bytes: bytes)
        guard let magicLine = buffer.readLine(), magicLine == Self.magic else {
            throw FormatError(description: "not a WatchBox capture (it should start with \"\(Self.magic)\")")
        }
        guard let sdpLine = buffer.readLine(), sdpLine.hasPrefix("sdp "), let count = Int(sdpLine.dropFirst(4)),
              let sdp = buffer.readString(length: count) else {
            throw FormatError(description: "the capture's SDP header is damaged")
        }
        self.sdp = sdp
        self.stream = buffer
    }

    public var bytes: [UInt8] {
        var out = ByteBuffer()
        out.writeString("\(Self.magic)\nsdp \(sdp.utf8.count)\n")
        out.writeString(sdp)
        out.writeImmutableBuffer(stream)
        return Array(out.readableBytesView)
    }

    /// Append one packet.
    public mutating func append(channel: UInt8, payload: ByteBuffer) {
        Self.frame(channel: channel, payload: payload, into: &stream)
    }

    /// Write `$`, channel, 16-bit length, payload.
    public static func frame(channel: UInt8, payload: ByteBuffer, into buffer: inout ByteBuffer) {
        buffer.writeInteger(UInt8(0x24))
        buffer.writeInteger(channel)
        buffer.writeInteger(UInt16(truncatingIfNeeded: payload.readableBytes))
        buffer.writeImmutableBuffer(payload)
    }

    /// Each packet in order: (channel, payload). Stops at a damaged frame.
    public var packets: [(channel: UInt8, payload: ByteBuffer)] {
        var view = stream
        var result: [(UInt8, ByteBuffer)] = []
        while view.readableBytes >= 4, view.getInteger(at: view.readerIndex, as: UInt8.self) == 0x24 {
            view.moveReaderIndex(forwardBy: 1)
            let channel = view.readInteger(as: UInt8.self)!
            let length = Int(view.readInteger(as: UInt16.self)!)
            guard let payload = view.readSlice(length: length) else { break }
            result.append((channel, payload))
        }
        return result
    }
}

extension ByteBuffer {
    fileprivate mutating func readLine() -> String? {
        guard let index = readableBytesView.firstIndex(of: 0x0A) else { return nil }
        let length = index - readerIndex
        let line = readString(length: length)
        moveReaderIndex(forwardBy: 1)
        return line
    }
}
