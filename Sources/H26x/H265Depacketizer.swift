import NIOCore

/// RFC 7798 depacketizer: single NAL unit packets (types 0...47), aggregation packets (AP, 48) and
/// fragmentation units (FU, 49). PACI (50) and the undefined types 51...63 are counted as unsupported.
///
/// Access units end on the marker bit or on a timestamp change. After a sequence gap the damaged unit
/// and everything after it is dropped until the next IRAP picture (types 16...23); units before the
/// first IRAP are dropped too. Access unit delimiters (35) are removed.
///
/// DONL/DOND fields (present when sprop-max-don-diff or sprop-depack-buf-nalus is above 0, RFC 7798
/// §7.1) are read and skipped; NAL units are kept in transmission order, which is their decoding order
/// for a single-stream sender. A DON that goes backwards means the sender interleaves: such packets are
/// counted as unsupported (the units are still delivered, in transmission order).
public struct H265Depacketizer: VideoDepacketizer {
    private var core: DepacketizerCore
    private let hasDONL: Bool
    private var lastDON: UInt16?

    /// - Parameters:
    ///   - parameterSets: VPS, SPS and PPS from the SDP's sprop-vps, sprop-sps and sprop-pps (RFC 7798
    ///     §7.1), decoded from base64, in any order; any may be missing, and in-band ones replace them.
    ///   - maxDonDiff: the SDP's sprop-max-don-diff (or any value above 0 when sprop-depack-buf-nalus is
    ///     above 0): the payloads then carry DONL/DOND fields.
    public init(parameterSets: [[UInt8]] = [], maxDonDiff: Int = 0) {
        core = DepacketizerCore(codec: .h265, parameterSets: parameterSets)
        hasDONL = maxDonDiff > 0
    }

    public var codec: VideoCodec { .h265 }
    public var format: VideoFormat? { core.store.format }
    public var statistics: DepacketizerStatistics { core.statistics }
    public var formatChanged: Bool {
        get { core.formatChanged }
        set { core.formatChanged = newValue }
    }
    /// Why the last VPS, SPS or PPS received (from the SDP or in-band) could not be used, if it could not.
    public var parameterSetError: H26xError? { core.store.lastError }

    public mutating func push(payload: ByteBuffer, sequenceNumber: UInt16, timestamp: UInt32, marker: Bool) -> [AccessUnit] {
        var out: [AccessUnit] = []
        guard core.beginPacket(sequenceNumber: sequenceNumber, timestamp: timestamp,
                               startsCleanly: startsCleanly(payload), into: &out) else {
            return out
        }
        let start = payload.readerIndex
        if let header = payload.getInteger(at: start, as: UInt16.self) {
            let byte0 = UInt8(header >> 8)
            let type = (byte0 >> 1) & 0x3F
            if byte0 & 0x80 != 0 {
                core.malformed(damaging: true) // forbidden_zero_bit (RFC 7798 §1.1.4)
            } else {
                switch type {
                case 0...47:
                    parseSingle(payload)
                case NALUnitType.H265.aggregationPacket:
                    parseAP(payload)
                case NALUnitType.H265.fragmentationUnit:
                    parseFU(payload, header: header)
                case NALUnitType.H265.paci:
                    core.unsupported(damaging: true)
                default: // 51...63: unspecified
                    core.unsupported(damaging: false)
                }
            }
        } else {
            core.malformed(damaging: payload.readableBytes > 0)
        }
        core.endPacket(marker: marker, into: &out)
        return out
    }

    public mutating func flush() -> [AccessUnit] {
        core.flush()
    }

    public mutating func reset() {
        core.reset()
        lastDON = nil
    }

    /// RFC 7798 §4.4.1: the payload is the NAL unit, or with DONL: payload header, DONL, NAL payload.
    private mutating func parseSingle(_ payload: ByteBuffer) {
        guard hasDONL else {
            core.addNAL(payload)
            return
        }
        let start = payload.readerIndex
        guard payload.readableBytes >= 4, let don = payload.getInteger(at: start + 2, as: UInt16.self) else {
            core.malformed(damaging: true)
            return
        }
        noteDON(don)
        var nal = ByteBufferAllocator().buffer(capacity: payload.readableBytes - 2)
        nal.writeImmutableBuffer(payload.getSlice(at: start, length: 2)!)
        nal.writeImmutableBuffer(payload.getSlice(at: start + 4, length: payload.readableBytes - 4)!)
        core.addNAL(nal)
    }

    /// RFC 7798 §4.4.2 AP: payload header, [DONL], then per unit [DOND], a 16-bit size and the unit.
    private mutating func parseAP(_ payload: ByteBuffer) {
        var offset = payload.readerIndex + 2
        let end = payload.writerIndex
        var count = 0
        var don: UInt16 = 0
        if hasDONL {
            guard let donl = payload.getInteger(at: offset, as: UInt16.self), offset + 2 <= end else {
                core.malformed(damaging: true)
                return
            }
            don = donl
            noteDON(don)
            offset += 2
        }
        while offset < end {
            if hasDONL && count > 0 {
                guard let dond = payload.getInteger(at: offset, as: UInt8.self) else { break }
                don = don &+ UInt16(dond) &+ 1
                offset += 1
            }
            guard offset + 2 <= end, let size = payload.getInteger(at: offset, as: UInt16.self),
                  offset + 2 + Int(size) <= end else {
                core.malformed(damaging: true) // truncated
                return
            }
            offset += 2
            if size > 0, let nal = payload.getSlice(at: offset, length: Int(size)) {
                guard size >= 2, nal.getInteger(at: nal.readerIndex, as: UInt8.self)! & 0x80 == 0 else {
                    core.malformed(damaging: true)
                    return
                }
                core.addNAL(nal)
            }
            count += 1
            offset += Int(size)
        }
        if count == 0 { core.malformed(damaging: false) }
    }

    /// RFC 7798 §4.4.3 FU: payload header (type 49), FU header (S, E, FuType), [DONL if S], fragment.
    /// The NAL unit header is the payload header with its type replaced by FuType.
    private mutating func parseFU(_ payload: ByteBuffer, header: UInt16) {
        let start = payload.readerIndex
        guard let fuHeader = payload.getInteger(at: start + 2, as: UInt8.self) else {
            core.malformed(damaging: true)
            return
        }
        let isStart = fuHeader & 0x80 != 0
        let isEnd = fuHeader & 0x40 != 0
        let nalType = fuHeader & 0x3F
        var fragmentOffset = start + 3
        if isStart && hasDONL {
            guard let don = payload.getInteger(at: fragmentOffset, as: UInt16.self) else {
                core.malformed(damaging: true)
                return
            }
            noteDON(don)
            fragmentOffset += 2
        }
        let fragment = payload.getSlice(at: fragmentOffset, length: payload.writerIndex - fragmentOffset)!
        if isStart {
            let byte0 = (UInt8(header >> 8) & 0x81) | (nalType << 1)
            core.startFragment(header: (byte0, UInt8(header & 0xFF)), type: nalType, payload: fragment, end: isEnd)
        } else {
            core.continueFragment(type: nalType, payload: fragment, end: isEnd)
        }
    }

    /// Counts a packet whose decoding order number goes backwards (interleaved sender).
    private mutating func noteDON(_ don: UInt16) {
        if let last = lastDON, don &- last >= 0x8000 {
            core.unsupported(damaging: false)
        }
        lastDON = don
    }

    /// True when the packet's first NAL unit starts cleanly: not an FU continuation, and if it is a
    /// slice segment (VCL types 0...31), first_slice_segment_in_pic_flag (its first bit) is 1.
    private func startsCleanly(_ payload: ByteBuffer) -> Bool {
        let start = payload.readerIndex
        guard let byte0 = payload.getInteger(at: start, as: UInt8.self) else { return false }
        var type = (byte0 >> 1) & 0x3F
        var sliceByteOffset = 2
        let don = hasDONL ? 2 : 0
        switch type {
        case NALUnitType.H265.aggregationPacket:
            guard let header = payload.getInteger(at: start + 2 + don + 2, as: UInt8.self) else { return false }
            type = (header >> 1) & 0x3F
            sliceByteOffset = 2 + don + 2 + 2
        case NALUnitType.H265.fragmentationUnit:
            guard let fuHeader = payload.getInteger(at: start + 2, as: UInt8.self), fuHeader & 0x80 != 0 else { return false }
            type = fuHeader & 0x3F
            sliceByteOffset = 3 + don
        case 0...31:
            sliceByteOffset = 2 + don
        default:
            break
        }
        if type <= 31 {
            guard let first = payload.getInteger(at: start + sliceByteOffset, as: UInt8.self) else { return false }
            return first & 0x80 != 0
        }
        return type < 48
    }
}
