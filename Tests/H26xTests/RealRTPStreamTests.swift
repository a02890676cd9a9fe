import NIOCore
import Testing
@testable import H26x

/// RTP packets from GStreamer's rtph264pay / rtph265pay (software none of us wrote), checked against
/// the Annex B stream that went into the payloader.
@Suite("Real RTP streams from GStreamer")
struct RealRTPStreamTests {
    /// The source stream split into access units: a new unit starts at an AUD or parameter set after a
    /// picture, or at a first slice after a picture. AUDs are removed (the depacketizer drops them).
    static func expectedUnits(_ annexB: [UInt8], codec: VideoCodec) -> [[[UInt8]]] {
        var units: [[[UInt8]]] = []
        var current: [[UInt8]] = []
        var hasPicture = false
        for nal in AnnexB.split(annexB) {
            let type = NALUnitType.of(nal, codec: codec)!
            let isVCL = codec == .h264 ? NALUnitType.H264.isVCL(type) : NALUnitType.H265.isVCL(type)
            let firstSlice = nal[codec == .h264 ? 1 : 2] & 0x80 != 0
            if hasPicture && (!isVCL || firstSlice) {
                units.append(current)
                current = []
                hasPicture = false
            }
            let isAUD = codec == .h264 ? type == NALUnitType.H264.accessUnitDelimiter : type == NALUnitType.H265.accessUnitDelimiter
            if !isAUD { current.append(nal) }
            if isVCL { hasPicture = true }
        }
        if !current.isEmpty { units.append(current) }
        return units
    }

    static let h264Packets = parseRFC4571(base64Bytes(Fixtures.h264RTPStream))
    static let h265Packets = parseRFC4571(base64Bytes(Fixtures.h265RTPStream))

    @Test("rtph264pay stream: every access unit matches the encoder's output")
    func h264() throws {
        let expected = Self.expectedUnits(base64Bytes(Fixtures.h264AnnexB), codec: .h264)
        #expect(expected.count == 6)
        var d = H264Depacketizer()
        var units: [AccessUnit] = []
        for packet in Self.h264Packets { units += d.push(packet) }
        units += d.flush()
        #expect(units.map(\.nalBytes) == expected)
        #expect(units.allSatisfy { $0.sampleIsConsistent })
        #expect(units.map(\.isKeyframe) == [true, false, false, true, false, false])
        #expect(Set(units.map(\.rtpTimestamp)).count == 6)
        #expect(d.statistics == stats(accessUnits: 6, keyframes: 2))
        let format = try #require(d.format)
        #expect(format.width == 176 && format.height == 144)
        #expect(format.profileName == "Constrained Baseline" && format.level == "1.0")
        #expect(format.codecString == "avc1.42c00a")
        // The stream crosses the sequence number wrap.
        #expect(Self.h264Packets.first!.sequenceNumber == 65530)
        // The Annex B output of each unit is the source stream without its AUDs.
        var annexB: [UInt8] = []
        for unit in units { annexB += unit.annexB().bytes }
        #expect(AnnexB.split(annexB) == expected.flatMap { $0 })
    }

    @Test("rtph265pay stream: every access unit matches the encoder's output")
    func h265() throws {
        let expected = Self.expectedUnits(base64Bytes(Fixtures.h265AnnexB), codec: .h265)
        #expect(expected.count == 5)
        var d = H265Depacketizer()
        var units: [AccessUnit] = []
        for packet in Self.h265Packets { units += d.push(packet) }
        units += d.flush()
        #expect(units.map(\.nalBytes) == expected)
        #expect(units.allSatisfy { $0.sampleIsConsistent })
        #expect(units.map(\.isKeyframe) == [true, false, false, true, false])
        #expect(d.statistics == stats(accessUnits: 5, keyframes: 2))
        let format = try #require(d.format)
        #expect(format.width == 128 && format.height == 72)
        #expect(format.profileName == "Main")
    }

    /// Losing any one packet never yields a corrupt picture: each unit that comes out is the source unit
    /// with the same timestamp, or that unit without some of its leading non-VCL NAL units (parameter
    /// sets, SEI) when the lost packet held only those. A slice is never missing or altered.
    @Test("losing any one packet never yields a corrupt unit", arguments: [VideoCodec.h264, .h265])
    func everySingleLoss(_ codec: VideoCodec) throws {
        let packets = codec == .h264 ? Self.h264Packets : Self.h265Packets
        let expected = Self.expectedUnits(base64Bytes(codec == .h264 ? Fixtures.h264AnnexB : Fixtures.h265AnnexB), codec: codec)
        var timestamps: [UInt32] = []
        for packet in packets where timestamps.last != packet.timestamp { timestamps.append(packet.timestamp) }
        try #require(timestamps.count == expected.count)
        let expectedByTimestamp = Dictionary(uniqueKeysWithValues: zip(timestamps, expected))
        var recoveredKeyframes = 0
        for lost in packets.indices {
            var d: any VideoDepacketizer = codec == .h264 ? H264Depacketizer() : H265Depacketizer()
            var units: [AccessUnit] = []
            for (index, packet) in packets.enumerated() where index != lost { units += d.push(packet) }
            units += d.flush()
            #expect(d.statistics.lossEvents == (lost == 0 || lost == packets.count - 1 ? 0 : 1), "lost \(lost)")
            #expect(d.statistics.accessUnits == units.count)
            #expect(units.reduce(0) { $0 + $1.nalUnits.count } < expected.reduce(0) { $0 + $1.count }, "lost \(lost): something must be missing")
            for unit in units {
                let source = try #require(expectedByTimestamp[unit.rtpTimestamp])
                let got = unit.nalBytes
                let missing = source.count - got.count
                #expect(missing >= 0 && Array(source.suffix(got.count)) == got, "lost \(lost): unit at \(unit.rtpTimestamp) differs")
                let dropped = source.prefix(max(0, missing))
                #expect(dropped.allSatisfy { nal in
                    let type = NALUnitType.of(nal, codec: codec)!
                    return codec == .h264 ? !NALUnitType.H264.isVCL(type) : !NALUnitType.H265.isVCL(type)
                }, "lost \(lost): a slice is missing")
                if missing > 0 && unit.isKeyframe && lost > 0 { recoveredKeyframes += 1 }
            }
        }
        // Losing the packet of parameter sets in front of the second keyframe keeps that keyframe.
        #expect(recoveredKeyframes >= 1)
    }

    @Test("the same streams split at every packet boundary into separate push calls give the same result")
    func pushOneByOneEqualsBatch() {
        var a = H264Depacketizer()
        var b = H264Depacketizer()
        let batch = Self.h264Packets.flatMap { a.push($0) }
        var single: [AccessUnit] = []
        for packet in Self.h264Packets {
            let copy = RTPPacket(payload: Array(packet.payload), sequenceNumber: packet.sequenceNumber, timestamp: packet.timestamp, marker: packet.marker)
            single += b.push(copy)
        }
        #expect(batch.map(\.nalBytes) == single.map(\.nalBytes))
    }
}
