import Foundation
import Hummingbird
import MP4
import NIOCore
import Recording
import Store

/// Playback (a segment from a keyframe, for Media Source Extensions) and export (a range as one MP4).
extension RecordingService {
    /// Reads `length` bytes at `offset` of a file (fewer at its end).
    static func read(_ path: String, offset: Int64, length: Int) throws -> ByteBuffer {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw APIError.notFound("the recording's file \(path) is missing: it was deleted outside WatchBox")
        }
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        let data = try handle.read(upToCount: length) ?? Data()
        return ByteBuffer(bytes: data)
    }

    /// The file's initialization segment and tracks, from its first bytes.
    static func head(_ path: String) throws -> (layout: FragmentedMP4Layout, bytes: ByteBuffer) {
        var length = 64 << 10
        while true {
            let bytes = try read(path, offset: 0, length: length)
            if let layout = try? FragmentedMP4Layout(bytes) { return (layout, bytes) }
            guard bytes.readableBytes == length, length < 16 << 20 else {
                throw APIError(.internalServerError, "\(path) has no readable initialization segment: it is damaged")
            }
            length *= 4
        }
    }

    struct MediaPlan: Sendable {
        var path: String
        var initialization: ByteBuffer
        var offset: Int64
        var mediaStart: Double
        var wallStart: Date
        var mimeType: String
        /// Serve up to here (the whole fragments of a segment still being written); nil: to the end of the file.
        var limit: Int64?
    }

    func mediaPlan(segmentID: Int64, from: String?) async throws -> MediaPlan {
        if segmentID < 0 {
            guard let open = manager.openSegment(id: segmentID) else {
                throw APIError.notFound("recording \(segmentID) is no longer being written: list the recordings again, it has its own id now")
            }
            let segment = Segment(cameraID: open.cameraID, start: open.start, end: open.end, duration: open.writtenSeconds,
                                  bytes: open.committedBytes, path: open.relativePath, codec: open.codec, mimeType: open.mimeType,
                                  width: open.width, height: open.height, keyframes: open.keyframes.encoded)
            var plan = try plan(for: segment, id: segmentID, from: from)
            plan.limit = open.committedBytes
            return plan
        }
        guard let segment = try await call({ try await repository.segment(id: segmentID) }) else {
            throw APIError.notFound("there is no recording with id \(segmentID)")
        }
        return try plan(for: segment, id: segmentID, from: from)
    }

    func plan(for segment: Segment, id segmentID: Int64, from: String?) throws -> MediaPlan {
        let fromDate = try Self.time(from, field: "from", required: false)
        let path = manager.absolutePath(segment)
        let head = try Self.head(path)
        guard let index = segment.keyframeIndex, let first = index.entries.first else {
            throw APIError(.internalServerError, "the recording \(segmentID) has no keyframe index: its row is damaged")
        }
        var entry = first
        if let fromDate {
            let media = Int64((fromDate.timeIntervalSince(segment.start) * 1000).rounded(.down))
            entry = index.entry(atOrBefore: media) ?? first
        }
        return MediaPlan(path: path, initialization: head.layout.initializationSegment(of: head.bytes), offset: entry.offset,
                         mediaStart: Double(entry.mediaTimeMs) / 1000,
                         wallStart: segment.start.addingTimeInterval(Double(entry.mediaTimeMs) / 1000),
                         mimeType: segment.mimeType)
    }

    func media(segmentID: Int64, from: String?) async throws -> Response {
        let plan = try await mediaPlan(segmentID: segmentID, from: from)
        var headers = HTTPFields()
        headers[.contentType] = "video/mp4"
        headers[.cacheControl] = "no-cache"
        headers[.init("X-WatchBox-Start")!] = ISOTime.string(plan.wallStart)
        headers[.init("X-WatchBox-Codec")!] = plan.mimeType
        headers[.init("X-WatchBox-Media-Start")!] = String(format: "%.3f", plan.mediaStart)
        headers[.init("Access-Control-Expose-Headers")!] = "X-WatchBox-Start, X-WatchBox-Codec, X-WatchBox-Media-Start, X-WatchBox-Truncated"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            try await writer.write(plan.initialization)
            var offset = plan.offset
            while true {
                var length = 512 << 10
                if let limit = plan.limit { length = Int(min(Int64(length), limit - offset)) }
                if length <= 0 { break }
                let chunk = try Self.read(plan.path, offset: offset, length: length)
                if chunk.readableBytes == 0 { break }
                offset += Int64(chunk.readableBytes)
                try await writer.write(chunk)
            }
            try await writer.finish(nil)
        })
    }

    // MARK: - Export

    struct ExportPart: Sendable {
        var segment: Segment
        var path: String
    }

    func export(_ cameraID: UUID, from: String?, to: String?) async throws -> Response {
        let camera = try await camera(cameraID)
        let start = try Self.time(from, field: "from")!
        let end = try Self.time(to, field: "to")!
        guard end > start else { throw APIError.badRequest("to must be later than from", field: "to") }
        guard end.timeIntervalSince(start) <= Self.maxExportSeconds else {
            throw APIError.badRequest("an export covers at most 24 hours: choose a shorter range", field: "to")
        }
        let listings = try await call { try await repository.segments(cameraID: cameraID, from: start, to: end) }
        guard let firstListing = listings.first else {
            throw APIError.notFound("camera \"\(camera.name)\" has no footage between \(ISOTime.string(start)) and \(ISOTime.string(end))")
        }
        // Every part must share the first one's tracks and codec parameters; the export ends at a change.
        var parts: [ExportPart] = []
        var truncated: String?
        var reference: FragmentedMP4Layout?
        var initialization = ByteBuffer()
        for listing in listings {
            let path = manager.absolutePath(listing.segment)
            guard let head = try? Self.head(path) else { continue }
            if let reference {
                guard reference.isCompatible(with: head.layout) else {
                    truncated = "the camera's video format changed at \(ISOTime.string(listing.segment.start)): the export ends there; export the rest separately"
                    break
                }
            } else {
                reference = head.layout
                initialization = head.layout.initializationSegment(of: head.bytes)
            }
            parts.append(ExportPart(segment: listing.segment, path: path))
        }
        guard let reference, !parts.isEmpty else {
            throw APIError.notFound("the footage of camera \"\(camera.name)\" in that range is missing on disk")
        }
        let firstWall = Self.firstKeyframeWall(firstListing.segment, at: start)
        var headers = HTTPFields()
        headers[.contentType] = "video/mp4"
        headers[.contentDisposition] = "attachment; filename=\"\(Self.fileName(camera.name, firstWall))\""
        headers[.init("X-WatchBox-Start")!] = ISOTime.string(firstWall)
        if let truncated { headers[.init("X-WatchBox-Truncated")!] = truncated }
        headers[.init("Access-Control-Expose-Headers")!] = "X-WatchBox-Start, X-WatchBox-Truncated, Content-Disposition"
        let tracks = reference.tracks
        let initSegment = initialization
        let chosen = parts
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            try await writer.write(initSegment)
            var timeline = ExportTimeline(tracks: tracks)
            for (number, part) in chosen.enumerated() {
                guard let data = FileManager.default.contents(atPath: part.path) else { continue }
                let bytes = ByteBuffer(bytes: data)
                guard let layout = try? FragmentedMP4Layout(bytes) else { continue }
                var firstOffset = 0
                if number == 0, let index = part.segment.keyframeIndex {
                    let media = Int64((start.timeIntervalSince(part.segment.start) * 1000).rounded(.down))
                    if let entry = index.entry(atOrBefore: media) { firstOffset = Int(entry.offset) }
                }
                let until = end.timeIntervalSince(part.segment.start)
                timeline.beginFile()
                for fragment in layout.fragments where fragment.offset >= firstOffset {
                    guard let slice = bytes.getSlice(at: bytes.readerIndex + fragment.offset, length: fragment.length),
                          let reader = try? FragmentReader(slice) else { continue }
                    if let output = timeline.rewrite(reader, until: until) { try await writer.write(output) }
                    if timeline.reachedEnd { break }
                }
                if timeline.reachedEnd { break }
            }
            try await writer.finish(nil)
        })
    }

    /// The wall time of the keyframe an export of `segment` from `from` starts with.
    static func firstKeyframeWall(_ segment: Segment, at from: Date) -> Date {
        guard let index = segment.keyframeIndex else { return segment.start }
        let media = Int64((from.timeIntervalSince(segment.start) * 1000).rounded(.down))
        guard let entry = index.entry(atOrBefore: media) else { return segment.start }
        return segment.start.addingTimeInterval(Double(entry.mediaTimeMs) / 1000)
    }

    /// `<camera name>_2026-11-23_03-12-00.mp4` (UTC), with characters a file name cannot hold replaced.
    static func fileName(_ name: String, _ date: Date) -> String {
        // A header value stays printable ASCII: anything else, and what a file name cannot hold, becomes "_".
        let safe = String(name.map { character -> Character in
            guard let ascii = character.asciiValue, ascii >= 32, ascii < 127, !"/\\\":*?<>|".contains(character) else { return "_" }
            return character
        })
        let stamp = ISOTime.string(date).prefix(19).replacingOccurrences(of: "T", with: "_").replacingOccurrences(of: ":", with: "-")
        return "\(safe.isEmpty ? "camera" : safe)_\(stamp).mp4"
    }
}
