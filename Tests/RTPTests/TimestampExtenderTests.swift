import Testing
@testable import RTP

@Suite("TimestampExtender")
struct TimestampExtenderTests {
    @Test func firstTimestampMapsToItself() {
        var extender = TimestampExtender()
        #expect(extender.lastExtended == nil)
        #expect(extender.extend(0xFFFF_0000) == 0xFFFF_0000)
        #expect(extender.lastExtended == 0xFFFF_0000)
    }

    @Test func wrapsForward() {
        var extender = TimestampExtender()
        #expect(extender.extend(0xFFFF_FC18) == 0xFFFF_FC18)
        #expect(extender.extend(0xFFFF_FFFF) == 0xFFFF_FFFF)
        #expect(extender.extend(0x0000_0000) == 0x1_0000_0000)
        #expect(extender.extend(0x0000_0E10) == 0x1_0000_0E10)
    }

    @Test func toleratesSmallBackwardSteps() {
        var extender = TimestampExtender()
        // Decode-order B-frames: I0 P3 B1 B2 at 3000 ticks per frame.
        #expect([0, 9000, 3000, 6000, 18000, 12000, 15000].map { extender.extend($0) } == [0, 9000, 3000, 6000, 18000, 12000, 15000])
    }

    @Test func stepsBackAcrossTheWrap() {
        var extender = TimestampExtender()
        #expect(extender.extend(0x0000_0100) == 0x100)
        #expect(extender.extend(0xFFFF_FF00) == -0x100)
        #expect(extender.extend(0x0000_0200) == 0x200)
        var late = TimestampExtender()
        _ = late.extend(0xFFFF_FF00)
        #expect(late.extend(0x0000_0100) == 0x1_0000_0100)
        #expect(late.extend(0xFFFF_FE00) == 0xFFFF_FE00)  // a late packet from before the wrap
        #expect(late.extend(0x0000_0300) == 0x1_0000_0300)
    }

    @Test func keepsCountingOverManyWraps() {
        var extender = TimestampExtender()
        var timestamp: UInt32 = 12345
        var expected = Int64(timestamp)
        _ = extender.extend(timestamp)
        for _ in 0..<100 {
            timestamp &+= 0x7FFF_FFFF  // the largest forward step it can tell from a backward one
            expected += 0x7FFF_FFFF
            #expect(extender.extend(timestamp) == expected)
        }
        #expect(expected > 40 * 0x1_0000_0000)
        #expect(UInt32(truncatingIfNeeded: expected) == timestamp)
    }

    @Test func resetStartsOver() {
        var extender = TimestampExtender()
        _ = extender.extend(0xFFFF_FFF0)
        _ = extender.extend(0x10)
        extender.reset()
        #expect(extender.extend(0x10) == 0x10)
    }
}
