import NIOCore

/// The start line and header block of one RTSP message (RFC 2326 §4, §6, §7), parsed
/// from raw bytes by ``RTSPStreamParser``. Internal: the public types are
/// ``RTSPRequest`` and ``RTSPResponse``.
struct RTSPMessageHead: Sendable {
    enum StartLine: Sendable {
        /// RFC 2326 §6.1 Request-Line.
        case request(method: String, uri: String, version: String)
        /// RFC 2326 §7.1 Status-Line.
        case response(version: String, statusCode: Int, reasonPhrase: String)
    }

    var startLine: StartLine
    var headers: RTSPHeaders

    /// RFC 2326 §12.14 Content-Length; 0 when absent or unparseable (quirk: a response
    /// without Content-Length has no body).
    var contentLength: Int {
        guard let raw = headers.first(name: "Content-Length"),
              let value = Int(raw.trimmingASCIIWhitespace()), value > 0 else { return 0 }
        return value
    }

    func event(body: ByteBuffer?) -> RTSPStreamEvent {
        switch startLine {
        case let .request(method, uri, version):
            var request = RTSPRequest(method: method, uri: uri, headers: headers, body: body)
            request.version = version
            return .request(request)
        case let .response(version, statusCode, reasonPhrase):
            return .response(RTSPResponse(statusCode: statusCode, reasonPhrase: reasonPhrase,
                                          headers: headers, body: body, version: version))
        }
    }

    /// Parses a complete head (start line through the empty line). Returns nil when the
    /// start line does not hold a valid status code or request line (the caller resyncs).
    ///
    /// Tolerated quirks: LF-only line endings; header names in any case; whitespace
    /// around ':'; folded continuation lines (leading SP/HTAB, RFC 2616 §2.2 LWS);
    /// lines without ':' are skipped; a missing reason phrase.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> RTSPMessageHead? {
        // Split on LF bytes (a Swift Character would treat CR LF as one grapheme).
        var lines: [Substring] = []
        var lineStart = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x0A {
            var lineEnd = index
            if lineEnd > lineStart, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let line = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[lineStart..<lineEnd]), as: UTF8.self)
            lines.append(Substring(line))
            lineStart = index + 1
        }
        guard let first = lines.first else { return nil }
        guard let startLine = parseStartLine(first) else { return nil }

        var pairs: [(String, String)] = []
        for line in lines.dropFirst() {
            if line.isEmpty { break }
            if let lead = line.utf8.first, lead == 0x20 || lead == 0x09 {
                // Folded continuation of the previous header's value.
                guard !pairs.isEmpty else { continue }
                let continuation = line.trimmingASCIIWhitespace()
                if !continuation.isEmpty {
                    let previous = pairs[pairs.count - 1].1
                    pairs[pairs.count - 1].1 = previous.isEmpty ? continuation : previous + " " + continuation
                }
                continue
            }
            let (name, value) = line.splitOnce(":")
            guard let value else { continue }
            let trimmedName = name.trimmingASCIIWhitespace()
            guard !trimmedName.isEmpty else { continue }
            pairs.append((trimmedName, value.trimmingASCIIWhitespace()))
        }
        return RTSPMessageHead(startLine: startLine, headers: RTSPHeaders(pairs))
    }

    private static func parseStartLine(_ line: Substring) -> StartLine? {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2 else { return nil }
        if parts[0].hasPrefix("RTSP/") {
            let code = parts[1]
            guard code.utf8.count == 3, code.utf8.allSatisfy(isASCIIDigit), let status = Int(code) else { return nil }
            let reason = parts.count == 3 ? parts[2].trimmingASCIIWhitespace() : ""
            return .response(version: String(parts[0]), statusCode: status, reasonPhrase: reason)
        }
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count == 3, words[2].hasPrefix("RTSP/") else { return nil }
        return .request(method: String(words[0]), uri: String(words[1]), version: String(words[2]))
    }
}

/// Recognises where an RTSP message may start in a byte stream (RFC 2326 §6.1, §7.1).
enum RTSPStartMatcher {
    enum Match: Equatable {
        case message
        case needMoreData
        case mismatch
    }

    /// Does `bytes` begin with a status line prefix "RTSP/d.d " or a whole request line
    /// "METHOD SP uri SP RTSP/d.d" (method: upper-case letters, '_' and '-')?
    /// `maxLineBytes` bounds how long a request line may grow before it is garbage.
    static func match(_ bytes: UnsafeRawBufferPointer, maxLineBytes: Int) -> Match {
        let response = matchStatusLine(bytes)
        if response == .message { return .message }
        let request = matchRequestLine(bytes, maxLineBytes: maxLineBytes)
        if request == .message { return .message }
        if response == .needMoreData || request == .needMoreData { return .needMoreData }
        return .mismatch
    }

    /// "RTSP/" DIGIT "." DIGIT SP
    static func matchStatusLine(_ bytes: UnsafeRawBufferPointer) -> Match {
        let pattern: [UInt8?] = Array("RTSP/".utf8).map { Optional($0) } + [nil, UInt8(ascii: "."), nil, UInt8(ascii: " ")]
        for (offset, expected) in pattern.enumerated() {
            guard offset < bytes.count else { return .needMoreData }
            let byte = bytes[offset]
            if let expected {
                guard byte == expected else { return .mismatch }
            } else {
                guard isASCIIDigit(byte) else { return .mismatch }
            }
        }
        return .message
    }

    static func matchRequestLine(_ bytes: UnsafeRawBufferPointer, maxLineBytes: Int) -> Match {
        guard let first = bytes.first else { return .needMoreData }
        // Method: an upper-case letter, then upper-case letters, '_' or '-'. The first byte must
        // be one the resynchronising scan also stops at, or the outcome would depend on where
        // reads happened to split the stream.
        guard isCandidateStart(first), first != UInt8(ascii: "$") else { return .mismatch }
        var index = 1
        while index < bytes.count, isMethodByte(bytes[index]) { index += 1 }
        guard index < bytes.count else { return index >= maxLineBytes ? .mismatch : .needMoreData }
        guard bytes[index] == 0x20 else { return .mismatch }
        // Rest of the line: must end in " RTSP/d.d" (optional CR) before LF.
        let lineFeed: Int
        switch firstLineFeed(bytes, from: index, limit: maxLineBytes) {
        case .found(let position): lineFeed = position
        case .garbage: return .mismatch
        case .notYet: return bytes.count >= maxLineBytes ? .mismatch : .needMoreData
        }
        var end = lineFeed
        if end > index, bytes[end - 1] == 0x0D { end -= 1 }
        // Find the version: the last space-separated word.
        var versionStart = end
        while versionStart > index, bytes[versionStart - 1] != 0x20 { versionStart -= 1 }
        let uriEnd = versionStart - 1  // the space before the version
        guard uriEnd > index + 1 else { return .mismatch }  // a non-empty URI
        for position in (index + 1)..<uriEnd where bytes[position] == 0x20 || bytes[position] < 0x20 {
            return .mismatch
        }
        let version = UnsafeRawBufferPointer(rebasing: bytes[versionStart..<end])
        guard version.count == 8, matchStatusLineVersion(version) else { return .mismatch }
        return .message
    }

    private static func matchStatusLineVersion(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let prefix = Array("RTSP/".utf8)
        for (offset, expected) in prefix.enumerated() where bytes[offset] != expected { return false }
        return isASCIIDigit(bytes[5]) && bytes[6] == UInt8(ascii: ".") && isASCIIDigit(bytes[7])
    }

    /// The first LF at or after `start`, or nil when none is there yet. A control byte other
    /// than CR, LF or TAB before it cannot be part of a request line: that is garbage, found now
    /// rather than after waiting for `limit` bytes.
    private static func firstLineFeed(_ bytes: UnsafeRawBufferPointer, from start: Int, limit: Int) -> LineEnd {
        var index = start
        let end = min(bytes.count, limit)
        while index < end {
            let byte = bytes[index]
            if byte == 0x0A { return .found(index) }
            if (byte < 0x20 && byte != 0x0D && byte != 0x09) || byte == 0x7F { return .garbage }
            index += 1
        }
        return .notYet
    }

    private enum LineEnd {
        case found(Int)
        case notYet
        case garbage
    }

    @inline(__always)
    static func isMethodByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    /// A byte where a message or interleaved frame may start: '$' or an upper-case letter.
    @inline(__always)
    static func isCandidateStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "$") || (byte >= 0x41 && byte <= 0x5A)
    }
}
