import Foundation
import NIOCore
import Testing
import RTSPCore

/// Helpers shared by the RTSPCore tests.
enum TestSupport {
    static func buffer(_ text: String) -> ByteBuffer {
        ByteBuffer(string: text)
    }

    static func buffer(_ bytes: [UInt8]) -> ByteBuffer {
        ByteBuffer(bytes: bytes)
    }

    /// `$`, channel, 16-bit big-endian length, payload (RFC 2326 §10.12).
    static func interleavedFrame(channel: UInt8, payload: [UInt8]) -> [UInt8] {
        [UInt8(ascii: "$"), channel, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
    }

    /// Feeds `bytes` split at the given offsets (sorted, within 0...count), draining
    /// events after every append.
    static func events(_ bytes: [UInt8], splitAt offsets: [Int], parser: RTSPStreamParser = RTSPStreamParser()) -> (events: [RTSPStreamEvent], parser: RTSPStreamParser) {
        var parser = parser
        var events: [RTSPStreamEvent] = []
        var start = 0
        for offset in offsets + [bytes.count] where offset >= start {
            parser.append(ByteBuffer(bytes: bytes[start..<offset]))
            while let event = parser.next() { events.append(event) }
            start = offset
        }
        return (events, parser)
    }

    static func eventsWhole(_ bytes: [UInt8], parser: RTSPStreamParser = RTSPStreamParser()) -> [RTSPStreamEvent] {
        events(bytes, splitAt: [], parser: parser).events
    }

    static func eventsByteByByte(_ bytes: [UInt8], parser: RTSPStreamParser = RTSPStreamParser()) -> (events: [RTSPStreamEvent], parser: RTSPStreamParser) {
        events(bytes, splitAt: Array(0..<bytes.count), parser: parser)
    }

    /// The fixture's bytes (Tests/RTSPCoreTests/Fixtures, see its README for sources).
    static func fixture(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "txt", subdirectory: "Fixtures"),
                               "missing fixture \(name).txt")
        return Array(try Data(contentsOf: url))
    }

    static func fixtureText(_ name: String) throws -> String {
        String(decoding: try fixture(name), as: UTF8.self)
    }

    /// A deterministic generator so randomised tests are reproducible.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }
        mutating func next() -> UInt64 {
            // xorshift64*
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
    }
}

extension RTSPStreamEvent {
    var response: RTSPResponse? {
        if case .response(let response) = self { return response }
        return nil
    }

    var request: RTSPRequest? {
        if case .request(let request) = self { return request }
        return nil
    }

    var interleavedPayload: (channel: UInt8, payload: [UInt8])? {
        if case let .interleaved(channel, payload) = self { return (channel, Array(payload.readableBytesView)) }
        return nil
    }
}
