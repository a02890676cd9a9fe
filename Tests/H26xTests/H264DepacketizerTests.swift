import NIOCore
import Testing
@testable import H26x

@Suite("H.264 depacketizer (RFC 6184)")
struct H264DepacketizerTests {
    let sps = Fixtures.h264[0].sps
    let pps = Fixtures.h264[0].pps

    @Test("single NAL unit packets make one access unit per marker; SDP parameter sets give the format")
    func singleNALUnits() throws {
        var d = H264Depacketizer(parameterSets: [pps, sps])
        let format = try #require(d.format)
        #expect(format.width == 1280 && format.height == 720)
        #expect(format.codecString == "avc1.64001f")
        #expect(format.parameterSets == [sps, pps])
        #expect(d.formatChanged == false)

        let idr = NAL.idr()
        var units = d.push([(NAL.sei, 3000, false), (idr, 3000, true)], firstSequence: 10)
        #expect(units.count == 1)
        let unit = try #require(units.first)
        #expect(unit.isKeyframe)
        #expect(unit.rtpTimestamp == 3000)
        #expect(unit.nalBytes == [NAL.sei, idr])
        #expect(unit.byteCount == NAL.sei.count + idr.count)
        #expect(unit.wallClock == nil)
        #expect(unit.codec == .h264)

        units = d.push([(NAL.slice(), 6000, true)], firstSequence: 12)
        #expect(units.count == 1 && units[0].isKeyframe == false)
        #expect(d.statistics == stats(accessUnits: 2, keyframes: 1))
    }

    @Test("units before the first IDR are dropped")
    func waitsForFirstKeyframe() {
        var d = H264Depacketizer(parameterSets: [sps, pps])
        var units = d.push([(NAL.slice(), 0, true), (NAL.slice(), 3000, true)], firstSequence: 0)
        #expect(units.isEmpty)
        units = d.push([(NAL.idr(), 6000, true), (NAL.slice(), 9000, true)], firstSequence: 2)
        #expect(units.map(\.isKeyframe) == [true, false])
        #expect(d.statistics == stats(accessUnits: 2, keyframes: 1, droppedUnits: 2))
    }

    @Test("STAP-A: the units are copied once, into the unit's sample bytes; AUD and empty units are dropped")
    func stapA() throws {
        var d = H264Depacketizer()
        #expect(d.format == nil)
        let idr = NAL.idr(60)
        var payload = H264Payload.stapA([NAL.aud, sps, pps, idr])
        payload.insert(contentsOf: [0, 0], at: 1) // an empty unit first
        let buffer = ByteBuffer(bytes: payload)
        let units = d.push(payload: buffer, sequenceNumber: 1, timestamp: 90, marker: true)
        let unit = try #require(units.first)
        #expect(unit.nalBytes == [sps, pps, idr])
        #expect(unit.isKeyframe)
        // Slices of the sample bytes (4-byte sizes, room in front for the live muxer), not of the packet.
        #expect(unit.sampleIsConsistent)
        let packet = buffer.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) }
        let idrAddress = unit.nalUnits[2].withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) }
        #expect(idrAddress < packet || idrAddress >= packet + UInt(payload.count))
        #expect(unit.avcc().bytes == unit.sampleBytes?.bytes)
        #expect(d.formatChanged)
        #expect(d.format?.width == 1280)
        #expect(d.statistics.malformedPackets == 0)
    }

    @Test("FU-A reassembles a NAL unit split at every fragment size", arguments: [1, 2, 3, 7, 50, 98, 99, 200])
    func fuAEveryFragmentSize(_ size: Int) throws {
        var d = H264Depacketizer(parameterSets: [sps, pps])
        let idr = NAL.idr(100)
        let fragments = H264Payload.fuA(idr, fragmentSize: size)
        let packets = fragments.enumerated().map { ($0.element, UInt32(1000), $0.offset == fragments.count - 1) }
        let units = d.push(packets, firstSequence: 100)
        #expect(units.count == 1)
        #expect(units.first?.nalBytes == [idr])
        #expect(units.first?.sampleIsConsistent == true)
        #expect(units.first?.isKeyframe == true)
        #expect(d.statistics.malformedPackets == 0)
    }

    @Test("FU-A reassembly at every split point of a real SPS-sized unit, byte by byte")
    func fuAEverySplitPoint() {
        let idr = NAL.idr(64)
        for split in 1..<(idr.count - 1) {
            var d = H264Depacketizer(parameterSets: [sps, pps])
            let indicator = (idr[0] & 0xE0) | 28
            let first = [indicator, 0x80 | 5] + idr[1..<split]
            let last = [indicator, 0x40 | 5] + idr[split...]
            let units = d.push([(first, 7, false), (last, 7, true)], firstSequence: 65535)
            #expect(units.first?.nalBytes == [idr], "split at \(split)")
            #expect(units.first?.sampleIsConsistent == true, "split at \(split)")
        }
    }

    @Test("an FU-A with both S and E set is a whole NAL unit")
    func fuAStartAndEnd() {
        var d = H264Depacketizer(parameterSets: [sps, pps])
        let idr = NAL.idr(20)
        let payload = [UInt8(0x60 | 28), 0xC0 | 5] + idr.dropFirst()
        let units = d.push([(payload, 1, true)], firstSequence: 0)
        #expect(units.first?.nalBytes == [idr])
        #expect(d.statistics.malformedPackets == 0)
    }

    @Test("a stream that never sets the marker bit is split on timestamp changes; flush ends the last unit")
    func markerless() {
        var d = H264Depacketizer(parameterSets: [sps, pps])
        let idr = NAL.idr(90)
        var packets: [([UInt8], UInt32, Bool)] = H264Payload.fuA(idr, fragmentSize: 40).map { ($0, 100, false) }
        packets.append((NAL.slice(seed: 9), 3100, false))
        packets.append((NAL.laterSlice(seed: 10), 3100, false))
        packets.append((NAL.slice(seed: 11), 6100, false))
        let units = d.push(packets, firstSequence: 500)
        #expect(units.map(\.rtpTimestamp) == [100, 3100])
        #expect(units[0].nalBytes == [idr])
        #expect(units[1].nalBytes == [NAL.slice(seed: 9), NAL.laterSlice(seed: 10)])
        let rest = d.flush()
        #expect(rest.map(\.rtpTimestamp) == [6100])
        #expect(d.flush().isEmpty)
    }

    @Test("a packet can complete two units: the previous one on a timestamp change and its own by the marker")
    func twoUnitsFromOnePacket() {
        var d = H264Depacketizer(parameterSets: [sps, pps])
        _ = d.push([(NAL.idr(), 0, false)], firstSequence: 0)
        let units = d.push(payload: ByteBuffer(bytes: NAL.slice()), sequenceNumber: 1, timestamp: 3000, marker: true)
        #expect(units.map(\.rtpTimestamp) == [0, 3000])
    }

    @Test("loss in the middle of an FU-A drops the unit and waits for the next IDR")
    func lossInFragment() {
        var d = H264Depacketizer(parameterSets: [sps, pps])
        let first = d.push([(NAL.idr(), 0, true)], firstSequence: 0)
        #expect(first.count == 1)
        let fragments = H264Payload.fuA(NAL.slice(100), fragmentSize: 30) // 4 fragments
        var units = d.push(payload: ByteBuffer(bytes: fragments[0]), sequenceNumber: 1, timestamp: 3000, marker: false)
        units += d.push(payload: ByteBuffer(bytes: fragments[1]), sequenceNumber: 2, timestamp: 3000, marker: false)
        // sequence 3 is lost
        units += d.push(payload: ByteBuffer(bytes: fragments[3]), sequenceNumber: 4, timestamp: 3000, marker: true)
        #expect(units.isEmpty)
        // P pictures after the loss are dropped, the next IDR restarts the stream.
        units = d.push([(NAL.slice(), 6000, true), (NAL.slice(), 9000, true), (NAL.idr(), 12000, true), (NAL.slice(), 15000, true)], firstSequence: 5)
        #expect(units.map(\.rtpTimestamp) == [12000, 15000])
        #expect(units.allSatisfy { $0.sampleIsConsistent }, "nothing of the damaged unit is left in the next ones")
        #expect(d.statistics == stats(accessUnits: 3, keyframes: 2, droppedUnits: 3, lossEvents: 1))
    }

    @Test("an IDR that starts cleanly right after a gap is kept; one that lost its first slice is not")
    func gapBeforeKeyframe() {
        var d = H264Depacketizer(parameterSets: [sps, pps])
        _ = d.push([(NAL.idr(), 0, true), (NAL.slice(), 3000, false)], firstSequence: 0)
        // sequence 2 (the rest of the picture at 3000, with the marker) is lost
        var units = d.push([(NAL.idr(seed: 7), 6000, true)], firstSequence: 3)
        #expect(units.map(\.rtpTimestamp) == [6000])
        #expect(d.statistics.droppedUnits == 1)
        // Now the first slice of an IDR picture is lost: the unit opens with a later slice.
        let laterIDRSlice: [UInt8] = [0x65, 0x40, 0x11, 0x22]
        units = d.push([(laterIDRSlice, 9000, true), (NAL.slice(), 12000, true)], firstSequence: 5)
        #expect(units.isEmpty)
        #expect(d.statistics.lossEvents == 2)
        // An FU-A continuation after a gap is not counted as malformed: the loss explains it.
        let fragments = H264Payload.fuA(NAL.idr(80), fragmentSize: 30)
        units = d.push([(fragments[1], 15000, false), (fragments[2], 15000, true)], firstSequence: 9)
        #expect(units.isEmpty)
        #expect(d.statistics.malformedPackets == 0)
        #expect(d.statistics.lossEvents == 3)
    }

    @Test("sequence numbers wrap from 65535 to 0 without a loss")
    func sequenceWrap() {
        var d = H264Depacketizer(parameterSets: [sps, pps])
        let fragments = H264Payload.fuA(NAL.idr(100), fragmentSize: 30)
        let units = d.push(fragments.enumerated().map { ($0.element, UInt32(5), $0.offset == 3) }, firstSequence: 65534)
        #expect(units.count == 1)
        #expect(d.statistics.lossEvents == 0)
        let next = d.push(payload: ByteBuffer(bytes: NAL.slice()), sequenceNumber: 2, timestamp: 3005, marker: true)
        #expect(next.count == 1)
        #expect(d.statistics.lossEvents == 0)
    }

    @Test("duplicate and late packets are ignored; a big jump back is a discontinuity")
    func duplicatesAndLatePackets() {
        var d = H264Depacketizer(parameterSets: [sps, pps])
        _ = d.push([(NAL.idr(), 0, true)], firstSequence: 100)
        #expect(d.push(payload: ByteBuffer(bytes: NAL.idr()), sequenceNumber: 100, timestamp: 0, marker: true).isEmpty)
        #expect(d.push(payload: ByteBuffer(bytes: NAL.slice()), sequenceNumber: 90, timestamp: 0, marker: true).isEmpty)
        #expect(d.push(payload: ByteBuffer(bytes: NAL.slice()), sequenceNumber: 101, timestamp: 3000, marker: true).count == 1)
        #expect(d.statistics.lossEvents == 0)
        // The sender restarted with a lower sequence number.
        #expect(d.push(payload: ByteBuffer(bytes: NAL.idr()), sequenceNumber: 20, timestamp: 50, marker: true).count == 1)
        #expect(d.statistics.lossEvents == 1)
    }

    @Test("an in-band SPS that differs sets formatChanged with the unit that carries it; a repeat does not")
    func inBandParameterSetChange() throws {
        var d = H264Depacketizer(parameterSets: [sps, pps])
        let other = Fixtures.h264[1] // 1080p Main
        var units = d.push([(H264Payload.stapA([sps, pps, NAL.idr()]), 0, true)], firstSequence: 0)
        #expect(units.count == 1 && d.formatChanged == false)
        // The new SPS arrives; the previous unit is returned first, the flag comes with the new unit.
        units = d.push([(H264Payload.stapA([other.sps, other.pps]), 3000, false)], firstSequence: 1)
        #expect(units.isEmpty && d.formatChanged == false)
        units = d.push([(NAL.idr(seed: 3), 3000, true)], firstSequence: 2)
        #expect(units.count == 1)
        #expect(units[0].nalBytes.first == other.sps)
        #expect(d.formatChanged)
        #expect(d.format?.width == 1920 && d.format?.height == 1080)
        #expect(d.format?.codecString == "avc1.4d4028")
        d.formatChanged = false
        _ = d.push([(H264Payload.stapA([other.sps, other.pps, NAL.idr()]), 6000, true)], firstSequence: 3)
        #expect(d.formatChanged == false)
    }

    @Test("parameter sets sent as a unit of their own are carried into the picture that follows")
    func parameterSetsInTheirOwnUnit() {
        var d = H264Depacketizer()
        var units = d.push([(sps, 0, false), (pps, 0, true)], firstSequence: 0)
        #expect(units.isEmpty)
        #expect(d.format == nil) // applied with the picture
        units = d.push([(NAL.idr(), 3000, true)], firstSequence: 2)
        #expect(units.first?.nalBytes == [sps, pps, NAL.idr()])
        #expect(units.first?.sampleIsConsistent == true)
        #expect(units.first?.rtpTimestamp == 3000)
        #expect(d.format != nil && d.formatChanged)
        #expect(d.statistics.droppedUnits == 0)
    }

    @Test("several PPS ids are all kept in the format; a broken in-band SPS is refused and reported")
    func multiplePPSAndBrokenSPS() throws {
        let secondPPS: [UInt8] = [0x68, 0x4E, 0x38, 0x80] // pic_parameter_set_id 1
        var d = H264Depacketizer(parameterSets: [sps, pps, secondPPS])
        #expect(d.format?.parameterSets == [sps, pps, secondPPS])
        let broken = Array(sps.prefix(6))
        _ = d.push([(H264Payload.stapA([broken, NAL.idr()]), 0, true)], firstSequence: 0)
        #expect(d.format?.parameterSets == [sps, pps, secondPPS])
        #expect(d.formatChanged == false)
        let error = try #require(d.parameterSetError)
        #expect(error.description.contains("truncated"))
    }

    @Test("STAP-B, MTAP and FU-B are unsupported; undefined types are ignored; malformed packets are counted")
    func unsupportedAndMalformed() {
        var d = H264Depacketizer(parameterSets: [sps, pps])
        var units = d.push([(NAL.idr(), 0, true)], firstSequence: 0)
        for type: UInt8 in [25, 26, 27, 29] {
            units += d.push(payload: ByteBuffer(bytes: [0x60 | type, 0, 4, 1, 2, 3, 4]), sequenceNumber: 1 + UInt16(type), timestamp: 3000, marker: false)
        }
        #expect(d.statistics.unsupportedPackets == 4)
        #expect(d.statistics.lossEvents == 2) // 0 → 26 and 28 → 30 skip sequence numbers too
        d.reset()
        units = d.push([(NAL.idr(), 9000, true)], firstSequence: 40)
        #expect(units.count == 1)
        units = d.push([([0x1E, 1, 2], 12000, false), (NAL.slice(), 12000, true)], firstSequence: 41) // type 30
        #expect(units.count == 1) // undefined types do not damage the picture
        #expect(d.statistics.unsupportedPackets == 5)

        let malformed: [[UInt8]] = [
            [],                         // empty payload
            [0x80 | 0x65, 1, 2],        // forbidden_zero_bit
            [24, 0, 10, 0x65, 1],       // STAP-A that promises more than it has
            [24, 0],                    // STAP-A with half a size field
            [24],                       // STAP-A without units
            [24, 0, 2, 0xE5, 1],        // STAP-A holding a unit with the forbidden bit
            [28],                       // FU-A without its header
            [28, 0x05, 1, 2],           // FU-A middle without a start
        ]
        for (index, payload) in malformed.enumerated() {
            // each in a unit of its own: in a unit already damaged, an FU continuation is expected
            _ = d.push(payload: ByteBuffer(bytes: payload), sequenceNumber: 43 + UInt16(index), timestamp: 15000 + UInt32(index), marker: false)
        }
        #expect(d.statistics.malformedPackets == malformed.count)
        // ... and not counted again there.
        _ = d.push(payload: ByteBuffer(bytes: [28, 0x05, 1, 2]), sequenceNumber: 43 + UInt16(malformed.count), timestamp: 15000 + UInt32(malformed.count - 1), marker: false)
        #expect(d.statistics.malformedPackets == malformed.count)
    }

    @Test("FU-A type change, a new start before the end, and a unit ending inside an FU are malformed")
    func fragmentViolations() {
        var d = H264Depacketizer(parameterSets: [sps, pps])
        let a = H264Payload.fuA(NAL.idr(60), fragmentSize: 20)
        let b = H264Payload.fuA(NAL.slice(60), fragmentSize: 20)
        var units = d.push([(a[0], 0, false), (b[1], 0, false)], firstSequence: 0) // type 5 then type 1
        units += d.push([(NAL.idr(), 3000, true)], firstSequence: 2)
        #expect(units.map(\.rtpTimestamp) == [3000])
        units = d.push([(a[0], 6000, false), (a[0], 6000, false), (a[1], 6000, false), (a[2], 6000, true)], firstSequence: 3)
        #expect(units.isEmpty) // the first FU never ended: the unit is damaged
        units = d.push([(a[0], 9000, false), (a[1], 9000, true)], firstSequence: 7) // marker inside the FU
        #expect(units.isEmpty)
        #expect(d.statistics.malformedPackets == 3)
        #expect(d.statistics.droppedUnits == 3)
    }

    @Test("reset keeps the parameter sets, drops partial state and waits for a keyframe")
    func reset() {
        var d = H264Depacketizer(parameterSets: [sps, pps])
        _ = d.push([(NAL.idr(), 0, true)], firstSequence: 0)
        let fragments = H264Payload.fuA(NAL.idr(80), fragmentSize: 30)
        _ = d.push([(fragments[0], 3000, false)], firstSequence: 1)
        d.reset()
        #expect(d.format != nil)
        var units = d.push([(fragments[1], 3000, false), (fragments[2], 3000, true)], firstSequence: 900)
        #expect(units.isEmpty)
        units = d.push([(NAL.slice(), 6000, true), (NAL.idr(), 9000, true)], firstSequence: 902)
        #expect(units.map(\.rtpTimestamp) == [9000])
        #expect(d.statistics.lossEvents == 0)
        #expect(d.flush().isEmpty)
    }

    @Test("memory stays bounded: too many NAL units in a unit, parameter sets that never reach a picture")
    func bounds() {
        var d = H264Depacketizer(parameterSets: [sps, pps])
        _ = d.push([(NAL.idr(), 0, true)], firstSequence: 0)
        let tooMany = H264Payload.stapA([[UInt8]](repeating: [0x06], count: DepacketizerCore.maxUnitNALs) + [NAL.slice()])
        #expect(d.push([(tooMany, 3000, true)], firstSequence: 1).isEmpty)
        #expect(d.statistics.malformedPackets == 1 && d.statistics.droppedUnits == 1)

        // A sender of parameter sets alone: they are applied without waiting for a picture forever,
        // and the ones carried towards the next picture are capped.
        var e = H264Depacketizer()
        var units: [AccessUnit] = []
        for index in 0..<40 {
            units += e.push(payload: ByteBuffer(bytes: H264Payload.stapA([sps, pps])), sequenceNumber: UInt16(index), timestamp: UInt32(index) * 3000, marker: true)
        }
        #expect(units.isEmpty)
        #expect(e.format != nil && e.formatChanged)
        units = e.push([(NAL.idr(), 200_000, true)], firstSequence: 40)
        #expect(units.count == 1)
        #expect(units[0].nalUnits.count <= DepacketizerCore.maxCarriedNALs + 2 + 1)
    }

    @Test("garbage payloads never trap, and a good stream decodes afterwards")
    func garbage() {
        var d = H264Depacketizer(parameterSets: [sps, pps])
        var rng = SplitMix64(seed: 0x5EED)
        var sequence: UInt16 = 0
        for round in 0..<4000 {
            let length = Int(rng.next() % 64)
            var payload = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            if !payload.isEmpty && round % 2 == 0 { payload[0] &= 0x7F } // reach the type switch
            if round % 3 == 0 { sequence &+= UInt16(rng.next() % 3) }
            _ = d.push(payload: ByteBuffer(bytes: payload), sequenceNumber: sequence, timestamp: UInt32(round / 3), marker: rng.next() % 4 == 0)
            sequence &+= 1
        }
        _ = d.flush()
        d.reset()
        let units = d.push([(NAL.idr(), 1_000_000, true), (NAL.slice(), 1_003_000, true)], firstSequence: 7)
        #expect(units.count == 2)
    }
}

func stats(accessUnits: Int = 0, keyframes: Int = 0, droppedUnits: Int = 0, lossEvents: Int = 0,
           malformedPackets: Int = 0, unsupportedPackets: Int = 0) -> DepacketizerStatistics {
    var s = DepacketizerStatistics()
    s.accessUnits = accessUnits
    s.keyframes = keyframes
    s.droppedUnits = droppedUnits
    s.lossEvents = lossEvents
    s.malformedPackets = malformedPackets
    s.unsupportedPackets = unsupportedPackets
    return s
}

/// A small deterministic generator for fuzz-style tests.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
