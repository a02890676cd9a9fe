import Foundation
import Store

/// The segment a recorder is writing, as far as it is on disk (whole fragments only): listed with
/// `"inProgress": true` and playable before it closes. Its `id` is negative and lasts until it closes (the
/// closed segment's row then has its own id).
public struct OpenSegment: Sendable, Equatable {
    public var id: Int64
    public var cameraID: UUID
    public var relativePath: String
    public var start: Date
    /// Seconds of video in the whole fragments written so far.
    public var writtenSeconds: Double
    /// Bytes of the init segment and the whole fragments written so far.
    public var committedBytes: Int64
    public var keyframes: KeyframeIndex
    public var codec: String
    public var mimeType: String
    public var width: Int
    public var height: Int

    public var end: Date { start.addingTimeInterval(writtenSeconds) }
}
