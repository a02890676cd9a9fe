import NIOCore
import Testing
@testable import AAC

/// RTP packets from GStreamer's rtpmp4gpay and ffmpeg's RTP muxer (software none of us wrote),
/// checked against the AAC frames the encoder gave them, written as ADTS by the same tools.
@Suite("Real RTP streams from GStreamer and ffmpeg")
struct RealRTPStreamTests {
    struct Stream: Sendable, CustomTestStringConvertible {
        var name: String
        var rtp: String
        var adts: String
        var fmtp: [String: String]
        var clockRate: Int
        var sampleRate: Int
        var channels: Int
        var testDescription: String { name }
    }

    static let gstreamerCaps = ["streamtype": "5", "profile-level-id": "2", "mode": "AAC-hbr",
                                "sizelength": "13", "indexlength": "3", "indexdeltalength": "3"]

    static let streams = [
        Stream(name: "rtpmp4gpay 16 kHz mono", rtp: Fixtures.gstreamer16kMonoRTP, adts: Fixtures.gstreamer16kMonoADTS,
               fmtp: gstreamerCaps.merging(["config": "140856e500"]) { $1 }, clockRate: 16000, sampleRate: 16000, channels: 1),
        Stream(name: "rtpmp4gpay mtu=80 48 kHz stereo (fragmented)", rtp: Fixtures.gstreamer48kStereoFragmentedRTP,
               adts: Fixtures.gstreamer48kStereoFragmentedADTS,
               fmtp: gstreamerCaps.merging(["config": "119056e500"]) { $1 }, clockRate: 48000, sampleRate: 48000, channels: 2),
        Stream(name: "ffmpeg 44.1 kHz stereo (8 AUs per packet)", rtp: Fixtures.ffmpeg44kStereoAggregatedRTP,
               adts: Fixtures.ffmpeg44kStereoAggregatedADTS,
               fmtp: ["profile-level-id": "1", "mode": "AAC-hbr", "sizelength": "13", "indexlength": "3",
                      "indexdeltalength": "3", "config": "121056E500"], clockRate: 44100, sampleRate: 44100, channels: 2),
    ]

    @Test("every AU matches the encoder's output", arguments: streams)
    func frames(_ stream: Stream) throws {
        let packets = parseRFC4571(base64Bytes(stream.rtp))
        let expected = splitADTS(base64Bytes(stream.adts))
        var d = try MPEG4GenericDepacketizer(formatParameters: stream.fmtp, clockRate: stream.clockRate)
        #expect(d.format.sampleRate == stream.sampleRate)
        #expect(d.format.channels == stream.channels)
        #expect(d.format.codecString == "mp4a.40.2")

        var frames: [AudioFrame] = []
        var packetOfFrame: [Int] = []
        for (index, packet) in packets.enumerated() {
            let out = d.push(payload: ByteBuffer(bytes: packet.payload), sequenceNumber: packet.sequenceNumber,
                             timestamp: packet.timestamp, marker: packet.marker)
            frames += out
            packetOfFrame += Array(repeating: index, count: out.count)
        }
        #expect(d.statistics.malformedPackets == 0)
        #expect(d.statistics.droppedFrames == 0)
        #expect(d.statistics.lossEvents == 0)
        #expect(frames.count >= 9)
        // ffmpeg's RTP muxer did not flush its last packet: compare what was sent.
        try #require(frames.count <= expected.count)
        for (index, frame) in frames.enumerated() {
            #expect(frame.data.bytes == expected[index].payload, "AU \(index)")
            // The ADTS header the tool wrote is the one ADTS.header makes, except that GStreamer's
            // aacparse sets private_bit, original_copy and home, which carry no meaning for decoding.
            let mask: [UInt8] = [0xFF, 0xFF, 0xFD, 0xCF, 0xFF, 0xFF, 0xFF]
            let made = zip(ADTS.header(for: d.config, payloadLength: frame.data.readableBytes), mask).map { $0 & $1 }
            #expect(made == zip(expected[index].header, mask).map { $0 & $1 }, "AU \(index)")
        }
        // Each packet's first AU has the packet's timestamp; the next ones follow at 1024 samples.
        for (index, frame) in frames.enumerated() {
            let packet = packets[packetOfFrame[index]]
            let position = packetOfFrame[..<index].filter { $0 == packetOfFrame[index] }.count
            #expect(frame.rtpTimestamp == packet.timestamp &+ UInt32(1024 * position), "AU \(index)")
        }
    }

    @Test("fragmented stream with each packet lost in turn: only the damaged AU is missing")
    func lossInFragmentedStream() throws {
        let packets = parseRFC4571(base64Bytes(Fixtures.gstreamer48kStereoFragmentedRTP))
        let expected = splitADTS(base64Bytes(Fixtures.gstreamer48kStereoFragmentedADTS)).map(\.payload)
        let fmtp = Self.gstreamerCaps.merging(["config": "119056e500"]) { $1 }
        let timestamps = Array(Set(packets.map(\.timestamp))).sorted()
        for lost in packets.indices {
            var d = try MPEG4GenericDepacketizer(formatParameters: fmtp, clockRate: 48000)
            var frames: [AudioFrame] = []
            for (index, packet) in packets.enumerated() where index != lost {
                frames += d.push(payload: ByteBuffer(bytes: packet.payload), sequenceNumber: packet.sequenceNumber,
                                 timestamp: packet.timestamp, marker: packet.marker)
            }
            let damaged = timestamps.firstIndex(of: packets[lost].timestamp)!
            var survivors = expected
            survivors.remove(at: damaged)
            #expect(frames.map(\.data.bytes) == survivors, "lost packet \(lost)")
            // Losing the very last packet leaves its AU waiting: nothing came after it to say it is lost.
            #expect(d.statistics.droppedFrames == (lost == packets.count - 1 ? 0 : 1), "lost packet \(lost)")
        }
    }
}
