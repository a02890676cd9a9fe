import Foundation

/// What a camera's recording is doing, as the API and the `recording` event show it.
public struct RecorderState: Sendable, Equatable, Codable {
    public enum State: String, Sendable, Codable {
        /// Recording is not wanted (mode off, or outside the schedule with no manual recording).
        case off
        /// Recording is set up but not wanted right now (scheduled, outside its windows).
        case idle
        case recording
        /// Recording is wanted but the camera gives no picture (yet).
        case waiting
        /// The disk is full: recording stopped until retention (or a person) frees space.
        case diskFull
        case error
    }

    public var state: State
    public var message: String?
    public var since: Date?
    public var manualUntil: Date?

    public init(state: State, message: String? = nil, since: Date? = nil, manualUntil: Date? = nil) {
        self.state = state
        self.message = message
        self.since = since
        self.manualUntil = manualUntil
    }
}
