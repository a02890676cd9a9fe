import NIOCore
import Testing
@testable import AAC

@Suite("MPEG4GenericDepacketizer (RFC 3640)")
struct MPEG4GenericDepacketizerTests {
    static func hbr(config: String = "1190", clockRate: Int = 48000, extra: [String: String] = [:]) throws -> MPEG4GenericDepacketizer {
        try MPEG4GenericDepacketizer(formatParameters: hbrParameters(config: config, extra: extra), clockRate: clockRate)
    }

    @Test("the format comes from config=")
    func format() throws {
        let d = try Self.hbr()
        #expect(d.format.codec == .aac)
        #expect(d.format.sampleRate == 48000)
        #expect(d.format.channels == 2)
        #expect(d.format.config == (try AudioSpecificConfig(hex: "1190")))
        #expect(d.format.codecString == "mp4a.40.2")
        #expect(d.frameDuration == 1024)
        let he = try Self.hbr(config: "2b118800")
        #expect(he.format.sampleRate == 48000) // the SBR output rate
        #expect(he.format.codecString == "mp4a.40.5")
    }

    @Test("unusable fmtp: a clear error", arguments: [
        (["mode": "AAC-hbr", "sizelength": "13"], "no config="),
        (["config": "11g0", "sizelength": "13"], "config= parameter is unusable"),
        (["config": "", "sizelength": "13"], "config= parameter is unusable"),
        (["config": "1190", "mode": "AAC-hbr", "indexlength": "3"], "no sizeLength"),
        (["config": "1190", "sizelength": "13", "streamtype": "4"], "not 5 (audio)"),
        (["config": "1190", "sizelength": "thirteen"], "sizeLength=thirteen"),
        (["config": "1190", "sizelength": "40"], "from 0 to 32"),
        (["config": "1190", "sizelength": "-1"], "sizeLength=-1"),
    ] as [([String: String], String)])
    func unusable(_ parameters: [String: String], _ message: String) {
        #expect {
            try MPEG4GenericDepacketizer(formatParameters: parameters, clockRate: 48000)
        } throws: { error in
            (error as? AACError)?.description.contains(message) == true
        }
    }

    @Test("AU-Index-deltas beyond any interleaving pattern are refused")
    func hugeIndexDelta() throws {
        var d = try Self.hbr(extra: ["indexdeltalength": "32"])
        let payload = rfc3640Payload(headerFields: [(1, 13), (0, 3), (1, 13), (Int(UInt32.max), 32)], data: [1, 2])
        #expect(d.push(payload: ByteBuffer(bytes: payload), sequenceNumber: 1, timestamp: 0, marker: true).isEmpty)
        #expect(d.statistics.malformedPackets == 1)
    }

    @Test("informative parameters that are not numbers are ignored")
    func informativeParameters() throws {
        let d = try Self.hbr(extra: ["profile-level-id": "0x29", "streamtype": "audio"])
        #expect(d.parameters.profileLevelID == nil)
        #expect(d.parameters.streamType == nil)
    }

    @Test("a clock rate of 0 is refused")
    func zeroClockRate() {
        #expect(throws: AACError.self) { try MPEG4GenericDepacketizer(formatParameters: hbrParameters(), clockRate: 0) }
    }

    @Test("parameter names in any case")
    func parameterCase() throws {
        let parameters = try MPEG4GenericParameters(formatParameters: [
            "SizeLength": "13", "IndexLength": "3", "IndexDeltaLength": "3", "Config": "1190",
            "CTSDeltaLength": "16", "randomaccessindication": "1", "streamStateIndication": " 2 ",
        ])
        #expect(parameters.sizeLength == 13 && parameters.indexLength == 3 && parameters.indexDeltaLength == 3)
        #expect(parameters.ctsDeltaLength == 16)
        #expect(parameters.randomAccessIndication)
        #expect(parameters.streamStateIndication == 2)
        #expect(parameters.config == "1190")
        #expect(parameters.hasAUHeaderSection)
        #expect(!(try MPEG4GenericParameters(formatParameters: ["constantsize": "20"])).hasAUHeaderSection)
    }

    @Test("one AU per packet")
    func oneAUPerPacket() throws {
        var d = try Self.hbr()
        let frames = d.push([(hbrPayload([pattern(200)]), 1000, true), (hbrPayload([pattern(150, seed: 1)]), 2024, true)],
                            firstSequence: 7)
        #expect(frames.map(\.data.bytes) == [pattern(200), pattern(150, seed: 1)])
        #expect(frames.map(\.rtpTimestamp) == [1000, 2024])
        #expect(d.statistics.frames == 2)
        #expect(d.statistics.malformedPackets == 0)
    }

    @Test("several AUs per packet: the n-th is n × 1024 later")
    func severalAUs() throws {
        var d = try Self.hbr()
        let units = [pattern(10), pattern(300, seed: 1), pattern(1, seed: 2)]
        let frames = d.push(payload: ByteBuffer(bytes: hbrPayload(units)), sequenceNumber: 1, timestamp: 5000, marker: true)
        #expect(frames.map(\.data.bytes) == units)
        #expect(frames.map(\.rtpTimestamp) == [5000, 6024, 7048])
    }

    @Test("AU durations in a clock rate that is not the sampling rate")
    func otherClockRate() throws {
        var d = try Self.hbr(config: "1210", clockRate: 90000) // 44.1 kHz: 2089.8 ticks per AU
        let frames = d.push(payload: ByteBuffer(bytes: hbrPayload([[1], [2], [3]])), sequenceNumber: 1, timestamp: 0, marker: true)
        #expect(frames.map(\.rtpTimestamp) == [0, 2089, 4179])
    }

    @Test("timestamps wrap around 2^32")
    func wrap() throws {
        var d = try Self.hbr()
        let frames = d.push(payload: ByteBuffer(bytes: hbrPayload([[1], [2]])), sequenceNumber: 65535, timestamp: UInt32.max - 23, marker: true)
        #expect(frames.map(\.rtpTimestamp) == [UInt32.max - 23, 1000])
    }

    @Test("AU-Index-delta spaces the timestamps (interleaving)")
    func indexDelta() throws {
        var d = try Self.hbr()
        let payload = hbrPayload([[1], [2], [3]], indexDeltas: [1, 0]) // serial numbers 0, 2, 3
        let frames = d.push(payload: ByteBuffer(bytes: payload), sequenceNumber: 1, timestamp: 100, marker: true)
        #expect(frames.map(\.rtpTimestamp) == [100, 100 + 2048, 100 + 3072])
    }

    @Test("constantDuration replaces the frame length")
    func constantDuration() throws {
        var d = try Self.hbr(extra: ["constantduration": "960"])
        let frames = d.push(payload: ByteBuffer(bytes: hbrPayload([[1], [2]])), sequenceNumber: 1, timestamp: 0, marker: true)
        #expect(frames.map(\.rtpTimestamp) == [0, 960])
        #expect(d.frameDuration == 960)
    }

    @Test("a 960-sample frame length from the config")
    func frameLength960() throws {
        var d = try Self.hbr(config: "1194")
        let frames = d.push(payload: ByteBuffer(bytes: hbrPayload([[1], [2]])), sequenceNumber: 1, timestamp: 0, marker: true)
        #expect(frames.map(\.rtpTimestamp) == [0, 960])
    }

    @Test("CTS-delta (two's complement) gives the later AUs' timestamps")
    func ctsDelta() throws {
        var d = try Self.hbr(extra: ["ctsdeltalength": "8"])
        // AU 1: no CTS; AU 2: CTS-delta −16; AU 3: CTS-flag 0, so its place in the sequence.
        let payload = rfc3640Payload(headerFields: [(1, 13), (0, 3), (0, 1),
                                                    (1, 13), (0, 3), (1, 1), (0xF0, 8),
                                                    (1, 13), (0, 3), (0, 1)], data: [7, 8, 9])
        let frames = d.push(payload: ByteBuffer(bytes: payload), sequenceNumber: 1, timestamp: 1000, marker: true)
        #expect(frames.map(\.rtpTimestamp) == [1000, 984, 3048])
        #expect(frames.map(\.data.bytes) == [[7], [8], [9]])
    }

    @Test("DTS, RAP-flag and Stream-state fields are read past")
    func otherHeaderFields() throws {
        var d = try Self.hbr(extra: ["dtsdeltalength": "6", "randomaccessindication": "1", "streamstateindication": "2"])
        let payload = rfc3640Payload(headerFields: [(2, 13), (0, 3), (1, 1), (5, 6), (1, 1), (3, 2),
                                                    (1, 13), (0, 3), (0, 1), (0, 1), (1, 2)], data: [1, 2, 3])
        let frames = d.push(payload: ByteBuffer(bytes: payload), sequenceNumber: 1, timestamp: 0, marker: true)
        #expect(frames.map(\.data.bytes) == [[1, 2], [3]])
        #expect(d.statistics.malformedPackets == 0)
    }

    @Test("the Auxiliary Section is skipped")
    func auxiliarySection() throws {
        var d = try Self.hbr(extra: ["auxiliarydatasizelength": "8"])
        // AU-headers, then auxiliary-data-size = 12 bits, 12 bits of data, 4 bits of padding.
        let headers: [UInt8] = [0x00, 0x10, 0x00, 0x28] // AU-headers-length 16, AU-size 5, AU-Index 0
        let bytes = headers + [12, 0xAB, 0xC0] + [1, 2, 3, 4, 5]
        let frames = d.push(payload: ByteBuffer(bytes: bytes), sequenceNumber: 1, timestamp: 0, marker: true)
        #expect(frames.map(\.data.bytes) == [[1, 2, 3, 4, 5]])
    }

    @Test("AAC-lbr: sizeLength=6 indexLength=2 indexDeltaLength=2")
    func lowBitRate() throws {
        var d = try MPEG4GenericDepacketizer(formatParameters: [
            "streamtype": "5", "mode": "AAC-lbr", "config": "1588", "sizelength": "6", "indexlength": "2",
            "indexdeltalength": "2", "maxdisplacement": "0", "constantduration": "1024",
        ], clockRate: 8000)
        let units = [pattern(20), pattern(63, seed: 1), pattern(5, seed: 2)]
        let payload = rfc3640Payload(headerFields: [(20, 6), (0, 2), (63, 6), (0, 2), (5, 6), (1, 2)], data: units.flatMap { $0 })
        #expect(payload.prefix(2) == [0, 24])
        let frames = d.push(payload: ByteBuffer(bytes: payload), sequenceNumber: 1, timestamp: 0, marker: true)
        #expect(frames.map(\.data.bytes) == units)
        #expect(frames.map(\.rtpTimestamp) == [0, 1024, 3072])
    }

    @Test("an AU in 3 fragments, marker on the last")
    func fragmented() throws {
        var d = try Self.hbr()
        let unit = pattern(300)
        var frames = d.push(payload: ByteBuffer(bytes: hbrFragment(auSize: 300, unit[0..<100])), sequenceNumber: 9, timestamp: 7, marker: false)
        #expect(frames.isEmpty)
        frames = d.push(payload: ByteBuffer(bytes: hbrFragment(auSize: 300, unit[100..<200])), sequenceNumber: 10, timestamp: 7, marker: false)
        #expect(frames.isEmpty)
        frames = d.push(payload: ByteBuffer(bytes: hbrFragment(auSize: 300, unit[200..<300])), sequenceNumber: 11, timestamp: 7, marker: true)
        #expect(frames == [AudioFrame(data: ByteBuffer(bytes: unit), rtpTimestamp: 7)])
        #expect(d.statistics == { var s = AudioDepacketizerStatistics(); s.frames = 1; return s }())
    }

    @Test("fragments split at every byte, and one byte per packet")
    func everySplitPoint() throws {
        let unit = pattern(40)
        for split in 1..<unit.count {
            var d = try Self.hbr()
            let frames = d.push([(hbrFragment(auSize: 40, unit[..<split]), 0, false),
                                 (hbrFragment(auSize: 40, unit[split...]), 0, true)], firstSequence: 0)
            #expect(frames.map(\.data.bytes) == [unit], "split at \(split)")
        }
        var d = try Self.hbr()
        let packets = unit.indices.map { (hbrFragment(auSize: 40, unit[$0...$0]), UInt32(0), $0 == unit.count - 1) }
        #expect(d.push(packets, firstSequence: 65530).map(\.data.bytes) == [unit])
    }

    @Test("a lost middle fragment drops the AU, and the next AU is fine")
    func lostMiddleFragment() throws {
        var d = try Self.hbr()
        let unit = pattern(300)
        var frames = d.push(payload: ByteBuffer(bytes: hbrFragment(auSize: 300, unit[0..<100])), sequenceNumber: 1, timestamp: 0, marker: false)
        frames += d.push(payload: ByteBuffer(bytes: hbrFragment(auSize: 300, unit[200..<300])), sequenceNumber: 3, timestamp: 0, marker: true)
        #expect(frames.isEmpty)
        frames = d.push(payload: ByteBuffer(bytes: hbrPayload([pattern(50)])), sequenceNumber: 4, timestamp: 1024, marker: true)
        #expect(frames.map(\.data.bytes) == [pattern(50)])
        #expect(d.statistics.lossEvents == 1)
        #expect(d.statistics.droppedFrames == 1)
        #expect(d.statistics.droppedFragments == 2)
        #expect(d.statistics.frames == 1)
    }

    @Test("a lost first fragment: the rest cannot make an AU")
    func lostFirstFragment() throws {
        var d = try Self.hbr()
        let unit = pattern(300)
        var frames = d.push(payload: ByteBuffer(bytes: hbrPayload([pattern(5)])), sequenceNumber: 0, timestamp: 0, marker: true)
        frames += d.push([(hbrFragment(auSize: 300, unit[100..<200]), 1024, false),
                          (hbrFragment(auSize: 300, unit[200..<300]), 1024, true)], firstSequence: 2)
        #expect(frames.map(\.data.bytes) == [pattern(5)])
        #expect(d.statistics.droppedFrames == 1)
        #expect(d.statistics.droppedFragments == 2)
    }

    @Test("a loss that goes unnoticed still cannot produce a short AU; a missing marker is tolerated")
    func fragmentSizes() throws {
        var d = try Self.hbr()
        let unit = pattern(300)
        // Marker on a fragment that leaves the AU short.
        var frames = d.push([(hbrFragment(auSize: 300, unit[0..<100]), 0, false),
                             (hbrFragment(auSize: 300, unit[100..<200]), 0, true)], firstSequence: 0)
        #expect(frames.isEmpty)
        // All the bytes but no marker (a camera quirk): complete on the AU-size.
        frames = d.push([(hbrFragment(auSize: 300, unit[0..<150]), 1024, false),
                         (hbrFragment(auSize: 300, unit[150..<300]), 1024, false)], firstSequence: 2)
        #expect(frames.map(\.data.bytes) == [unit])
        // More bytes than the AU-size: malformed.
        frames = d.push([(hbrFragment(auSize: 300, unit[0..<200]), 2048, false),
                         (hbrFragment(auSize: 300, unit[0..<200]), 2048, true)], firstSequence: 4)
        #expect(frames.isEmpty)
        #expect(d.statistics.malformedPackets == 1)
        #expect(d.statistics.droppedFrames == 2)
    }

    @Test("a fragment run interrupted by a new AU is dropped")
    func interruptedFragments() throws {
        var d = try Self.hbr()
        let frames = d.push([(hbrFragment(auSize: 300, pattern(100)), 0, false),
                             (hbrPayload([pattern(20)]), 1024, true)], firstSequence: 0)
        #expect(frames.map(\.data.bytes) == [pattern(20)])
        #expect(d.statistics.droppedFrames == 1)
        #expect(d.statistics.lossEvents == 0)
    }

    @Test("an AU-headers-length of 0 carries no AU: counted as malformed")
    func headerLengthZero() throws {
        var d = try Self.hbr()
        #expect(d.push(payload: ByteBuffer(bytes: [0, 0, 1, 2, 3]), sequenceNumber: 1, timestamp: 0, marker: true).isEmpty)
        #expect(d.push(payload: ByteBuffer(bytes: [0, 0]), sequenceNumber: 2, timestamp: 0, marker: true).isEmpty)
        #expect(d.statistics.malformedPackets == 2)
    }

    @Test("malformed payloads are counted and skipped", arguments: [
        [UInt8](),                                     // zero-length payload
        [0x00],                                        // half an AU-headers-length
        [0x00, 0x40, 0x00, 0x28],                      // AU-headers-length 64 bits, 2 bytes of headers
        [0x00, 0x10, 0x00],                            // AU-header cut short
        [0x00, 0x10, 0x00, 0x28],                      // an AU-header for 5 bytes, and no data at all
        [0x00, 0x0C, 0x00, 0x20, 1, 2, 3, 4],          // 12 bits: not a whole 16-bit AU-header
        Array(hbrPayload([[1, 2], [3, 4]]).dropLast(1)), // two AUs, a byte missing
    ] as [[UInt8]])
    func malformed(_ payload: [UInt8]) throws {
        var d = try Self.hbr()
        let unit = pattern(300)
        _ = d.push(payload: ByteBuffer(bytes: hbrFragment(auSize: 300, unit[0..<100])), sequenceNumber: 1, timestamp: 0, marker: false)
        #expect(d.push(payload: ByteBuffer(bytes: payload), sequenceNumber: 2, timestamp: 0, marker: false).isEmpty)
        #expect(d.statistics.malformedPackets == 1)
        #expect(d.statistics.droppedFrames == 1) // the fragment run it interrupted
        // The rest of that AU is discarded; the next AU is fine.
        #expect(d.push(payload: ByteBuffer(bytes: hbrFragment(auSize: 300, unit[100...])), sequenceNumber: 3, timestamp: 0, marker: true).isEmpty)
        #expect(d.push(payload: ByteBuffer(bytes: hbrPayload([[9]])), sequenceNumber: 4, timestamp: 1024, marker: true).map(\.data.bytes) == [[9]])
    }

    @Test("duplicates are ignored; zero-size AUs are skipped")
    func duplicatesAndEmptyAUs() throws {
        var d = try Self.hbr()
        let payload = hbrPayload([[1], [], [3]])
        var frames = d.push(payload: ByteBuffer(bytes: payload), sequenceNumber: 5, timestamp: 0, marker: true)
        frames += d.push(payload: ByteBuffer(bytes: payload), sequenceNumber: 5, timestamp: 0, marker: true)
        #expect(frames.map(\.data.bytes) == [[1], [3]])
        #expect(frames.map(\.rtpTimestamp) == [0, 2048])
        #expect(d.statistics.duplicatePackets == 1)
        #expect(d.statistics.frames == 2)
    }

    @Test("a payload that does not start at index 0 of its buffer")
    func readerIndex() throws {
        var d = try Self.hbr()
        var buffer = ByteBuffer(bytes: [0xEE, 0xEE, 0xEE] + hbrPayload([[1, 2], [3]]))
        buffer.moveReaderIndex(forwardBy: 3)
        let frames = d.push(payload: buffer, sequenceNumber: 1, timestamp: 0, marker: true)
        #expect(frames.map(\.data.bytes) == [[1, 2], [3]])
    }

    @Test("constantSize without any AU-header: whole AUs, or a fragment of one")
    func constantSize() throws {
        var d = try MPEG4GenericDepacketizer(formatParameters: ["config": "1408", "constantsize": "4"], clockRate: 16000)
        var frames = d.push(payload: ByteBuffer(bytes: pattern(8)), sequenceNumber: 1, timestamp: 0, marker: true)
        #expect(frames.map(\.data.bytes) == [Array(pattern(8)[0..<4]), Array(pattern(8)[4..<8])])
        #expect(frames.map(\.rtpTimestamp) == [0, 1024])
        frames = d.push([([1, 2], 2048, false), ([3, 4], 2048, true)], firstSequence: 2)
        #expect(frames.map(\.data.bytes) == [[1, 2, 3, 4]])
        #expect(d.push(payload: ByteBuffer(bytes: pattern(6)), sequenceNumber: 4, timestamp: 0, marker: true).isEmpty)
        #expect(d.statistics.malformedPackets == 1)
    }

    @Test("an absurd AU-size in a fragment is refused")
    func hugeAUSize() throws {
        var d = try Self.hbr(extra: ["sizelength": "32", "indexlength": "0", "indexdeltalength": "0"])
        let payload = rfc3640Payload(headerFields: [(Int(UInt32.max), 32)], data: [1, 2, 3])
        #expect(d.push(payload: ByteBuffer(bytes: payload), sequenceNumber: 1, timestamp: 0, marker: false).isEmpty)
        #expect(d.statistics.malformedPackets == 1)
    }

    @Test("reset forgets a partial AU and the sequence number")
    func reset() throws {
        var d = try Self.hbr()
        let unit = pattern(300)
        _ = d.push(payload: ByteBuffer(bytes: hbrFragment(auSize: 300, unit[0..<100])), sequenceNumber: 1, timestamp: 0, marker: false)
        d.reset()
        let frames = d.push(payload: ByteBuffer(bytes: hbrPayload([[1]])), sequenceNumber: 900, timestamp: 5, marker: true)
        #expect(frames.map(\.data.bytes) == [[1]])
        #expect(d.statistics.lossEvents == 0)
    }

    @Test("random payloads never trap, with any header layout", arguments: [
        hbrParameters(),
        hbrParameters(extra: ["ctsdeltalength": "3", "dtsdeltalength": "2", "randomaccessindication": "1",
                              "streamstateindication": "1", "auxiliarydatasizelength": "5"]),
        ["config": "1588", "sizelength": "6", "indexlength": "2", "indexdeltalength": "2"],
        ["config": "1588", "constantsize": "3"],
        ["config": "1588", "sizelength": "1", "indexlength": "0", "indexdeltalength": "0"],
        ["config": "1588", "sizelength": "4", "indexlength": "0", "indexdeltalength": "32", "ctsdeltalength": "32"],
    ])
    func randomPayloads(_ parameters: [String: String]) throws {
        var d = try MPEG4GenericDepacketizer(formatParameters: parameters, clockRate: 8000)
        var generator = SplitMix64(state: 6184)
        var returned = 0
        for sequence in 0..<20_000 {
            let count = Int.random(in: 0...40, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if count >= 2, Bool.random(using: &generator) { bytes[0] = 0 } // plausible AU-headers-lengths
            let frames = d.push(payload: ByteBuffer(bytes: bytes), sequenceNumber: UInt16(truncatingIfNeeded: sequence * 7 / 6),
                                timestamp: UInt32.random(in: 0...3, using: &generator), marker: Bool.random(using: &generator))
            for frame in frames { #expect(frame.data.readableBytes > 0) }
            returned += frames.count
        }
        #expect(d.statistics.frames == returned)
        #expect(d.statistics.malformedPackets > 0)
    }
}
