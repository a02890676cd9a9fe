import NIOCore

/// The part of a video depacketizer that does not depend on the payload format: sequence tracking and
/// loss, access unit boundaries (marker bit or timestamp change), FU reassembly, waiting for a
/// keyframe, parameter sets and statistics. `H264Depacketizer` and `H265Depacketizer` parse their
/// payload headers and drive it: `beginPacket`, then NAL units and fragments, then `endPacket`.
struct DepacketizerCore: Sendable {
    let codec: VideoCodec
    var store: ParameterSetStore
    var statistics = DepacketizerStatistics()
    var formatChanged = false

    /// True before the first keyframe and after a loss: units are dropped until a keyframe.
    private(set) var waitingForKeyframe = true
    private var lastSequenceNumber: UInt16?
    /// A sequence gap was seen and the packet after it has not opened or joined a unit yet.
    private var gapPending = false

    // The unit being assembled.
    private var unitOpen = false
    private var unitTimestamp: UInt32 = 0
    /// The unit's NAL units in MP4 sample format (ISO/IEC 14496-15 §5.3.2: each after its size as a 4-byte
    /// big-endian integer), after ``AccessUnit/sampleFrontRoom`` free bytes: copied here once as packets arrive
    /// (fragments too), so that neither reassembly nor muxing copies them again. Never shared while the unit is
    /// open, so that writing to it never copies it.
    private var sample: ByteBuffer
    /// Where each NAL unit is in `sample` (after its size field). May start with non-VCL units carried over
    /// from a unit without a picture.
    private var nalRanges: [(start: Int, length: Int)] = []
    private var unitBytes = 0
    /// What the next unit's buffer is made for: recent pictures' sizes, so that it rarely grows; a keyframe's
    /// size once the unit turns out to hold one (its parameter sets or its first slice come first).
    private var pictureBytesEstimate = 4096
    private var keyframeBytesEstimate = 16384
    private var hasPicture = false
    private var isKeyframe = false
    private var damaged = false
    /// Parameter sets received but not yet applied: they take effect when the unit carrying them completes.
    private var pendingParameterSets: [ByteBuffer] = []

    // The fragmented NAL unit being reassembled (RFC 6184 §5.8, RFC 7798 §4.4.3).
    private var fragmenting = false
    private var fragmentType: UInt8 = 0
    private var fragmentHeader: (UInt8, UInt8) = (0, 0)
    /// Where its size field is in `sample`; nil while the unit is damaged (nothing is kept).
    private var fragmentStart: Int?
    private var fragmentBytes = 0

    /// Packets this far behind the last sequence number are late duplicates and ignored; further back
    /// is taken as a discontinuity (the sender restarted).
    static let lateWindow: UInt16 = 64
    /// Larger NAL units are refused as malformed (a 4K IDR picture is a few MiB).
    static let maxNALBytes = 16 << 20
    /// Larger units are dropped as malformed (bounds memory if a sender never ends a unit).
    static let maxUnitBytes = 64 << 20
    /// More NAL units in one unit are dropped as malformed (a 4K picture of 16x16 slices has 8160).
    static let maxUnitNALs = 16_384
    /// Parameter sets waiting for a picture beyond this count are applied at once.
    static let maxPendingParameterSets = 32
    /// Non-VCL units carried over to the next picture beyond this count are dropped.
    static let maxCarriedNALs = 64

    init(codec: VideoCodec, parameterSets: [[UInt8]]) {
        self.codec = codec
        self.store = ParameterSetStore(codec: codec)
        self.sample = AccessUnit.emptySample(capacity: pictureBytesEstimate)
        for set in parameterSets where !set.isEmpty {
            store.update(ByteBuffer(bytes: set))
        }
    }

    // MARK: - Packets

    /// Tracks the sequence number and the unit boundary on a timestamp change. Returns false when the
    /// packet is a duplicate or late and must be ignored.
    /// - Parameter startsCleanly: the packet's first NAL unit is not a fragment continuation and, if it
    ///   is a slice, the first slice of its picture: the unit it opens lost nothing before it.
    mutating func beginPacket(sequenceNumber: UInt16, timestamp: UInt32, startsCleanly: Bool, into out: inout [AccessUnit]) -> Bool {
        if let last = lastSequenceNumber {
            let delta = sequenceNumber &- last
            if delta == 0 || (delta >= 0x8000 && 0 &- delta <= Self.lateWindow) {
                return false
            }
            if delta != 1 {
                statistics.lossEvents += 1
                // The lost packets may be the rest of the open unit, or the head of the next one.
                if unitOpen { damage() } else { dropFragment() }
                waitingForKeyframe = true
                gapPending = true
            }
        }
        lastSequenceNumber = sequenceNumber
        if unitOpen && timestamp != unitTimestamp {
            completeUnit(into: &out)
        }
        if !unitOpen {
            unitOpen = true
            unitTimestamp = timestamp
            if gapPending && !startsCleanly { damaged = true }
        }
        gapPending = false
        return true
    }

    /// Ends the packet: the marker bit completes the unit (RFC 6184 §5.1, RFC 7798 §4.1).
    mutating func endPacket(marker: Bool, into out: inout [AccessUnit]) {
        if marker && unitOpen {
            completeUnit(into: &out)
        }
    }

    /// A packet that breaks the payload format. `damaging` marks the unit as lost data.
    mutating func malformed(damaging: Bool) {
        statistics.malformedPackets += 1
        if damaging { damage() }
    }

    /// A packet this depacketizer does not handle. `damaging` marks the unit as lost data.
    mutating func unsupported(damaging: Bool) {
        statistics.unsupportedPackets += 1
        if damaging { damage() }
    }

    /// The unit will be dropped: its bytes go now (carried-over units with it, as they would at its end).
    private mutating func damage() {
        damaged = true
        dropFragment()
        clearSample()
    }

    private mutating func clearSample() {
        sample.moveWriterIndex(to: AccessUnit.sampleFrontRoom)
        nalRanges.removeAll(keepingCapacity: true)
        unitBytes = 0
    }

    // MARK: - NAL units

    /// What a NAL unit of this type means for the unit being assembled.
    private enum Kind { case delimiter, parameterSet, picture, other }

    /// Notes what the type says (picture, keyframe); a keyframe's first sign makes room for a keyframe.
    private mutating func classify(_ type: UInt8) -> Kind {
        let kind: Kind
        switch codec {
        case .h264:
            if type == NALUnitType.H264.accessUnitDelimiter { return .delimiter }
            if type == NALUnitType.H264.sps || type == NALUnitType.H264.pps {
                kind = .parameterSet
            } else if NALUnitType.H264.isVCL(type) {
                hasPicture = true
                if type == NALUnitType.H264.idrSlice { isKeyframe = true }
                kind = .picture
            } else {
                kind = .other
            }
        case .h265:
            if type == NALUnitType.H265.accessUnitDelimiter { return .delimiter }
            if type == NALUnitType.H265.vps || type == NALUnitType.H265.sps || type == NALUnitType.H265.pps {
                kind = .parameterSet
            } else if NALUnitType.H265.isVCL(type) {
                hasPicture = true
                if NALUnitType.H265.isIRAP(type) { isKeyframe = true }
                kind = .picture
            } else {
                kind = .other
            }
        }
        if (kind == .parameterSet || isKeyframe) && !damaged {
            sample.reserveCapacity(AccessUnit.sampleFrontRoom + max(unitBytes, keyframeBytesEstimate) + 1024)
        }
        return kind
    }

    /// Adds a complete NAL unit (header included). Empty units and access unit delimiters are dropped.
    mutating func addNAL(_ nal: ByteBuffer) {
        guard let type = NALUnitType.of(nal, codec: codec) else { return }
        switch classify(type) {
        case .delimiter: return
        case .parameterSet: addPendingParameterSet(nal)
        case .picture, .other: break
        }
        if damaged { return } // the unit will be dropped: keep no payload
        guard unitBytes + nal.readableBytes <= Self.maxUnitBytes, nalRanges.count < Self.maxUnitNALs else {
            malformed(damaging: true)
            return
        }
        nalRanges.append((AccessUnit.append(nal, to: &sample), nal.readableBytes))
        unitBytes += nal.readableBytes
    }

    private mutating func addPendingParameterSet(_ nal: ByteBuffer) {
        pendingParameterSets.append(nal)
        if pendingParameterSets.count > Self.maxPendingParameterSets {
            applyPendingParameterSets() // a sender that repeats parameter sets and no picture
        }
    }

    /// The first fragment of a NAL unit (S bit). `header` is the reconstructed NAL unit header (the
    /// second byte is used for H.265 only). With the E bit set too, the fragment is a whole NAL unit.
    mutating func startFragment(header: (UInt8, UInt8), type: UInt8, payload: ByteBuffer, end: Bool) {
        if fragmenting {
            malformed(damaging: true) // the previous fragmented unit never ended
        }
        fragmenting = true
        fragmentType = type
        fragmentHeader = header
        fragmentBytes = payload.readableBytes
        if (codec == .h264 && type == NALUnitType.H264.idrSlice) || (codec == .h265 && NALUnitType.H265.isIRAP(type)) {
            _ = classify(type) // a keyframe's first fragment: make room for all of it now
        }
        if damaged {
            fragmentStart = nil
        } else {
            fragmentStart = sample.writerIndex
            sample.writeInteger(UInt32(0)) // the size, once known
            sample.writeInteger(header.0)
            if codec == .h265 { sample.writeInteger(header.1) }
            sample.writeImmutableBuffer(payload)
        }
        if end { finishFragment() }
    }

    /// A middle or last fragment.
    mutating func continueFragment(type: UInt8, payload: ByteBuffer, end: Bool) {
        guard fragmenting else {
            // After a loss or a malformed packet the start is gone: expected, already counted.
            if !damaged { malformed(damaging: true) }
            return
        }
        guard type == fragmentType else {
            malformed(damaging: true)
            return
        }
        fragmentBytes += payload.readableBytes
        guard fragmentBytes <= Self.maxNALBytes, unitBytes + fragmentBytes <= Self.maxUnitBytes else {
            malformed(damaging: true)
            return
        }
        if fragmentStart != nil { sample.writeImmutableBuffer(payload) }
        if end { finishFragment() }
    }

    /// The reassembled NAL unit is already in place: its size is filled in, and it counts as added.
    private mutating func finishFragment() {
        let start = fragmentStart
        let length = (codec == .h264 ? 1 : 2) + fragmentBytes
        fragmenting = false
        fragmentStart = nil
        fragmentBytes = 0
        let kind = classify(fragmentType)
        guard !damaged, let start else { return }
        let nal = start + 4
        if kind == .delimiter || nalRanges.count >= Self.maxUnitNALs || unitBytes + length > Self.maxUnitBytes {
            sample.moveWriterIndex(to: start)
            if kind != .delimiter { malformed(damaging: true) }
            return
        }
        sample.setInteger(UInt32(length), at: start)
        if kind == .parameterSet {
            // Its own copy: a slice would share `sample`, and the next write would then copy all of it.
            addPendingParameterSet(ByteBuffer(bytes: sample.readableBytesView[nal..<(nal + length)]))
        }
        nalRanges.append((nal, length))
        unitBytes += length
    }

    /// Forgets the fragmented NAL unit being reassembled, and its bytes.
    private mutating func dropFragment() {
        if fragmenting, let start = fragmentStart { sample.moveWriterIndex(to: start) }
        fragmenting = false
        fragmentStart = nil
        fragmentBytes = 0
    }

    // MARK: - Units

    private mutating func completeUnit(into out: inout [AccessUnit]) {
        if fragmenting {
            malformed(damaging: true) // a fragmented NAL unit without its end fragment
        }
        unitOpen = false
        let picture = hasPicture
        let keyframe = isKeyframe
        let wasDamaged = damaged
        hasPicture = false
        isKeyframe = false
        damaged = false

        guard picture || wasDamaged else {
            // Only parameter sets, SEI and the like: a sender that gives them their own timestamp or
            // marker. Carry them into the next unit, which holds the picture they belong to.
            if unitBytes > Self.maxUnitBytes / 4 || nalRanges.count > Self.maxCarriedNALs {
                clearSample()
            }
            return
        }
        // A damaged unit counts as a dropped picture even when the lost part hid what it was.
        applyPendingParameterSets()
        if wasDamaged {
            statistics.droppedUnits += 1
            waitingForKeyframe = true
            clearSample()
            return
        }
        if waitingForKeyframe && !keyframe {
            statistics.droppedUnits += 1
            clearSample()
            return
        }
        if keyframe {
            waitingForKeyframe = false
            statistics.keyframes += 1
            keyframeBytesEstimate = unitBytes + unitBytes / 4
        } else {
            // Recent pictures, the larger ones weighing more: a buffer that must grow copies what it holds.
            pictureBytesEstimate = max(unitBytes + unitBytes / 2, pictureBytesEstimate - pictureBytesEstimate / 8)
        }
        statistics.accessUnits += 1
        let nalUnits = nalRanges.map { sample.getSlice(at: $0.start, length: $0.length)! }
        out.append(AccessUnit(codec: codec, nalUnits: nalUnits, sample: sample, isKeyframe: keyframe, rtpTimestamp: unitTimestamp))
        sample = AccessUnit.emptySample(capacity: min(pictureBytesEstimate + 1024, Self.maxUnitBytes))
        nalRanges.removeAll(keepingCapacity: true)
        unitBytes = 0
    }

    private mutating func applyPendingParameterSets() {
        for set in pendingParameterSets where store.update(set) {
            formatChanged = true
        }
        pendingParameterSets.removeAll()
    }

    /// Emits the unit being assembled (end of stream).
    mutating func flush() -> [AccessUnit] {
        var out: [AccessUnit] = []
        if unitOpen { completeUnit(into: &out) }
        discardPartialState()
        return out
    }

    /// Drops partial state; keeps the parameter sets (those received in full are applied) and waits
    /// for the next keyframe.
    mutating func reset() {
        discardPartialState()
        lastSequenceNumber = nil
        waitingForKeyframe = true
    }

    private mutating func discardPartialState() {
        applyPendingParameterSets()
        dropFragment()
        unitOpen = false
        clearSample()
        hasPicture = false
        isKeyframe = false
        damaged = false
        gapPending = false
    }
}
