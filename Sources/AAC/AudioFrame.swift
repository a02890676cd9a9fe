import NIOCore

/// One AAC access unit (a raw_data_block, ISO/IEC 14496-3 §4.4.2.1, with no ADTS header) and the RTP
/// timestamp of its first sample, in the RTP clock of the track.
public struct AudioFrame: Sendable, Equatable {
    public var data: ByteBuffer
    public var rtpTimestamp: UInt32

    public init(data: ByteBuffer, rtpTimestamp: UInt32) {
        self.data = data
        self.rtpTimestamp = rtpTimestamp
    }
}
