import Foundation
import Store

/// Which segments retention deletes. Pure: the caller gives unprotected segments only (protected ones are never
/// candidates), the totals and the limits.
///
/// First every segment past its camera's maximum age; then, oldest first across all cameras, as many as it takes
/// to bring the footage under `maxBytes` and the filesystem's free space up to `minFreeBytes`.
public struct RetentionPlanner: Sendable {
    public var maxBytes: Int64?
    public var minFreeBytes: Int64
    /// Maximum age in days per camera; cameras not listed keep footage until space is needed.
    public var retentionDays: [UUID: Int]

    public init(maxBytes: Int64?, minFreeBytes: Int64, retentionDays: [UUID: Int]) {
        self.maxBytes = maxBytes
        self.minFreeBytes = minFreeBytes
        self.retentionDays = retentionDays
    }

    public struct Plan: Sendable, Equatable {
        public var expired: [SegmentCandidate]
        public var forSpace: [SegmentCandidate]
        /// The limits still broken after deleting everything planned (all remaining footage is protected, or
        /// other files fill the disk), in words; nil when the plan meets them.
        public var shortfall: String?

        public var all: [SegmentCandidate] { expired + forSpace }
    }

    public func plan(candidates: [SegmentCandidate], now: Date, footageBytes: Int64, freeBytes: Int64) -> Plan {
        var seen = Set<Int64>()
        let sorted = candidates.sorted { ($0.start, $0.id) < ($1.start, $1.id) }.filter { seen.insert($0.id).inserted }
        var expired: [SegmentCandidate] = []
        var total = footageBytes
        var free = freeBytes
        for candidate in sorted {
            guard let days = retentionDays[candidate.cameraID] else { continue }
            if candidate.end <= now.addingTimeInterval(-Double(days) * 86_400) {
                expired.append(candidate)
                total -= candidate.bytes
                free += candidate.bytes
            }
        }
        let expiredIDs = Set(expired.map(\.id))
        var forSpace: [SegmentCandidate] = []
        var remaining = sorted.filter { !expiredIDs.contains($0.id) }[...]
        func overLimit() -> Bool { (maxBytes.map { total > $0 } ?? false) || free < minFreeBytes }
        while overLimit(), let next = remaining.popFirst() {
            forSpace.append(next)
            total -= next.bytes
            free += next.bytes
        }
        var shortfall: String?
        if overLimit() {
            if let maxBytes, total > maxBytes {
                shortfall = "the footage (\(total) bytes) is over the cap of \(maxBytes) bytes but the rest is protected: remove protections or raise the cap"
            } else {
                shortfall = "less than \(minFreeBytes) bytes would be free even without unprotected footage: free space on the disk, lower minFreeBytes or remove protections"
            }
        }
        return Plan(expired: expired, forSpace: forSpace, shortfall: shortfall)
    }
}
