import NIOCore
import Testing
@testable import H26x

@Suite("H.265 depacketizer (RFC 7798)")
struct H265DepacketizerTests {
    let fixture = Fixtures.h265[0]
    var parameterSets: [[UInt8]] { [fixture.sps, fixture.pps, fixture.vps] }

    @Test("single NAL unit packets; the format needs VPS, SPS and PPS")
    func singleNALUnits() throws {
        var partial = H265Depacketizer(parameterSets: [fixture.sps, fixture.pps])
        #expect(partial.format == nil)
        _ = partial.push([(fixture.vps, 0, false)], firstSequence: 0)
        _ = partial.push([(NAL.h265IDR(), 0, true)], firstSequence: 1)
        #expect(partial.format != nil && partial.formatChanged)

        var d = H265Depacketizer(parameterSets: parameterSets)
        let format = try #require(d.format)
        #expect(format.codec == .h265)
        #expect(format.parameterSets == [fixture.vps, fixture.sps, fixture.pps])
        #expect(format.codecString == "hvc1.1.6.L93.90")
        #expect(format.decoderConfigurationRecord == fixture.hvcC)
        let units = d.push([(NAL.h265AUD, 0, false), (NAL.h265IDR(), 0, true), (NAL.h265Trail(), 3000, true)], firstSequence: 7)
        #expect(units.map(\.isKeyframe) == [true, false])
        #expect(units[0].nalBytes == [NAL.h265IDR()]) // the AUD is removed
        #expect(units[0].codec == .h265)
    }

    @Test("units before the first IRAP are dropped; CRA counts as a keyframe")
    func keyframes() {
        var d = H265Depacketizer(parameterSets: parameterSets)
        let units = d.push([(NAL.h265Trail(), 0, true), (NAL.h265CRA(), 3000, true), (NAL.h265Trail(), 6000, true)], firstSequence: 0)
        #expect(units.map(\.rtpTimestamp) == [3000, 6000])
        #expect(units.map(\.isKeyframe) == [true, false])
        #expect(d.statistics == stats(accessUnits: 2, keyframes: 1, droppedUnits: 1))
    }

    @Test("AP: the units are slices of the payload")
    func aggregationPacket() throws {
        var d = H265Depacketizer()
        let idr = NAL.h265IDR(50)
        let payload = H265Payload.ap([fixture.vps, fixture.sps, fixture.pps, idr])
        let units = d.push([(payload, 90, true)], firstSequence: 3)
        let unit = try #require(units.first)
        #expect(unit.nalBytes == [fixture.vps, fixture.sps, fixture.pps, idr])
        #expect(d.format?.width == 1280)
        #expect(d.formatChanged)
    }

    @Test("FU reassembles a NAL unit at every fragment size", arguments: [1, 2, 5, 33, 97, 98, 300])
    func fuEveryFragmentSize(_ size: Int) {
        var d = H265Depacketizer(parameterSets: parameterSets)
        let idr = NAL.h265IDR(100)
        let fragments = H265Payload.fu(idr, fragmentSize: size)
        let units = d.push(fragments.enumerated().map { ($0.element, UInt32(77), $0.offset == fragments.count - 1) }, firstSequence: 65000)
        #expect(units.first?.nalBytes == [idr])
        #expect(units.first?.isKeyframe == true)
        #expect(d.statistics.malformedPackets == 0)
    }

    @Test("FU reassembly at every split point")
    func fuEverySplitPoint() {
        let cra = NAL.h265CRA(48)
        for split in 2..<(cra.count - 1) {
            var d = H265Depacketizer(parameterSets: parameterSets)
            let header: [UInt8] = [49 << 1, 0x01]
            let first = header + [0x80 | 21] + cra[2..<split]
            let last = header + [0x40 | 21] + cra[split...]
            let units = d.push([(first, 7, false), (last, 7, true)], firstSequence: 65535)
            #expect(units.first?.nalBytes == [cra], "split at \(split)")
        }
    }

    @Test("an FU with both S and E set is taken as a whole NAL unit (RFC 7798 forbids it; cameras send it)")
    func fuStartAndEnd() {
        var d = H265Depacketizer(parameterSets: parameterSets)
        let idr = NAL.h265IDR(20)
        let payload: [UInt8] = [49 << 1, 0x01, 0xC0 | 19] + idr.dropFirst(2)
        #expect(d.push([(payload, 1, true)], firstSequence: 0).first?.nalBytes == [idr])
    }

    @Test("marker-less streams split on timestamp changes")
    func markerless() {
        var d = H265Depacketizer(parameterSets: parameterSets)
        let idr = NAL.h265IDR(90)
        var packets: [([UInt8], UInt32, Bool)] = H265Payload.fu(idr, fragmentSize: 30).map { ($0, 0, false) }
        packets.append((NAL.h265Trail(), 3000, false))
        let units = d.push(packets, firstSequence: 1)
        #expect(units.map(\.nalBytes) == [[idr]])
        #expect(d.flush().map(\.rtpTimestamp) == [3000])
    }

    @Test("loss in the middle of an FU drops the unit and waits for the next IRAP")
    func lossInFragment() {
        var d = H265Depacketizer(parameterSets: parameterSets)
        _ = d.push([(NAL.h265IDR(), 0, true)], firstSequence: 0)
        let fragments = H265Payload.fu(NAL.h265Trail(100), fragmentSize: 30)
        var units = d.push(payload: ByteBuffer(bytes: fragments[0]), sequenceNumber: 1, timestamp: 3000, marker: false)
        units += d.push(payload: ByteBuffer(bytes: fragments[2]), sequenceNumber: 3, timestamp: 3000, marker: false)
        units += d.push(payload: ByteBuffer(bytes: fragments[3]), sequenceNumber: 4, timestamp: 3000, marker: true)
        units += d.push([(NAL.h265Trail(), 6000, true), (NAL.h265CRA(), 9000, true)], firstSequence: 5)
        #expect(units.map(\.rtpTimestamp) == [9000])
        #expect(d.statistics == stats(accessUnits: 2, keyframes: 2, droppedUnits: 2, lossEvents: 1))
    }

    @Test("sequence wrap, in-band parameter set change, reset")
    func wrapChangeReset() throws {
        var d = H265Depacketizer(parameterSets: parameterSets)
        let other = Fixtures.h265[1] // 1080p Main 10
        var units = d.push([(NAL.h265IDR(), 0, true), (NAL.h265Trail(), 3000, true)], firstSequence: 65535)
        #expect(units.count == 2 && d.statistics.lossEvents == 0)
        units = d.push([(H265Payload.ap([other.vps, other.sps, other.pps]), 6000, false), (NAL.h265IDR(), 6000, true)], firstSequence: 1)
        #expect(units.count == 1 && d.formatChanged)
        let format = try #require(d.format)
        #expect(format.width == 1920 && format.profileName == "Main 10")
        d.reset()
        #expect(d.format == format)
        units = d.push([(NAL.h265Trail(), 9000, true), (NAL.h265IDR(), 12000, true)], firstSequence: 100)
        #expect(units.map(\.rtpTimestamp) == [12000])
    }

    @Test("PACI is unsupported, types 51...63 ignored; malformed packets are counted")
    func unsupportedAndMalformed() {
        var d = H265Depacketizer(parameterSets: parameterSets)
        _ = d.push([(NAL.h265IDR(), 0, true)], firstSequence: 0)
        var units = d.push([([50 << 1, 1, 0, 0, 1, 2], 3000, false), (NAL.h265Trail(), 3000, true)], firstSequence: 1)
        #expect(units.isEmpty) // the PACI carried part of the picture
        units = d.push([(NAL.h265IDR(), 6000, true), ([55 << 1, 1, 9], 9000, false), (NAL.h265Trail(), 9000, true)], firstSequence: 3)
        #expect(units.count == 2)
        #expect(d.statistics.unsupportedPackets == 2)
        let malformed: [[UInt8]] = [
            [],                             // empty
            [0x02],                         // half a payload header
            [0x80 | 0x02, 0x01, 1],         // forbidden_zero_bit
            [48 << 1, 1, 0, 9, 2, 1],       // AP promising more than it has
            [48 << 1, 1],                   // AP without units
            [48 << 1, 1, 0, 1, 0x02],       // AP holding a one-byte unit
            [49 << 1, 1],                   // FU without its header
            [49 << 1, 1, 0x01, 5],          // FU middle without a start
        ]
        for (index, payload) in malformed.enumerated() {
            _ = d.push(payload: ByteBuffer(bytes: payload), sequenceNumber: 6 + UInt16(index), timestamp: 12000 + UInt32(index), marker: false)
        }
        #expect(d.statistics.malformedPackets == malformed.count)
    }

    @Test("DONL and DOND fields are skipped when sprop-max-don-diff is above 0")
    func donl() {
        var d = H265Depacketizer(parameterSets: parameterSets, maxDonDiff: 2)
        let idr = NAL.h265IDR(80)
        var packets: [([UInt8], UInt32, Bool)] = [(H265Payload.ap([NAL.h265AUD, fixture.vps], donl: 10), 0, false)]
        packets += H265Payload.fu(idr, fragmentSize: 30, donl: 12).map { ($0, 0, false) }
        packets[packets.count - 1].2 = true
        let trail = NAL.h265Trail()
        packets.append(([trail[0], trail[1], 0, 13] + trail.dropFirst(2), 3000, true)) // single NAL with DONL
        let units = d.push(packets, firstSequence: 0)
        #expect(units.map(\.nalBytes) == [[fixture.vps, idr], [trail]])
        #expect(d.statistics.unsupportedPackets == 0)
        // A DON that goes backwards: an interleaving sender.
        _ = d.push([([trail[0], trail[1], 0, 5] + trail.dropFirst(2), 6000, true)], firstSequence: UInt16(packets.count))
        #expect(d.statistics.unsupportedPackets == 1)
        #expect(d.statistics.malformedPackets == 0)
    }

    @Test("garbage payloads never trap, with and without DONL")
    func garbage() {
        for maxDonDiff in [0, 1] {
            var d = H265Depacketizer(parameterSets: parameterSets, maxDonDiff: maxDonDiff)
            var rng = SplitMix64(seed: 0xBEEF + UInt64(maxDonDiff))
            for round in 0..<4000 {
                let length = Int(rng.next() % 48)
                var payload = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                if payload.count > 1 && round % 2 == 0 {
                    payload[0] = (payload[0] & 0x7E) | (round % 4 == 0 ? 0x60 : 0) // often AP (48) or FU (49)
                    if round % 8 == 0 { payload[0] = 49 << 1 }
                }
                _ = d.push(payload: ByteBuffer(bytes: payload), sequenceNumber: UInt16(truncatingIfNeeded: round + Int(rng.next() % 2)),
                           timestamp: UInt32(round / 4), marker: rng.next() % 5 == 0)
            }
            _ = d.flush()
            d.reset()
            let idr = NAL.h265IDR()
            let single = maxDonDiff > 0 ? [idr[0], idr[1], 0, 0] + idr.dropFirst(2) : idr
            #expect(d.push([(single, 1, true)], firstSequence: 0).count == 1)
        }
    }
}
