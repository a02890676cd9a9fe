import Foundation
import Store
import Testing

@Suite("Keyframe index")
struct KeyframeIndexTests {
    @Test("encode then decode gives the same entries; the form is compact")
    func roundTrip() throws {
        var index = KeyframeIndex()
        for second in 0..<60 {
            let added = index.append(mediaTimeMs: Int64(second) * 1000 + 3, offset: 1200 + Int64(second) * 500_000)
            #expect(added)
        }
        let data = index.encoded
        #expect(data.first == KeyframeIndex.version)
        #expect(data.count < 60 * 6)
        #expect(try KeyframeIndex(encoded: data) == index)
        #expect(try KeyframeIndex(encoded: KeyframeIndex().encoded).entries.isEmpty)
    }

    @Test("exact bytes: version 1, then LEB128 deltas")
    func bytes() {
        var index = KeyframeIndex()
        index.append(mediaTimeMs: 0, offset: 1000)        // 0, 1000 = e8 07
        index.append(mediaTimeMs: 2000, offset: 1300)     // 2000 = d0 0f, 300 = ac 02
        #expect([UInt8](index.encoded) == [1, 0x00, 0xE8, 0x07, 0xD0, 0x0F, 0xAC, 0x02])
    }

    func add(_ index: inout KeyframeIndex, mediaTimeMs: Int64, offset: Int64) -> Bool {
        index.append(mediaTimeMs: mediaTimeMs, offset: offset)
    }

    @Test("entries must move forward")
    func order() {
        var index = KeyframeIndex()
        #expect(add(&index, mediaTimeMs: 1000, offset: 500))
        #expect(!add(&index, mediaTimeMs: 900, offset: 600))
        #expect(!add(&index, mediaTimeMs: 1100, offset: 500))
        #expect(!add(&index, mediaTimeMs: -1, offset: 700))
        #expect(index.entries.count == 1)
    }

    @Test("lookup: the last keyframe at or before a time, the first before it")
    func lookup() {
        var index = KeyframeIndex()
        for second in [0, 2, 4, 6] { index.append(mediaTimeMs: Int64(second * 1000), offset: Int64(100 + second * 10)) }
        #expect(index.entry(atOrBefore: 3999)?.mediaTimeMs == 2000)
        #expect(index.entry(atOrBefore: 4000)?.mediaTimeMs == 4000)
        #expect(index.entry(atOrBefore: 99_000)?.mediaTimeMs == 6000)
        #expect(index.entry(atOrBefore: -5)?.mediaTimeMs == 0)
        #expect(KeyframeIndex().entry(atOrBefore: 0) == nil)
    }

    @Test("damaged bytes are refused, not misread")
    func damaged() {
        #expect(throws: StoreError.self) { try KeyframeIndex(encoded: Data()) }
        #expect(throws: StoreError.self) { try KeyframeIndex(encoded: Data([2, 0, 0])) }
        #expect(throws: StoreError.self) { try KeyframeIndex(encoded: Data([1, 0x80])) }      // ends inside a varint
        #expect(throws: StoreError.self) { try KeyframeIndex(encoded: Data([1, 0x05])) }      // a time without an offset
    }
}
