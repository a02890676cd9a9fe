import NIOCore

/// NAL unit type values and header helpers shared by the depacketizers and parsers.
enum NALUnitType {
    /// ITU-T H.264 Table 7-1 and RFC 6184 Table 1 (packet types 24...29).
    enum H264 {
        static let nonIDRSlice: UInt8 = 1
        static let idrSlice: UInt8 = 5
        static let sei: UInt8 = 6
        static let sps: UInt8 = 7
        static let pps: UInt8 = 8
        static let accessUnitDelimiter: UInt8 = 9
        /// RFC 6184 §5.7.1
        static let stapA: UInt8 = 24
        static let stapB: UInt8 = 25
        /// RFC 6184 §5.7.2
        static let mtap16: UInt8 = 26
        static let mtap24: UInt8 = 27
        /// RFC 6184 §5.8
        static let fuA: UInt8 = 28
        static let fuB: UInt8 = 29

        /// Coded slice NAL units (types 1...5) make a picture.
        static func isVCL(_ type: UInt8) -> Bool { type >= 1 && type <= 5 }
    }

    /// ITU-T H.265 Table 7-1 and RFC 7798 §4.4 (packet types 48...50).
    enum H265 {
        static let vps: UInt8 = 32
        static let sps: UInt8 = 33
        static let pps: UInt8 = 34
        static let accessUnitDelimiter: UInt8 = 35
        /// RFC 7798 §4.4.2 Aggregation Packet
        static let aggregationPacket: UInt8 = 48
        /// RFC 7798 §4.4.3 Fragmentation Unit
        static let fragmentationUnit: UInt8 = 49
        /// RFC 7798 §4.4.4 PACI
        static let paci: UInt8 = 50

        /// VCL NAL unit types are 0...31 (reserved ones included).
        static func isVCL(_ type: UInt8) -> Bool { type <= 31 }
        /// IRAP pictures: BLA_W_LP 16 ... RSV_IRAP_VCL23 23.
        static func isIRAP(_ type: UInt8) -> Bool { type >= 16 && type <= 23 }
    }

    /// The nal_unit_type of a NAL unit in `buffer`, or nil when it is too short.
    static func of(_ buffer: ByteBuffer, codec: VideoCodec) -> UInt8? {
        guard let first = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return nil }
        switch codec {
        case .h264: return first & 0x1F
        case .h265: return buffer.readableBytes >= 2 ? (first >> 1) & 0x3F : nil
        }
    }

    /// The nal_unit_type of a NAL unit given as bytes, or nil when it is too short.
    static func of(_ bytes: [UInt8], codec: VideoCodec) -> UInt8? {
        switch codec {
        case .h264: return bytes.isEmpty ? nil : bytes[0] & 0x1F
        case .h265: return bytes.count < 2 ? nil : (bytes[0] >> 1) & 0x3F
        }
    }
}
