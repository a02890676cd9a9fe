import Foundation
import NIOCore
@testable import H26x

/// One RTP packet's fields, as the RTP module hands them to a depacketizer.
struct RTPPacket {
    var payload: [UInt8]
    var sequenceNumber: UInt16
    var timestamp: UInt32
    var marker: Bool
}

/// Parses an RFC 4571 framed stream (16-bit length, then an RFC 3550 packet), as rtpstreampay writes it.
func parseRFC4571(_ bytes: [UInt8]) -> [RTPPacket] {
    var packets: [RTPPacket] = []
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
        packets.append(RTPPacket(
            payload: Array(packet[headerLength..<end]),
            sequenceNumber: UInt16(packet[2]) << 8 | UInt16(packet[3]),
            timestamp: UInt32(packet[4]) << 24 | UInt32(packet[5]) << 16 | UInt32(packet[6]) << 8 | UInt32(packet[7]),
            marker: packet[1] & 0x80 != 0))
    }
    return packets
}

func base64Bytes(_ string: String) -> [UInt8] {
    Array(Data(base64Encoded: string)!)
}

extension ByteBuffer {
    var bytes: [UInt8] { Array(readableBytesView) }
}

extension AccessUnit {
    var nalBytes: [[UInt8]] { nalUnits.map(\.bytes) }

    /// What a depacketizer's unit promises: its sample bytes are its NAL units each after a 4-byte size, after
    /// `sampleFrontRoom` free bytes, and the NAL units are slices of those very bytes (copied once, not twice).
    var sampleIsConsistent: Bool {
        guard let sample = sampleBytes, let room = frontRoom else { return false }
        var expected: [UInt8] = []
        for nal in nalUnits {
            let size = nal.readableBytes
            expected += [UInt8(truncatingIfNeeded: size >> 24), UInt8(truncatingIfNeeded: size >> 16),
                         UInt8(truncatingIfNeeded: size >> 8), UInt8(truncatingIfNeeded: size)] + nal.bytes
        }
        let base = sample.withVeryUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        let inside = nalUnits.allSatisfy { nal in
            let address = nal.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) }
            return address >= base + UInt(sample.readerIndex) && address + UInt(nal.readableBytes) <= base + UInt(sample.writerIndex)
        }
        return sample.bytes == expected && room.bytes == AccessUnit.sampleFrontRoom && sample.readerIndex == room.bytes && inside
    }
}

extension VideoDepacketizer {
    /// Pushes packets with consecutive sequence numbers from `firstSequence`; returns all completed units.
    mutating func push(_ packets: [(payload: [UInt8], timestamp: UInt32, marker: Bool)], firstSequence: UInt16) -> [AccessUnit] {
        var out: [AccessUnit] = []
        var sequence = firstSequence
        for packet in packets {
            out += push(payload: ByteBuffer(bytes: packet.payload), sequenceNumber: sequence, timestamp: packet.timestamp, marker: packet.marker)
            sequence &+= 1
        }
        return out
    }

    mutating func push(_ packet: RTPPacket) -> [AccessUnit] {
        push(payload: ByteBuffer(bytes: packet.payload), sequenceNumber: packet.sequenceNumber, timestamp: packet.timestamp, marker: packet.marker)
    }
}

/// Builders for RFC 6184 payloads (tests only).
enum H264Payload {
    /// STAP-A (RFC 6184 §5.7.1) with NRI taken as the highest of the units.
    static func stapA(_ units: [[UInt8]]) -> [UInt8] {
        let nri = units.map { $0[0] & 0x60 }.max() ?? 0
        var out: [UInt8] = [nri | 24]
        for unit in units {
            out += [UInt8(unit.count >> 8), UInt8(unit.count & 0xFF)] + unit
        }
        return out
    }

    /// Splits one NAL unit into FU-A payloads (RFC 6184 §5.8) of at most `fragmentSize` payload bytes.
    static func fuA(_ nal: [UInt8], fragmentSize: Int) -> [[UInt8]] {
        let indicator = (nal[0] & 0xE0) | 28
        let body = Array(nal.dropFirst())
        var out: [[UInt8]] = []
        var offset = 0
        while offset < body.count {
            let end = min(offset + fragmentSize, body.count)
            var header = nal[0] & 0x1F
            if offset == 0 { header |= 0x80 }
            if end == body.count { header |= 0x40 }
            out.append([indicator, header] + body[offset..<end])
            offset = end
        }
        return out
    }
}

/// Builders for RFC 7798 payloads (tests only).
enum H265Payload {
    /// AP (RFC 7798 §4.4.2): payload header type 48 with the lowest LayerId and TID of the units.
    static func ap(_ units: [[UInt8]], donl: UInt16? = nil) -> [UInt8] {
        var out: [UInt8] = [48 << 1, 0x01]
        if let donl { out += [UInt8(donl >> 8), UInt8(donl & 0xFF)] }
        for (index, unit) in units.enumerated() {
            if donl != nil && index > 0 { out.append(0) } // DOND 0: consecutive
            out += [UInt8(unit.count >> 8), UInt8(unit.count & 0xFF)] + unit
        }
        return out
    }

    /// Splits one NAL unit into FUs (RFC 7798 §4.4.3) of at most `fragmentSize` payload bytes.
    static func fu(_ nal: [UInt8], fragmentSize: Int, donl: UInt16? = nil) -> [[UInt8]] {
        let type = (nal[0] >> 1) & 0x3F
        let payloadHeader: [UInt8] = [(nal[0] & 0x81) | (49 << 1), nal[1]]
        let body = Array(nal.dropFirst(2))
        var out: [[UInt8]] = []
        var offset = 0
        while offset < body.count {
            let end = min(offset + fragmentSize, body.count)
            var header = type
            if offset == 0 { header |= 0x80 }
            if end == body.count { header |= 0x40 }
            var packet = payloadHeader + [header]
            if offset == 0, let donl { packet += [UInt8(donl >> 8), UInt8(donl & 0xFF)] }
            out.append(packet + body[offset..<end])
            offset = end
        }
        return out
    }
}

/// Small NAL units for depacketizer tests.
enum NAL {
    static let h264 = Fixtures.h264[0]
    /// IDR slice (type 5, NRI 3); first_mb_in_slice 0 (first payload bit 1).
    static func idr(_ size: Int = 40, seed: UInt8 = 1) -> [UInt8] { [0x65, 0x88] + filler(size - 2, seed) }
    /// Non-IDR slice (type 1, NRI 2), first slice of its picture.
    static func slice(_ size: Int = 30, seed: UInt8 = 2) -> [UInt8] { [0x41, 0x9A] + filler(size - 2, seed) }
    /// Non-IDR slice that is not the first of its picture (first_mb_in_slice > 0).
    static func laterSlice(_ size: Int = 30, seed: UInt8 = 3) -> [UInt8] { [0x41, 0x40] + filler(size - 2, seed) }
    static let sei: [UInt8] = [0x06, 0x05, 0x01, 0xAA, 0x80]
    static let aud: [UInt8] = [0x09, 0xF0]

    /// H.265 IDR_W_RADL (type 19), first slice segment.
    static func h265IDR(_ size: Int = 40, seed: UInt8 = 4) -> [UInt8] { [0x26, 0x01, 0xAF] + filler(size - 3, seed) }
    /// H.265 CRA (type 21).
    static func h265CRA(_ size: Int = 40, seed: UInt8 = 5) -> [UInt8] { [0x2A, 0x01, 0xAF] + filler(size - 3, seed) }
    /// H.265 TRAIL_R (type 1).
    static func h265Trail(_ size: Int = 30, seed: UInt8 = 6) -> [UInt8] { [0x02, 0x01, 0xD0] + filler(size - 3, seed) }
    /// H.265 AUD (type 35).
    static let h265AUD: [UInt8] = [0x46, 0x01, 0x50]

    /// Deterministic bytes without start-code-like runs of zeros.
    static func filler(_ count: Int, _ seed: UInt8) -> [UInt8] {
        (0..<max(0, count)).map { UInt8(truncatingIfNeeded: ($0 * 7 + Int(seed) * 13) % 251 + 1) }
    }
}
