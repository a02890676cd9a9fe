import NIOCore

/// RFC 3640 depacketizer for `mpeg4-generic` AAC: AAC-hbr (sizeLength=13 indexLength=3
/// indexDeltaLength=3), AAC-lbr (6/2/2) and any other AU-header layout the fmtp gives (§3.2.1:
/// AU-size, AU-Index/AU-Index-delta, CTS-flag/CTS-delta, DTS-flag/DTS-delta, RAP-flag, Stream-state;
/// §3.2.2 the Auxiliary Section is skipped). Value type, no I/O.
///
/// Each packet's AUs come out with their own RTP timestamps (§3.2.1.1): the first AU has the packet's
/// timestamp; the n-th adds (sum of the AU-Index-deltas + n) × the AU duration (constantDuration, or
/// frameLength samples of the config's sampling frequency in RTP clock units), or its CTS-delta when
/// one is sent. Interleaved streams (AU-Index-delta > 0) get the right timestamps but are returned in
/// packet order, not de-interleaved.
///
/// An AU split across packets (§3.2.3: one AU-header whose AU-size is the whole AU's, the marker bit
/// on the last fragment) is put back together; a sequence gap drops the partial AU. Malformed payloads
/// are counted in ``statistics`` and skipped whole; nothing traps.
public struct MPEG4GenericDepacketizer: Sendable {
    /// AUs above this size are taken as damage: the largest AAC raw_data_block is 6144 bits per
    /// channel (ISO/IEC 14496-3 §4.5.3.2), 36 KiB for 48 channels.
    public static let maximumAccessUnitSize = 1 << 20
    /// Packets whose AU-Index-deltas add up to more than this many AUs are taken as damage (AAC-hbr's
    /// 3-bit deltas reach 7 per AU); it keeps the timestamp arithmetic far from overflow.
    static let maximumIndexSpan = 1 << 20

    /// The fmtp parameters as read.
    public let parameters: MPEG4GenericParameters
    /// The AudioSpecificConfig from `config=`.
    public let config: AudioSpecificConfig
    /// The RTP clock rate from the rtpmap.
    public let clockRate: Int
    public let format: AudioFormat
    public private(set) var statistics = AudioDepacketizerStatistics()

    /// A fragmented AU being put together (§3.2.3).
    private struct PartialUnit {
        var data: ByteBuffer
        var size: Int
        var timestamp: UInt32
        var packets: Int
    }

    /// One AU-header (§3.2.1.1) as far as depacketizing needs it.
    private struct AUHeader {
        var size: Int
        var indexDelta: Int
        var ctsDelta: Int?
    }

    private var lastSequenceNumber: UInt16?
    private var partial: PartialUnit?
    /// After a loss inside a fragmented AU: the rest of its fragments (this timestamp) are discarded.
    private var discardingTimestamp: UInt32?

    /// `formatParameters`: the fmtp keys (lower-cased, though any case is accepted) → values.
    /// `clockRate` from rtpmap.
    /// - Throws: `AACError` when config= is missing or invalid, when sizeLength is absent (RFC 3640
    ///   §3.3.5/§3.3.6 require it for AAC; a stream with constantSize instead is accepted), when
    ///   streamType is not 5 (audio), or when the clock rate is not positive.
    public init(formatParameters: [String: String], clockRate: Int) throws(AACError) {
        let parameters = try MPEG4GenericParameters(formatParameters: formatParameters)
        guard clockRate > 0, clockRate <= Int(UInt32.max) else {
            throw AACError("the rtpmap clock rate \(clockRate) is not usable: an RTP clock rate must be positive (usually the AAC sampling rate, e.g. mpeg4-generic/48000/2)")
        }
        if let streamType = parameters.streamType, streamType != 5 {
            throw AACError("the fmtp says streamType=\(streamType), not 5 (audio): this mpeg4-generic stream is not AAC audio")
        }
        guard let hex = parameters.config else {
            throw AACError("the fmtp has no config= parameter: the camera does not describe its AAC stream (RFC 3640 §4.1 requires the hex AudioSpecificConfig); check the camera's audio settings")
        }
        let config: AudioSpecificConfig
        do {
            config = try AudioSpecificConfig(hex: hex)
        } catch {
            throw AACError("the fmtp config= parameter is unusable: \(error.description)")
        }
        guard parameters.sizeLength > 0 || parameters.constantSize > 0 else {
            throw AACError("the fmtp has no sizeLength parameter: RFC 3640 requires it for AAC (sizeLength=13 in mode AAC-hbr, 6 in AAC-lbr), so the AU sizes cannot be read; the camera's SDP is incomplete")
        }
        self.parameters = parameters
        self.config = config
        self.clockRate = clockRate
        self.format = AudioFormat(codec: .aac, sampleRate: config.outputSamplingFrequency,
                                  channels: config.channelCount, config: config)
    }

    /// The duration of one AU in RTP timestamp units (constantDuration, or frameLength samples of the
    /// config's sampling frequency); not necessarily a whole number (1024 samples at 44.1 kHz in a
    /// 90 kHz clock), so the n-th AU's offset is computed as n × frameLength × clockRate / rate, rounded down.
    public var frameDuration: Double {
        if parameters.constantDuration > 0 { return Double(parameters.constantDuration) }
        return Double(config.frameLength) * Double(clockRate) / Double(config.samplingFrequency)
    }

    /// The timestamp distance of `units` AUs, rounded down. `units` is at most `maximumIndexSpan`.
    func timestampOffset(units: Int) -> Int {
        if parameters.constantDuration > 0 { return units * parameters.constantDuration }
        return units * config.frameLength * clockRate / config.samplingFrequency
    }

    /// Feeds one RTP packet's payload; returns the complete AUs it finished, each with its own timestamp.
    public mutating func push(payload: ByteBuffer, sequenceNumber: UInt16, timestamp: UInt32, marker: Bool) -> [AudioFrame] {
        if let last = lastSequenceNumber {
            if sequenceNumber == last {
                statistics.duplicatePackets += 1
                return []
            }
            if sequenceNumber != last &+ 1 {
                statistics.lossEvents += 1
                abandonPartial(discardingRest: true)
            }
        }
        lastSequenceNumber = sequenceNumber
        if let discarding = discardingTimestamp, discarding != timestamp {
            discardingTimestamp = nil
        }

        guard let (headers, dataStart, dataLength) = parse(payload) else {
            statistics.malformedPackets += 1
            abandonPartial(discardingRest: true)
            return []
        }

        // §3.2.3: a fragment is alone in its packet, and its AU-size is that of the whole AU.
        if headers.count == 1, headers[0].size > dataLength, dataLength > 0 {
            addFragment(payload, at: dataStart, length: dataLength, size: headers[0].size,
                        timestamp: timestamp, marker: marker)
            guard let unit = partial, unit.data.readableBytes == unit.size else { return [] }
            partial = nil
            statistics.frames += 1
            return [AudioFrame(data: unit.data, rtpTimestamp: unit.timestamp)]
        }

        let total = headers.reduce(0) { $0 + $1.size }
        guard total <= dataLength else {
            statistics.malformedPackets += 1 // several AUs and not all of them here, or an AU-header without data
            abandonPartial(discardingRest: true)
            return []
        }
        let span = headers.dropFirst().reduce(0) { $0 + $1.indexDelta + 1 }
        guard span <= Self.maximumIndexSpan else {
            statistics.malformedPackets += 1 // AU-Index-deltas no interleaving pattern has
            abandonPartial(discardingRest: true)
            return []
        }
        abandonPartial(discardingRest: false)
        var frames: [AudioFrame] = []
        frames.reserveCapacity(headers.count)
        var offset = dataStart
        var units = 0
        for (index, header) in headers.enumerated() {
            if index > 0 { units += header.indexDelta + 1 }
            let frameTimestamp: UInt32
            if index > 0, let cts = header.ctsDelta {
                frameTimestamp = timestamp &+ UInt32(truncatingIfNeeded: cts)
            } else {
                frameTimestamp = timestamp &+ UInt32(truncatingIfNeeded: timestampOffset(units: units))
            }
            if header.size > 0, let data = payload.getSlice(at: offset, length: header.size) {
                frames.append(AudioFrame(data: data, rtpTimestamp: frameTimestamp))
            }
            offset += header.size
        }
        statistics.frames += frames.count
        return frames
    }

    /// Forgets the partial AU and the sequence number (after the source restarted, a new SSRC).
    public mutating func reset() {
        partial = nil
        discardingTimestamp = nil
        lastSequenceNumber = nil
    }

    private mutating func addFragment(_ payload: ByteBuffer, at start: Int, length: Int, size: Int,
                                      timestamp: UInt32, marker: Bool) {
        if discardingTimestamp == timestamp {
            statistics.droppedFragments += 1 // the rest of an AU damaged by loss
            return
        }
        if var unit = partial, unit.timestamp == timestamp, unit.size == size {
            partial = nil
            guard unit.data.readableBytes + length <= size else {
                // More bytes than the AU-size announced: the fragments do not belong together.
                statistics.malformedPackets += 1
                statistics.droppedFragments += unit.packets + 1
                statistics.droppedFrames += 1
                discardingTimestamp = timestamp
                return
            }
            var slice = payload.getSlice(at: start, length: length) ?? ByteBuffer()
            unit.data.writeBuffer(&slice)
            unit.packets += 1
            if marker && unit.data.readableBytes < size {
                // The last fragment came, but bytes are missing: a fragment was lost unnoticed.
                statistics.droppedFragments += unit.packets
                statistics.droppedFrames += 1
                return
            }
            partial = unit
            return
        }
        abandonPartial(discardingRest: false)
        if marker || size > Self.maximumAccessUnitSize {
            // A last fragment whose start never came, or an AU-size no AAC frame has.
            statistics.droppedFragments += 1
            statistics.droppedFrames += 1
            if size > Self.maximumAccessUnitSize { statistics.malformedPackets += 1 }
            discardingTimestamp = timestamp
            return
        }
        var data = ByteBuffer()
        data.reserveCapacity(size)
        var slice = payload.getSlice(at: start, length: length) ?? ByteBuffer()
        data.writeBuffer(&slice)
        partial = PartialUnit(data: data, size: size, timestamp: timestamp, packets: 1)
    }

    /// Gives up the partial AU, if any; with `discardingRest`, later fragments of it are dropped too.
    private mutating func abandonPartial(discardingRest: Bool) {
        guard let unit = partial else { return }
        partial = nil
        statistics.droppedFragments += unit.packets
        statistics.droppedFrames += 1
        if discardingRest { discardingTimestamp = unit.timestamp }
    }

    /// Reads the AU Header Section (§3.2.1) and skips the Auxiliary Section (§3.2.2). Returns the
    /// AU-headers and where the Access Unit Data Section starts and how long it is, or nil when the
    /// payload is malformed.
    private func parse(_ payload: ByteBuffer) -> (headers: [AUHeader], dataStart: Int, dataLength: Int)? {
        var offset = payload.readerIndex
        let end = payload.writerIndex
        var headers: [AUHeader] = []
        if parameters.hasAUHeaderSection {
            // §3.2.1 AU-headers-length: the length in bits of the AU-headers that follow, excluding padding.
            guard let lengthBits = payload.getInteger(at: offset, as: UInt16.self).map(Int.init) else { return nil }
            let headerBytes = (lengthBits + 7) / 8
            guard offset + 2 + headerBytes <= end,
                  let section = payload.getSlice(at: offset + 2, length: headerBytes) else { return nil }
            var reader = BitReader(section, context: "AU Header Section")
            do throws(AACError) {
                while reader.bitPosition < lengthBits {
                    let start = reader.bitPosition
                    let header = try readAUHeader(&reader, first: headers.isEmpty)
                    guard reader.bitPosition <= lengthBits else { return nil }
                    headers.append(header)
                    if reader.bitPosition == start { break } // zero-width AU-headers: only the first one counts
                }
            } catch {
                return nil
            }
            guard reader.bitPosition == lengthBits, !headers.isEmpty else { return nil }
            offset += 2 + headerBytes
        }
        if parameters.auxiliaryDataSizeLength > 0 {
            // §3.2.2: auxiliary-data-size (bits of auxiliary data), the data, padding to a byte boundary.
            guard let rest = payload.getSlice(at: offset, length: end - offset) else { return nil }
            var reader = BitReader(rest, context: "Auxiliary Section")
            do throws(AACError) {
                let auxiliaryBits = try reader.int(parameters.auxiliaryDataSizeLength, "auxiliary-data-size")
                try reader.skip(auxiliaryBits, "auxiliary-data")
            } catch {
                return nil
            }
            reader.alignToByte()
            offset += reader.bitPosition / 8
        }
        let dataLength = end - offset
        if !parameters.hasAUHeaderSection {
            // Only constantSize describes the AUs: a whole number of them, or a fragment of one.
            let size = parameters.constantSize
            guard dataLength > 0 else { return nil }
            if dataLength < size {
                headers = [AUHeader(size: size, indexDelta: 0, ctsDelta: nil)]
            } else {
                guard dataLength % size == 0, dataLength / size <= Int(UInt16.max) else { return nil }
                headers = Array(repeating: AUHeader(size: size, indexDelta: 0, ctsDelta: nil), count: dataLength / size)
            }
        }
        return (headers, offset, dataLength)
    }

    /// §3.2.1.1 one AU-header: AU-size, AU-Index (first) or AU-Index-delta (others), CTS-flag and
    /// CTS-delta, DTS-flag and DTS-delta, RAP-flag, Stream-state.
    private func readAUHeader(_ reader: inout BitReader, first: Bool) throws(AACError) -> AUHeader {
        var header = AUHeader(size: parameters.constantSize, indexDelta: 0, ctsDelta: nil)
        if parameters.sizeLength > 0 {
            header.size = try reader.int(parameters.sizeLength, "AU-size")
        }
        if first {
            try reader.skip(parameters.indexLength, "AU-Index")
        } else if parameters.indexDeltaLength > 0 {
            header.indexDelta = try reader.int(parameters.indexDeltaLength, "AU-Index-delta")
        }
        if parameters.ctsDeltaLength > 0, try reader.flag("CTS-flag") {
            let raw = try reader.bits(parameters.ctsDeltaLength, "CTS-delta")
            header.ctsDelta = Self.signExtend(raw, bits: parameters.ctsDeltaLength)
        }
        if parameters.dtsDeltaLength > 0, try reader.flag("DTS-flag") {
            try reader.skip(parameters.dtsDeltaLength, "DTS-delta")
        }
        if parameters.randomAccessIndication {
            try reader.skip(1, "RAP-flag")
        }
        try reader.skip(parameters.streamStateIndication, "Stream-state")
        return header
    }

    /// A two's complement field of `bits` bits as an Int.
    static func signExtend(_ value: UInt32, bits: Int) -> Int {
        let value = Int(value)
        guard bits > 0, value & (1 << (bits - 1)) != 0 else { return value }
        return value - (1 << bits)
    }
}
