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
    /// NAL units of the unit; may start with non-VCL units carried over from a unit without a picture.
    private var nalUnits: [ByteBuffer] = []
    private var unitBytes = 0
    private var hasPicture = false
    private var isKeyframe = false
    private var damaged = false
    /// Parameter sets received but not yet applied: they take effect when the unit carrying them completes.
    private var pendingParameterSets: [ByteBuffer] = []

    // The fragmented NAL unit being reassembled (RFC 6184 §5.8, RFC 7798 §4.4.3).
    private var fragmenting = false
    private var fragmentType: UInt8 = 0
    private var fragmentHeader: (UInt8, UInt8) = (0, 0)
    private var fragments: [ByteBuffer] = []
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

    private mutating func damage() {
        damaged = true
        dropFragment()
    }

    // MARK: - NAL units

    /// Adds a complete NAL unit (header included). Empty units and access unit delimiters are dropped.
    mutating func addNAL(_ nal: ByteBuffer) {
        guard let type = NALUnitType.of(nal, codec: codec) else { return }
        switch codec {
        case .h264:
            if type == NALUnitType.H264.accessUnitDelimiter { return }
            if type == NALUnitType.H264.sps || type == NALUnitType.H264.pps {
                addPendingParameterSet(nal)
            } else if NALUnitType.H264.isVCL(type) {
                hasPicture = true
                if type == NALUnitType.H264.idrSlice { isKeyframe = true }
            }
        case .h265:
            if type == NALUnitType.H265.accessUnitDelimiter { return }
            if type == NALUnitType.H265.vps || type == NALUnitType.H265.sps || type == NALUnitType.H265.pps {
                addPendingParameterSet(nal)
            } else if NALUnitType.H265.isVCL(type) {
                hasPicture = true
                if NALUnitType.H265.isIRAP(type) { isKeyframe = true }
            }
        }
        if damaged { return } // the unit will be dropped: keep no payload
        unitBytes += nal.readableBytes
        guard unitBytes <= Self.maxUnitBytes, nalUnits.count < Self.maxUnitNALs else {
            malformed(damaging: true)
            nalUnits.removeAll()
            return
        }
        nalUnits.append(nal)
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
        if end {
            fragmentHeader = header
            fragments = [payload]
            fragmentBytes = payload.readableBytes
            finishFragment()
            return
        }
        fragmenting = true
        fragmentType = type
        fragmentHeader = header
        fragments = [payload]
        fragmentBytes = payload.readableBytes
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
        fragments.append(payload)
        fragmentBytes += payload.readableBytes
        guard fragmentBytes <= Self.maxNALBytes else {
            malformed(damaging: true)
            return
        }
        if end { finishFragment() }
    }

    /// Copies the fragments once into one buffer holding the NAL unit.
    private mutating func finishFragment() {
        let headerLength = codec == .h264 ? 1 : 2
        var nal = ByteBufferAllocator().buffer(capacity: headerLength + fragmentBytes)
        nal.writeInteger(fragmentHeader.0)
        if headerLength == 2 { nal.writeInteger(fragmentHeader.1) }
        for var fragment in fragments {
            nal.writeBuffer(&fragment)
        }
        dropFragment()
        addNAL(nal)
    }

    private mutating func dropFragment() {
        fragmenting = false
        fragments.removeAll(keepingCapacity: true)
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
            if unitBytes > Self.maxUnitBytes / 4 || nalUnits.count > Self.maxCarriedNALs {
                nalUnits.removeAll(keepingCapacity: true)
                unitBytes = 0
            }
            return
        }
        // A damaged unit counts as a dropped picture even when the lost part hid what it was.
        applyPendingParameterSets()
        let units = nalUnits
        nalUnits.removeAll(keepingCapacity: false)
        unitBytes = 0
        if wasDamaged {
            statistics.droppedUnits += 1
            waitingForKeyframe = true
            return
        }
        if waitingForKeyframe && !keyframe {
            statistics.droppedUnits += 1
            return
        }
        if keyframe {
            waitingForKeyframe = false
            statistics.keyframes += 1
        }
        statistics.accessUnits += 1
        out.append(AccessUnit(codec: codec, nalUnits: units, isKeyframe: keyframe, rtpTimestamp: unitTimestamp))
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
        nalUnits.removeAll()
        unitBytes = 0
        hasPicture = false
        isKeyframe = false
        damaged = false
        gapPending = false
    }
}
