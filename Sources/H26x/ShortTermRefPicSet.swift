/// ITU-T H.265 §7.3.7 `st_ref_pic_set(stRpsIdx)` as it appears in the SPS, with the derivation of
/// §7.4.8 (equations 7-61 and 7-62) that a later set predicted from this one needs.
struct ShortTermRefPicSet: Sendable {
    /// DeltaPocS0: negative picture order count differences, closest first.
    var deltaPocS0: [Int] = []
    /// DeltaPocS1: positive picture order count differences, closest first.
    var deltaPocS1: [Int] = []

    var numDeltaPocs: Int { deltaPocS0.count + deltaPocS1.count }

    /// Per §7.4.3.2.1 a picture buffer holds at most 16 pictures; this bounds malformed input.
    private static let maxPictures = 16

    /// Parses set `index` of the SPS; `previous` holds the sets already parsed (inter prediction
    /// refers to set `index - 1`, since delta_idx_minus1 is absent in the SPS).
    init(_ r: inout BitReader, index: Int, previous: [ShortTermRefPicSet]) throws {
        let interPrediction = index != 0 ? try r.flag("inter_ref_pic_set_prediction_flag") : false
        if interPrediction {
            let reference = previous[index - 1]
            let sign = try r.flag("delta_rps_sign")
            let magnitude = try r.ue("abs_delta_rps_minus1", max: (1 << 15) - 1) + 1
            let deltaRps = sign ? -magnitude : magnitude
            let count = reference.numDeltaPocs
            var usedByCurrPic = [Bool](repeating: false, count: count + 1)
            var useDelta = [Bool](repeating: true, count: count + 1)
            for j in 0...count {
                usedByCurrPic[j] = try r.flag("used_by_curr_pic_flag")
                if !usedByCurrPic[j] {
                    useDelta[j] = try r.flag("use_delta_flag")
                }
            }
            let negatives = reference.deltaPocS0.count
            // (7-61)
            for j in stride(from: reference.deltaPocS1.count - 1, through: 0, by: -1) {
                let dPoc = reference.deltaPocS1[j] + deltaRps
                if dPoc < 0 && useDelta[negatives + j] { deltaPocS0.append(dPoc) }
            }
            if deltaRps < 0 && useDelta[count] { deltaPocS0.append(deltaRps) }
            for j in 0..<negatives {
                let dPoc = reference.deltaPocS0[j] + deltaRps
                if dPoc < 0 && useDelta[j] { deltaPocS0.append(dPoc) }
            }
            // (7-62)
            for j in stride(from: negatives - 1, through: 0, by: -1) {
                let dPoc = reference.deltaPocS0[j] + deltaRps
                if dPoc > 0 && useDelta[j] { deltaPocS1.append(dPoc) }
            }
            if deltaRps > 0 && useDelta[count] { deltaPocS1.append(deltaRps) }
            for j in 0..<reference.deltaPocS1.count {
                let dPoc = reference.deltaPocS1[j] + deltaRps
                if dPoc > 0 && useDelta[negatives + j] { deltaPocS1.append(dPoc) }
            }
            guard deltaPocS0.count <= Self.maxPictures, deltaPocS1.count <= Self.maxPictures else {
                throw H26xError("H.265 SPS is malformed: short-term reference picture set \(index) predicts more than \(Self.maxPictures) pictures")
            }
        } else {
            let negatives = try r.ue("num_negative_pics", max: Self.maxPictures)
            let positives = try r.ue("num_positive_pics", max: Self.maxPictures)
            var poc = 0
            for _ in 0..<negatives {
                poc -= try r.ue("delta_poc_s0_minus1", max: (1 << 15) - 1) + 1
                try r.skip(1, "used_by_curr_pic_s0_flag")
                deltaPocS0.append(poc)
            }
            poc = 0
            for _ in 0..<positives {
                poc += try r.ue("delta_poc_s1_minus1", max: (1 << 15) - 1) + 1
                try r.skip(1, "used_by_curr_pic_s1_flag")
                deltaPocS1.append(poc)
            }
        }
    }
}
