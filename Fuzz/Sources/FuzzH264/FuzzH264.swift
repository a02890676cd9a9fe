import FuzzSupport
import FuzzVideoSupport
import H26x

/// Fuzzes H264Depacketizer (RFC 6184: single NAL, STAP-A, FU-A; loss, marker-less streams)
/// with pseudo RTP packets (layout in DepacketizerSession), and parses every payload as an
/// H.264 SPS (ITU-T H.264 §7.3.2.1.1) and, with the previous payload as PPS, as an
/// AVCDecoderConfigurationRecord (ISO/IEC 14496-15 §5.3.3.1).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    var session = DepacketizerSession()
    var previous: [UInt8] = []
    session.run(&input, make: { H264Depacketizer(parameterSets: $0) }, payloadCheck: { payload in
        let nal = Array(payload)
        if let sps = try? H264SPS(nalUnit: nal) {
            _ = sps.frameRate
            if let record = try? AVCDecoderConfigurationRecord(sps: nal, pps: [previous]) {
                _ = record.bytes
                _ = record.codecString
            }
        }
        previous = nal
    })
    return 0
}
