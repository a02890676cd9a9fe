import NIOCore

/// RFC 6184 depacketizer (non-interleaved mode, packetization-mode 0 and 1): single NAL unit packets
/// (types 1...23), STAP-A (24) and FU-A (28). STAP-B, MTAP16/24 and FU-B belong to the interleaved
/// mode and are counted as unsupported.
///
/// Access units end on the marker bit or on a timestamp change (some cameras never set the marker).
/// After a sequence gap the damaged unit and everything after it is dropped until the next IDR
/// picture; units before the first IDR are dropped too. Access unit delimiters are removed.
public struct H264Depacketizer: VideoDepacketizer {
    private var core: DepacketizerCore

    /// - Parameter parameterSets: SPS and PPS from the SDP's sprop-parameter-sets (RFC 6184 §8.1),
    ///   decoded from base64, in any order; any may be missing, and in-band ones replace them.
    public init(parameterSets: [[UInt8]] = []) {
        core = DepacketizerCore(codec: .h264, parameterSets: parameterSets)
    }

    public var codec: VideoCodec { .h264 }
    public var format: VideoFormat? { core.store.format }
    public var statistics: DepacketizerStatistics { core.statistics }
    public var formatChanged: Bool {
        get { core.formatChanged }
        set { core.formatChanged = newValue }
    }
    /// Why the last SPS or PPS received (from the SDP or in-band) could not be used, if it could not.
    public var parameterSetError: H26xError? { core.store.lastError }

    public mutating func push(payload: ByteBuffer, sequenceNumber: UInt16, timestamp: UInt32, marker: Bool) -> [AccessUnit] {
        var out: [AccessUnit] = []
        let start = payload.readerIndex
        let indicator = payload.getInteger(at: start, as: UInt8.self)
        let type = (indicator ?? 0) & 0x1F
        guard core.beginPacket(sequenceNumber: sequenceNumber, timestamp: timestamp,
                               startsCleanly: Self.startsCleanly(payload), into: &out) else {
            return out
        }
        if let indicator {
            if indicator & 0x80 != 0 {
                core.malformed(damaging: true) // forbidden_zero_bit / F bit (RFC 6184 §5.3)
            } else {
                switch type {
                case 1...23:
                    core.addNAL(payload)
                case NALUnitType.H264.stapA:
                    parseSTAPA(payload)
                case NALUnitType.H264.fuA:
                    parseFUA(payload, indicator: indicator)
                case NALUnitType.H264.stapB, NALUnitType.H264.mtap16, NALUnitType.H264.mtap24, NALUnitType.H264.fuB:
                    core.unsupported(damaging: true)
                default: // 0, 30, 31: undefined, not part of the video
                    core.unsupported(damaging: false)
                }
            }
        } else {
            core.malformed(damaging: false) // an empty payload carries nothing to lose
        }
        core.endPacket(marker: marker, into: &out)
        return out
    }

    public mutating func flush() -> [AccessUnit] {
        core.flush()
    }

    public mutating func reset() {
        core.reset()
    }

    /// RFC 6184 §5.7.1 STAP-A: the STAP-A NAL header, then for each NAL unit a 16-bit size and the unit.
    private mutating func parseSTAPA(_ payload: ByteBuffer) {
        var offset = payload.readerIndex + 1
        let end = payload.writerIndex
        var count = 0
        while offset < end {
            guard offset + 2 <= end, let size = payload.getInteger(at: offset, as: UInt16.self),
                  offset + 2 + Int(size) <= end else {
                core.malformed(damaging: true) // truncated
                return
            }
            offset += 2
            if size > 0, let nal = payload.getSlice(at: offset, length: Int(size)) {
                if nal.getInteger(at: nal.readerIndex, as: UInt8.self)! & 0x80 != 0 {
                    core.malformed(damaging: true)
                    return
                }
                core.addNAL(nal)
                count += 1
            }
            offset += Int(size)
        }
        if count == 0 { core.malformed(damaging: false) }
    }

    /// RFC 6184 §5.8 FU-A: FU indicator (F, NRI, type 28), FU header (S, E, R, type), fragment.
    private mutating func parseFUA(_ payload: ByteBuffer, indicator: UInt8) {
        let start = payload.readerIndex
        guard payload.readableBytes >= 2, let fuHeader = payload.getInteger(at: start + 1, as: UInt8.self),
              let fragment = payload.getSlice(at: start + 2, length: payload.readableBytes - 2) else {
            core.malformed(damaging: true)
            return
        }
        let isStart = fuHeader & 0x80 != 0
        let isEnd = fuHeader & 0x40 != 0
        let nalType = fuHeader & 0x1F
        if isStart {
            core.startFragment(header: ((indicator & 0xE0) | nalType, 0), type: nalType, payload: fragment, end: isEnd)
        } else {
            core.continueFragment(type: nalType, payload: fragment, end: isEnd)
        }
    }

    /// True when the packet's first NAL unit starts cleanly: it is not an FU continuation, and if it
    /// is a slice (types 1, 2, 5) its first_mb_in_slice is 0 (ue(v) 0 is a single 1 bit, §7.3.3).
    static func startsCleanly(_ payload: ByteBuffer) -> Bool {
        let start = payload.readerIndex
        guard let indicator = payload.getInteger(at: start, as: UInt8.self) else { return false }
        var type = indicator & 0x1F
        var sliceByteOffset = 1
        switch type {
        case NALUnitType.H264.stapA:
            // the first aggregated unit's header is after the STAP-A header and a 16-bit size
            guard let header = payload.getInteger(at: start + 3, as: UInt8.self) else { return false }
            type = header & 0x1F
            sliceByteOffset = 4
        case NALUnitType.H264.fuA:
            guard let fuHeader = payload.getInteger(at: start + 1, as: UInt8.self), fuHeader & 0x80 != 0 else { return false }
            type = fuHeader & 0x1F
            sliceByteOffset = 2
        default:
            break
        }
        switch type {
        case 1, 2, 5:
            guard let first = payload.getInteger(at: start + sliceByteOffset, as: UInt8.self) else { return false }
            return first & 0x80 != 0
        case 3, 4, 0, 24...31:
            return false
        default:
            return true
        }
    }
}
