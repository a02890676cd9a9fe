import NIOCore

/// Runs a task's jobs on one NIO event loop (SE-0417 task executor preference).
///
/// A live viewer's writer task runs on the event loop of its WebSocket, which is also the loop its camera's
/// RTSP connection reads on (``StreamHub/watch(cameraID:variant:eventLoop:)``): a frame read from the camera
/// resumes the writer on the same thread, and the writer's socket write happens at once instead of
/// hopping through the global concurrency pool and back to the channel's loop (two thread wake-ups per frame).
public final class EventLoopTaskExecutor: TaskExecutor {
    public let eventLoop: any EventLoop

    public init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
