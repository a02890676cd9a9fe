import FuzzSupport
import FuzzVideoSupport
import H26x

/// Fuzzes H265Depacketizer (RFC 7798: single NAL, AP, FU; loss, marker-less streams) with
/// pseudo RTP packets (layout in DepacketizerSession), and parses every payload as an
/// H.265 SPS (ITU-T H.265 §7.3.2.2) and, with the two payloads before it as VPS and PPS,
/// as an HEVCDecoderConfigurationRecord (ISO/IEC 14496-15 §8.3.3.1).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    var session = DepacketizerSession()
    var earlier: [UInt8] = []
    var previous: [UInt8] = []
    session.run(&input, make: { H265Depacketizer(parameterSets: $0) }, payloadCheck: { payload in
        let nal = Array(payload)
        if let sps = try? H265SPS(nalUnit: nal) {
            _ = sps.frameRate
            if let record = try? HEVCDecoderConfigurationRecord(vps: earlier, sps: nal, pps: previous) {
                _ = record.bytes
                _ = record.codecString
            }
        }
        earlier = previous
        previous = nal
    })
    return 0
}
