import Foundation
import Recording
import Store
import Testing

@Suite("Retention selection")
struct RetentionPlannerTests {
    let a = UUID()
    let b = UUID()
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func segment(_ id: Int64, _ camera: UUID, daysAgo: Double, bytes: Int64 = 100) -> SegmentCandidate {
        let start = now.addingTimeInterval(-daysAgo * 86_400)
        return SegmentCandidate(id: id, cameraID: camera, start: start, end: start.addingTimeInterval(60), bytes: bytes, path: "\(id).mp4")
    }

    @Test("past the camera's maximum age goes; other cameras keep theirs")
    func age() {
        let planner = RetentionPlanner(maxBytes: nil, minFreeBytes: 0, retentionDays: [a: 7])
        let plan = planner.plan(candidates: [segment(1, a, daysAgo: 8), segment(2, a, daysAgo: 6), segment(3, b, daysAgo: 30)],
                                now: now, footageBytes: 300, freeBytes: 1 << 40)
        #expect(plan.expired.map(\.id) == [1])
        #expect(plan.forSpace.isEmpty)
        #expect(plan.shortfall == nil)
    }

    @Test("over the cap: oldest first across cameras, only as many as needed")
    func cap() {
        let planner = RetentionPlanner(maxBytes: 250, minFreeBytes: 0, retentionDays: [:])
        let candidates = [segment(5, b, daysAgo: 1), segment(1, a, daysAgo: 3), segment(2, b, daysAgo: 2), segment(4, a, daysAgo: 0.5)]
        let plan = planner.plan(candidates: candidates, now: now, footageBytes: 500, freeBytes: 1 << 40)
        #expect(plan.forSpace.map(\.id) == [1, 2, 5])   // 500 → 200
    }

    @Test("protected footage is not a candidate: the plan keeps it and says the cap cannot be met")
    func protectedKept() {
        // 400 bytes of footage of which 300 protected (not given as candidates), cap 200.
        let planner = RetentionPlanner(maxBytes: 200, minFreeBytes: 0, retentionDays: [:])
        let plan = planner.plan(candidates: [segment(2, a, daysAgo: 2)], now: now, footageBytes: 400, freeBytes: 1 << 40)
        #expect(plan.forSpace.map(\.id) == [2])
        #expect(plan.shortfall?.contains("protected") == true)
    }

    @Test("too little free space: oldest go until the minimum is free")
    func minFree() {
        let planner = RetentionPlanner(maxBytes: nil, minFreeBytes: 1000, retentionDays: [:])
        let plan = planner.plan(candidates: (1...20).map { segment(Int64($0), a, daysAgo: Double(21 - $0), bytes: 300) },
                                now: now, footageBytes: 6000, freeBytes: 200)
        #expect(plan.forSpace.map(\.id) == [1, 2, 3])   // 200 + 900 ≥ 1000
    }

    @Test("aged and space deletions together never list a segment twice")
    func noDuplicates() {
        let planner = RetentionPlanner(maxBytes: 100, minFreeBytes: 0, retentionDays: [a: 1])
        let old = segment(1, a, daysAgo: 5)
        let plan = planner.plan(candidates: [old, old, segment(2, a, daysAgo: 0.1), segment(3, b, daysAgo: 3)],
                                now: now, footageBytes: 300, freeBytes: 1 << 40)
        #expect(plan.expired.map(\.id) == [1])
        #expect(plan.forSpace.map(\.id) == [3])
        #expect(Set(plan.all.map(\.id)).count == plan.all.count)
    }
}
