import FuzzSupport
import NIOCore
import RTSPCore

/// Fuzzes RTSPStreamParser, the decoder of the mixed RTSP-over-TCP stream (RFC 2326 §4
/// messages and §10.12 `$` interleaved frames), and the header parsers a client runs on
/// what it decodes.
///
/// Input layout: byte 0 picks the parser's limits (bit 0: a small maxHeaderBytes, bit 1: a
/// small maxBodyBytes, bits 2...7: their size), byte 1 seeds the generator that cuts the
/// stream into reads, and the rest is the stream itself: a seed file is a real byte stream
/// after two bytes.
///
/// Checks: the parser never traps or loops (every event consumes input), and it yields the
/// same events, and leaves the same number of bytes discarded or buffered, whether the
/// stream arrives in one read or in many reads of random sizes (the contract: "survives
/// partial reads at any byte boundary").
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let limits = input.byte()
    var cutter = SplitMix64(seed: UInt64(input.byte()))
    let scale = Int(limits >> 2)
    let maxHeaderBytes = limits & 0x01 == 0 ? 64 * 1024 : 16 + scale * 8
    let maxBodyBytes = limits & 0x02 == 0 ? 4 * 1024 * 1024 : scale * 4
    let stream = input.rest()

    var whole = RTSPStreamParser(maxHeaderBytes: maxHeaderBytes, maxBodyBytes: maxBodyBytes)
    whole.append(ByteBuffer(bytes: stream))
    let expected = drain(&whole, appended: stream.count)

    var pieces = RTSPStreamParser(maxHeaderBytes: maxHeaderBytes, maxBodyBytes: maxBodyBytes)
    var events: [RTSPStreamEvent] = []
    var offset = stream.startIndex
    var reads: [Int] = []
    while offset < stream.endIndex {
        // Mostly short reads, now and then a long one, as a socket delivers them.
        let wanted = cutter.next() % 8 == 0 ? cutter.next(in: 1...4096) : cutter.next(in: 1...24)
        let length = min(wanted, stream.endIndex - offset)
        pieces.append(ByteBuffer(bytes: stream[offset..<(offset + length)]))
        events += drain(&pieces, appended: length)
        offset += length
        reads.append(length)
    }

    fuzzCheck(events == expected, """
        RTSPStreamParser gave different events for the same \(stream.count) bytes read whole \
        (\(describe(expected))) and in reads of \(reads) (\(describe(events))); \
        limits: maxHeaderBytes \(maxHeaderBytes), maxBodyBytes \(maxBodyBytes)
        """)
    // Bytes not given out as events are either discarded garbage or still buffered. Where a
    // read ends may move a byte from one to the other for a while (the parser cannot yet
    // tell whether "R" starts "RTSP/1.0"), but never changes their sum.
    let leftWhole = whole.discardedBytes + whole.bufferedBytes
    let leftPieces = pieces.discardedBytes + pieces.bufferedBytes
    fuzzCheck(leftPieces == leftWhole, """
        discarded + buffered bytes differ: \(whole.discardedBytes) + \(whole.bufferedBytes) read whole, \
        \(pieces.discardedBytes) + \(pieces.bufferedBytes) in reads of \(reads)
        """)
    fuzzCheck(whole.bufferedBytes >= 0 && whole.bufferedBytes <= stream.count,
              "bufferedBytes \(whole.bufferedBytes) is outside 0...\(stream.count) after \(stream.count) bytes")

    for event in expected {
        inspect(event)
    }
    return 0
}

/// Pulls every event the parser can produce now. Each event consumes at least one byte,
/// so more events than bytes appended means `next()` returns something without consuming.
private func drain(_ parser: inout RTSPStreamParser, appended: Int) -> [RTSPStreamEvent] {
    var events: [RTSPStreamEvent] = []
    while let event = parser.next() {
        events.append(event)
        fuzzCheck(events.count <= appended + 1,
                  "RTSPStreamParser.next() returned \(events.count) events after \(appended) new bytes: it does not consume its input")
    }
    return events
}

/// What a client does with a decoded event: read the headers it cares about and parse them.
private func inspect(_ event: RTSPStreamEvent) {
    switch event {
    case .response(let response):
        _ = response.cseq
        inspect(headers: response.headers)
        if let body = response.bodyString,
           response.headers.first(name: "Content-Type")?.lowercased().contains("sdp") ?? true {
            _ = try? SessionDescription.parse(body)
        }
    case .request(let request):
        _ = request.cseq
        _ = try? RTSPURL(string: request.uri)
        inspect(headers: request.headers)
    case .interleaved(_, let payload):
        fuzzCheck(payload.readableBytes <= Int(UInt16.max),
                  "an interleaved frame carries \(payload.readableBytes) bytes, more than its 16-bit length allows")
    }
}

private func inspect(headers: RTSPHeaders) {
    for value in headers["Transport"] {
        if let transport = try? TransportHeader(parsing: value) {
            _ = transport.headerValue
            _ = transport.isTCP
        }
    }
    for value in headers["Session"] {
        _ = SessionHeader(parsing: value)
    }
    for value in headers["RTP-Info"] {
        _ = RTPInfoEntry.parse(value)
    }
    _ = PublicMethods.parse(headers["Public"])
    let challenges = AuthChallenge.parse(headers["WWW-Authenticate"])
    if var authenticator = RTSPAuthenticator(
        credentials: RTSPCredentials(username: "user", password: "pass"), challenges: challenges) {
        authenticator.cnonceGenerator = { "0a4f113b" }
        _ = authenticator.schemeDescription
        _ = authenticator.authorization(method: "DESCRIBE", uri: "rtsp://127.0.0.1:8554/stream")
        _ = authenticator.authorization(method: "SETUP", uri: "rtsp://127.0.0.1:8554/stream/trackID=1")
    }
    for name in ["Content-Base", "Content-Location", "Location"] {
        for value in headers[name] {
            if let url = try? RTSPURL(string: value) {
                _ = url.resolving("trackID=1").requestURI
                _ = url.resolving("*").redacted
                _ = url.credentials
            }
        }
    }
}

private func describe(_ events: [RTSPStreamEvent]) -> String {
    let parts = events.prefix(8).map { event -> String in
        switch event {
        case .response(let response): return "response \(response.statusCode)"
        case .request(let request): return "request \(request.method)"
        case .interleaved(let channel, let payload): return "$\(channel) \(payload.readableBytes) bytes"
        }
    }
    return "\(events.count) events: " + parts.joined(separator: ", ") + (events.count > 8 ? ", ..." : "")
}
