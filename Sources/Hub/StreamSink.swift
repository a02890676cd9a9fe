import Foundation
import RTSPClient

/// What a ``StreamSink`` is told by its stream.
public enum StreamSinkEvent: Sendable {
    /// Raw media as the upstream delivered it, audio included. A sink attached to a running stream first gets
    /// the current `formatChanged` (and `audioFormat` when there is audio) so it can start at the next keyframe.
    case media(RTSPMediaEvent)
    /// The upstream disconnected or stopped: the next media (if any) belongs to a new session, with a new clock.
    case interrupted
}

/// A consumer of a stream's raw media (the recorder). Attached with ``StreamHub/attach(sink:cameraID:variant:)``;
/// while attached it counts as demand, so the upstream runs (within `--max-streams`) as for a viewer.
///
/// `receive` is called on the upstream's thread, in order, and must never block: hand the event to a queue.
public protocol StreamSink: AnyObject, Sendable {
    func receive(_ event: StreamSinkEvent)
}

/// What ``StreamHub/attach(sink:cameraID:variant:)`` returns; give it to ``StreamHub/detach(_:)``.
public struct StreamSinkToken: Sendable, Hashable {
    public let id: UUID
    let cameraID: UUID
    let variant: StreamVariant
}
