import NIOCore

/// The parameter sets a depacketizer knows (from the SDP, then in-band) and the `VideoFormat` built
/// from them. H.264 needs an SPS and a PPS; H.265 a VPS, an SPS and a PPS. The latest VPS and SPS are
/// kept; PPSs are kept by their id (pic_parameter_set_id / pps_pic_parameter_set_id), so a stream that
/// uses several keeps all of them.
struct ParameterSetStore: Sendable {
    let codec: VideoCodec
    private(set) var vps: [UInt8]?
    private(set) var sps: [UInt8]?
    /// PPSs sorted by id.
    private(set) var pps: [(id: Int, bytes: [UInt8])] = []
    private(set) var format: VideoFormat?
    /// The last parameter set that could not be used, and why (for logs).
    private(set) var lastError: H26xError?

    /// PPS ids go up to 255 (H.264) or 63 (H.265); this bounds memory on garbage input.
    private static let maxPPSCount = 64

    init(codec: VideoCodec) {
        self.codec = codec
    }

    /// Stores a parameter set NAL unit. Returns true when the format changed. Units that are not
    /// parameter sets are ignored. A VPS or SPS that does not parse is refused (the previous one and
    /// the format stay) and remembered in `lastError`.
    @discardableResult
    mutating func update(_ nal: ByteBuffer) -> Bool {
        guard let type = NALUnitType.of(nal, codec: codec) else { return false }
        switch (codec, type) {
        case (.h264, NALUnitType.H264.sps), (.h265, NALUnitType.H265.sps):
            if let current = sps, nal.readableBytesView.elementsEqual(current) { return false }
            let previous = sps
            sps = Array(nal.readableBytesView)
            return rebuild(revert: { $0.sps = previous })
        case (.h265, NALUnitType.H265.vps):
            if let current = vps, nal.readableBytesView.elementsEqual(current) { return false }
            let previous = vps
            vps = Array(nal.readableBytesView)
            return rebuild(revert: { $0.vps = previous })
        case (.h264, NALUnitType.H264.pps), (.h265, NALUnitType.H265.pps):
            let bytes = Array(nal.readableBytesView)
            guard let id = Self.ppsID(bytes, codec: codec) else {
                lastError = H26xError("\(codec == .h264 ? "H.264" : "H.265") PPS of \(bytes.count) bytes is truncated: it has no pic_parameter_set_id")
                return false
            }
            let previous = pps
            if let index = pps.firstIndex(where: { $0.id == id }) {
                if pps[index].bytes == bytes { return false }
                pps[index].bytes = bytes
            } else {
                guard pps.count < Self.maxPPSCount else { return false }
                pps.append((id, bytes))
                pps.sort { $0.id < $1.id }
            }
            return rebuild(revert: { $0.pps = previous })
        default:
            return false
        }
    }

    /// Rebuilds the format from the stored sets; returns true when it changed. When the sets are
    /// complete but do not make a format, `revert` undoes the update that caused it.
    private mutating func rebuild(revert: (inout ParameterSetStore) -> Void) -> Bool {
        guard let sps, !pps.isEmpty else { return false }
        let built: VideoFormat
        do {
            switch codec {
            case .h264:
                built = try VideoFormat(h264SPS: sps, pps: pps.map(\.bytes))
            case .h265:
                guard let vps else { return false }
                built = try VideoFormat(h265VPS: vps, sps: sps, pps: pps.map(\.bytes))
            }
        } catch {
            lastError = error as? H26xError ?? H26xError("\(error)")
            revert(&self)
            return false
        }
        guard built != format else { return false }
        format = built
        return true
    }

    /// pic_parameter_set_id (H.264 §7.3.2.2) or pps_pic_parameter_set_id (H.265 §7.3.2.3.1): the first
    /// ue(v) after the NAL unit header.
    static func ppsID(_ nal: [UInt8], codec: VideoCodec) -> Int? {
        let headerLength = codec == .h264 ? 1 : 2
        var r = BitReader(rbsp: BitReader.rbsp(fromNALUnit: Array(nal.prefix(headerLength + 6)), headerLength: headerLength), context: "PPS")
        guard let id = try? r.ue("pic_parameter_set_id"), id <= 255 else { return nil }
        return Int(id)
    }
}
