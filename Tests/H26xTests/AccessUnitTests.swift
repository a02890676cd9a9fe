import NIOCore
import Testing
@testable import H26x

@Suite("Access units and Annex B")
struct AccessUnitTests {
    let unit = AccessUnit(codec: .h264, nalUnits: [ByteBuffer(bytes: [0x67, 1, 2]), ByteBuffer(bytes: [0x65] + [UInt8](repeating: 7, count: 300))],
                          isKeyframe: true, rtpTimestamp: 9)

    @Test("avcc writes big-endian length prefixes of 1 to 4 bytes")
    func avcc() {
        #expect(unit.byteCount == 304)
        #expect(unit.avcc().bytes == [0, 0, 0, 3, 0x67, 1, 2, 0, 0, 1, 45, 0x65] + [UInt8](repeating: 7, count: 300))
        #expect(unit.avcc(lengthSize: 2).bytes == [0, 3, 0x67, 1, 2, 1, 45, 0x65] + [UInt8](repeating: 7, count: 300))
        #expect(unit.avcc(lengthSize: 3).bytes.prefix(8) == [0, 0, 3, 0x67, 1, 2, 0, 1])
        let small = AccessUnit(codec: .h265, nalUnits: [ByteBuffer(bytes: [0x26, 1, 9])], isKeyframe: true, rtpTimestamp: 0)
        #expect(small.avcc(lengthSize: 1).bytes == [3, 0x26, 1, 9])
    }

    @Test("annexB writes 4-byte start codes and splits back to the same units")
    func annexB() {
        let bytes = unit.annexB().bytes
        #expect(bytes.prefix(8) == [0, 0, 0, 1, 0x67, 1, 2, 0])
        #expect(AnnexB.split(bytes) == unit.nalBytes)
        #expect(AnnexB.split(unit.annexB()).map(\.bytes) == unit.nalBytes)
    }

    @Test("annexB(parameterSets:) prepends the format's sets only when the unit has no SPS")
    func annexBWithParameterSets() {
        let sets = [Fixtures.h264[0].sps, Fixtures.h264[0].pps]
        #expect(AnnexB.split(unit.annexB(parameterSets: sets).bytes) == unit.nalBytes)
        let bare = AccessUnit(codec: .h264, nalUnits: [ByteBuffer(bytes: [0x65, 0x88])], isKeyframe: true, rtpTimestamp: 0)
        #expect(AnnexB.split(bare.annexB(parameterSets: sets).bytes) == sets + [[0x65, 0x88]])
        let h265 = Fixtures.h265[0]
        let bare265 = AccessUnit(codec: .h265, nalUnits: [ByteBuffer(bytes: NAL.h265IDR())], isKeyframe: true, rtpTimestamp: 0)
        #expect(AnnexB.split(bare265.annexB(parameterSets: [h265.vps, h265.sps, h265.pps]).bytes) == [h265.vps, h265.sps, h265.pps, NAL.h265IDR()])
    }

    @Test("AnnexB.split: 3- and 4-byte start codes, trailing zeros, leading junk, empty units")
    func split() {
        #expect(AnnexB.split([]) == [])
        #expect(AnnexB.split([1, 2, 3]) == [])
        #expect(AnnexB.split([0, 0, 1]) == [])
        #expect(AnnexB.split([9, 9, 0, 0, 1, 0x67, 5, 0, 0, 0, 1, 0x68, 6, 0, 0, 1, 0, 0, 1, 0x65, 0, 0]) == [[0x67, 5], [0x68, 6], [0x65]])
        #expect(AnnexB.split([0, 0, 0, 1, 0x41, 0, 0, 3, 1]) == [[0x41, 0, 0, 3, 1]]) // emulation prevention is kept
        #expect(AnnexB.split([0, 0, 1, 2, 1, 1, 0, 0, 1, 3]) == [[2, 1, 1], [3]])
    }

    @Test("AnnexB.split of the real clips finds the parameter sets the fixtures hold")
    func splitRealClips() {
        let h264 = AnnexB.split(base64Bytes(Fixtures.h264AnnexB))
        #expect(h264.count == 17)
        #expect(h264.filter { $0[0] & 0x1F == 5 }.count == 2)
        let h265 = AnnexB.split(base64Bytes(Fixtures.h265AnnexB))
        #expect(h265.map { ($0[0] >> 1) & 0x3F } == [32, 33, 34, 32, 33, 34, 20, 1, 1, 32, 33, 34, 21, 1])
    }
}
