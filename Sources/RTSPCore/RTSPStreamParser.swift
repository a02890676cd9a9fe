import NIOCore

/// The one decoder for the mixed RTSP-over-TCP stream: responses (with Content-Length
/// bodies), RFC 2326 §10.12 `$`-framed interleaved packets, and requests the server
/// sends us.
///
/// Push bytes with ``append(_:)`` as they arrive and drain events with ``next()`` until
/// it returns nil (more data needed). Survives partial reads at any byte boundary. After
/// garbage it resynchronises by skipping bytes until a `$`, a status line
/// ("RTSP/1.0 ") or a request line ("METHOD uri RTSP/1.0") starts, counting what it
/// skipped in ``discardedBytes``. Never throws, never traps. Pure: no I/O.
///
/// Named tolerances (each has a test):
/// - LF-only line endings (and mixed CRLF/LF);
/// - header lines folded with leading whitespace;
/// - header names in any case, whitespace around ':';
/// - a missing reason phrase ("RTSP/1.0 200");
/// - a message without Content-Length has no body;
/// - a body larger than `maxBodyBytes` is skipped without being buffered: the message
///   is still delivered, with `body == nil` while its Content-Length says otherwise;
/// - a header block larger than `maxHeaderBytes` is treated as garbage (resync).
///
/// Interleaved frames are the hot path: the header is read with two loads and the
/// payload is a slice of the internal buffer (no copy, no per-byte work). The buffer is
/// compacted only when more than half of it has been consumed.
public struct RTSPStreamParser: Sendable {
    /// Upper bound for a start line plus headers; larger blocks are skipped as garbage.
    public let maxHeaderBytes: Int
    /// Upper bound for a Content-Length body to be buffered; larger bodies are skipped.
    public let maxBodyBytes: Int

    /// Garbage skipped while resynchronising (the caller warns once).
    public private(set) var discardedBytes: Int = 0
    /// Body bytes skipped because a Content-Length exceeded `maxBodyBytes`.
    public private(set) var skippedBodyBytes: Int = 0

    /// Bytes received but not yet returned as events (including a partly received message).
    public var bufferedBytes: Int { buffer.readableBytes + pendingHeadBytes }

    private enum State: Sendable {
        /// Looking for the next message or frame at the reader index.
        case idle
        /// The head was consumed (`headBytes` long); waiting for `length` body bytes.
        case awaitingBody(RTSPMessageHead, length: Int, headBytes: Int)
        /// Dropping an oversized body.
        case skippingBody(remaining: Int)
    }

    private var buffer: ByteBuffer
    private var state: State = .idle
    /// How far past the reader index the search for the end of the head has got.
    private var headScanOffset = 0

    private var pendingHeadBytes: Int {
        if case let .awaitingBody(_, _, headBytes) = state { return headBytes }
        return 0
    }

    public init(maxHeaderBytes: Int = 64 * 1024, maxBodyBytes: Int = 4 * 1024 * 1024) {
        self.maxHeaderBytes = max(64, maxHeaderBytes)
        self.maxBodyBytes = max(0, maxBodyBytes)
        self.buffer = ByteBuffer()
    }

    /// Adds received bytes. When nothing is buffered the incoming buffer is adopted as is,
    /// so interleaved payloads are slices of the very buffer the channel delivered.
    public mutating func append(_ bytes: ByteBuffer) {
        guard bytes.readableBytes > 0 else { return }
        if buffer.readableBytes == 0 {
            buffer = bytes
            return
        }
        if buffer.readerIndex >= 4096 && buffer.readerIndex >= buffer.writerIndex / 2 {
            buffer.discardReadBytes()
        }
        buffer.writeImmutableBuffer(bytes)
    }

    /// The next complete event, or nil when more data is needed.
    public mutating func next() -> RTSPStreamEvent? {
        while true {
            switch state {
            case let .skippingBody(remaining):
                let dropped = min(remaining, buffer.readableBytes)
                buffer.moveReaderIndex(forwardBy: dropped)
                skippedBodyBytes += dropped
                if dropped < remaining {
                    state = .skippingBody(remaining: remaining - dropped)
                    return nil
                }
                state = .idle

            case let .awaitingBody(head, length, _):
                guard let body = buffer.readSlice(length: length) else { return nil }
                state = .idle
                return head.event(body: body)

            case .idle:
                guard let first = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return nil }
                if first == UInt8(ascii: "$") {
                    return nextInterleaved()
                }
                switch matchStart() {
                case .needMoreData:
                    return nil
                case .mismatch:
                    skipGarbage()
                case .message:
                    switch findHeadEnd() {
                    case .needMoreData:
                        guard buffer.readableBytes >= maxHeaderBytes else { return nil }
                        skipGarbage()  // oversized header block
                    case let .found(headLength):
                        guard headLength <= maxHeaderBytes else {
                            skipGarbage()
                            continue
                        }
                        if let event = consumeHead(length: headLength) {
                            return event
                        }
                    }
                }
            }
        }
    }

    // MARK: - Interleaved frames (RFC 2326 §10.12)

    private mutating func nextInterleaved() -> RTSPStreamEvent? {
        let start = buffer.readerIndex
        guard let channel = buffer.getInteger(at: start + 1, as: UInt8.self),
              let length = buffer.getInteger(at: start + 2, as: UInt16.self) else { return nil }
        guard buffer.readableBytes >= 4 + Int(length) else { return nil }
        buffer.moveReaderIndex(forwardBy: 4)
        guard let payload = buffer.readSlice(length: Int(length)) else { return nil }
        return .interleaved(channel: channel, payload: payload)
    }

    // MARK: - Messages

    private func matchStart() -> RTSPStartMatcher.Match {
        let limit = maxHeaderBytes
        return buffer.withUnsafeReadableBytes { bytes in
            RTSPStartMatcher.match(bytes, maxLineBytes: limit)
        }
    }

    private enum HeadEnd {
        case needMoreData
        /// Length of the head including the empty line that ends it.
        case found(Int)
    }

    /// Finds the empty line ending the head: LF followed by LF or by CR LF.
    private mutating func findHeadEnd() -> HeadEnd {
        let from = headScanOffset
        let limit = maxHeaderBytes
        let (result, resume): (HeadEnd, Int) = buffer.withUnsafeReadableBytes { bytes in
            var index = from
            let end = min(bytes.count, limit + 2)
            while index < end {
                if bytes[index] == 0x0A {
                    guard index + 1 < bytes.count else { return (.needMoreData, index) }
                    let following = bytes[index + 1]
                    if following == 0x0A { return (.found(index + 2), index) }
                    if following == 0x0D {
                        guard index + 2 < bytes.count else { return (.needMoreData, index) }
                        if bytes[index + 2] == 0x0A { return (.found(index + 3), index) }
                    }
                }
                index += 1
            }
            return (.needMoreData, index)
        }
        headScanOffset = resume
        return result
    }

    /// Parses and consumes a complete head; returns the event when the message is done,
    /// nil when the state moved on (body pending or garbage skipped).
    private mutating func consumeHead(length: Int) -> RTSPStreamEvent? {
        let head = buffer.withUnsafeReadableBytes { bytes in
            RTSPMessageHead.parse(UnsafeRawBufferPointer(rebasing: bytes[0..<length]))
        }
        guard let head else {
            skipGarbage()
            return nil
        }
        buffer.moveReaderIndex(forwardBy: length)
        headScanOffset = 0
        let contentLength = head.contentLength
        if contentLength == 0 {
            return head.event(body: nil)
        }
        if contentLength > maxBodyBytes {
            state = .skippingBody(remaining: contentLength)
            return head.event(body: nil)
        }
        state = .awaitingBody(head, length: contentLength, headBytes: length)
        return nil
    }

    /// Drops the byte at the reader index and everything up to the next byte where a
    /// frame or message could start.
    private mutating func skipGarbage() {
        let skip = buffer.withUnsafeReadableBytes { bytes -> Int in
            var index = 1
            while index < bytes.count, !RTSPStartMatcher.isCandidateStart(bytes[index]) { index += 1 }
            return min(index, bytes.count)
        }
        buffer.moveReaderIndex(forwardBy: skip)
        discardedBytes += skip
        headScanOffset = 0
    }
}
