import Foundation
import NIOCore
@testable import AAC

/// One RTP packet's fields, as the RTP module hands them to a depacketizer.
struct RTPFields {
    var payload: [UInt8]
    var sequenceNumber: UInt16
    var timestamp: UInt32
    var marker: Bool
}

/// Parses an RFC 4571 framed stream (16-bit length, then an RFC 3550 packet), as rtpstreampay writes it.
func parseRFC4571(_ bytes: [UInt8]) -> [RTPFields] {
    var packets: [RTPFields] = []
    var offset = 0
    while offset + 2 <= bytes.count {
        let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
        let packet = Array(bytes[(offset + 2)..<(offset + 2 + length)])
        offset += 2 + length
        let csrcCount = Int(packet[0] & 0x0F)
        var headerLength = 12 + 4 * csrcCount
        if packet[0] & 0x10 != 0 { // header extension
            let words = Int(packet[headerLength + 2]) << 8 | Int(packet[headerLength + 3])
            headerLength += 4 + 4 * words
        }
        var end = packet.count
        if packet[0] & 0x20 != 0 { end -= Int(packet[packet.count - 1]) } // padding
        packets.append(RTPFields(
            payload: Array(packet[headerLength..<end]),
            sequenceNumber: UInt16(packet[2]) << 8 | UInt16(packet[3]),
            timestamp: UInt32(packet[4]) << 24 | UInt32(packet[5]) << 16 | UInt32(packet[6]) << 8 | UInt32(packet[7]),
            marker: packet[1] & 0x80 != 0))
    }
    return packets
}

/// Splits a file of ADTS frames (ISO/IEC 14496-3 §1.A.2) into (header, raw AU) pairs.
func splitADTS(_ bytes: [UInt8]) -> [(header: [UInt8], payload: [UInt8])] {
    var frames: [(header: [UInt8], payload: [UInt8])] = []
    var offset = 0
    while offset + 7 <= bytes.count {
        precondition(bytes[offset] == 0xFF && bytes[offset + 1] & 0xF0 == 0xF0, "not an ADTS syncword")
        let headerLength = bytes[offset + 1] & 0x01 == 1 ? 7 : 9
        let frameLength = Int(bytes[offset + 3] & 0x03) << 11 | Int(bytes[offset + 4]) << 3 | Int(bytes[offset + 5]) >> 5
        frames.append((Array(bytes[offset..<(offset + 7)]),
                       Array(bytes[(offset + headerLength)..<(offset + frameLength)])))
        offset += frameLength
    }
    return frames
}

func base64Bytes(_ string: String) -> [UInt8] {
    Array(Data(base64Encoded: string, options: .ignoreUnknownCharacters)!)
}

func hexBytes(_ hex: String) -> [UInt8] {
    try! AudioSpecificConfig.bytes(fromHex: hex)
}

extension ByteBuffer {
    var bytes: [UInt8] { Array(readableBytesView) }
}

/// An RFC 3640 payload: AU-headers-length, the AU-header fields given (value, bits) padded to a byte,
/// then `data`.
func rfc3640Payload(headerFields: [(value: Int, bits: Int)], data: [UInt8]) -> [UInt8] {
    var writer = BitWriter()
    var bitCount = 0
    for field in headerFields {
        writer.write(field.value, bits: field.bits)
        bitCount += field.bits
    }
    return [UInt8(bitCount >> 8), UInt8(bitCount & 0xFF)] + writer.bytes + data
}

/// An AAC-hbr payload (sizeLength=13, indexLength=3, indexDeltaLength=3) with these AUs and
/// AU-Index-deltas (0 when not given).
func hbrPayload(_ units: [[UInt8]], indexDeltas: [Int] = []) -> [UInt8] {
    var fields: [(value: Int, bits: Int)] = []
    for (index, unit) in units.enumerated() {
        fields.append((unit.count, 13))
        fields.append((index == 0 ? 0 : (index - 1 < indexDeltas.count ? indexDeltas[index - 1] : 0), 3))
    }
    return rfc3640Payload(headerFields: fields, data: units.flatMap { $0 })
}

/// An AAC-hbr payload carrying one fragment of an AU of `auSize` bytes.
func hbrFragment(auSize: Int, _ chunk: some Collection<UInt8>) -> [UInt8] {
    rfc3640Payload(headerFields: [(auSize, 13), (0, 3)], data: Array(chunk))
}

/// The fmtp an AAC-hbr camera sends, with `config`.
func hbrParameters(config: String = "1190", extra: [String: String] = [:]) -> [String: String] {
    var parameters = ["streamtype": "5", "profile-level-id": "1", "mode": "AAC-hbr", "config": config,
                      "sizelength": "13", "indexlength": "3", "indexdeltalength": "3"]
    parameters.merge(extra) { $1 }
    return parameters
}

/// Bytes 0, 1, 2 ... (mod 251), offset by `seed`, so AUs are distinguishable.
func pattern(_ count: Int, seed: Int = 0) -> [UInt8] {
    (0..<count).map { UInt8((($0 + seed * 37) % 251)) }
}

/// A small deterministic generator (SplitMix64) so random tests repeat.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension MPEG4GenericDepacketizer {
    /// Pushes payloads with consecutive sequence numbers from `firstSequence`; returns all frames.
    mutating func push(_ packets: [(payload: [UInt8], timestamp: UInt32, marker: Bool)], firstSequence: UInt16) -> [AudioFrame] {
        var out: [AudioFrame] = []
        var sequence = firstSequence
        for packet in packets {
            out += push(payload: ByteBuffer(bytes: packet.payload), sequenceNumber: sequence,
                        timestamp: packet.timestamp, marker: packet.marker)
            sequence &+= 1
        }
        return out
    }
}
