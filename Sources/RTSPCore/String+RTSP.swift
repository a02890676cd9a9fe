/// Small text helpers shared by the header and SDP parsers (ASCII rules from RFC 2326 §15
/// and RFC 4566 §9: whitespace is SP or HTAB, tokens are ASCII).
extension StringProtocol {
    /// Drops leading and trailing SP, HTAB, CR and LF.
    func trimmingASCIIWhitespace() -> String {
        let text = Substring(String(self))
        let utf8 = text.utf8
        guard let start = utf8.firstIndex(where: { !isASCIIWhitespace($0) }),
              let end = utf8.lastIndex(where: { !isASCIIWhitespace($0) }) else { return "" }
        return String(text[start...end])
    }

    /// ASCII case-insensitive prefix test.
    func hasASCIIPrefixIgnoringCase(_ prefix: String) -> Bool {
        var mine = self.utf8.makeIterator()
        for expected in prefix.utf8 {
            guard let actual = mine.next(),
                  RTSPHeaders.asciiLowercase(actual) == RTSPHeaders.asciiLowercase(expected) else { return false }
        }
        return true
    }

    /// ASCII case-insensitive equality.
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        RTSPHeaders.namesEqual(String(self), other)
    }

    /// Splits at the first occurrence of `separator`: (before, after) or (self, nil).
    func splitOnce(_ separator: Character) -> (String, String?) {
        guard let index = self.firstIndex(of: separator) else { return (String(self), nil) }
        return (String(self[..<index]), String(self[self.index(after: index)...]))
    }

    /// Splits on `separator` outside double-quoted strings (RFC 2616 §2.2 quoted-string,
    /// with backslash escapes), keeping empty pieces.
    func splitOutsideQuotes(_ separator: Character) -> [String] {
        var pieces: [String] = []
        var current = ""
        var inQuotes = false
        var escaped = false
        for character in self {
            if escaped {
                current.append(character)
                escaped = false
            } else if inQuotes && character == "\\" {
                current.append(character)
                escaped = true
            } else if character == "\"" {
                inQuotes.toggle()
                current.append(character)
            } else if character == separator && !inQuotes {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        pieces.append(current)
        return pieces
    }

    /// Removes one pair of surrounding double quotes, if present.
    func unquoted() -> String {
        let trimmed = self.trimmingASCIIWhitespace()
        if trimmed.count >= 2, trimmed.hasPrefix("\""), trimmed.hasSuffix("\"") {
            return String(trimmed.dropFirst().dropLast())
        }
        return trimmed
    }
}

@inline(__always)
func isASCIIWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
}

@inline(__always)
func isASCIIDigit(_ byte: UInt8) -> Bool {
    byte >= 0x30 && byte <= 0x39
}

/// Lower-case hexadecimal of some bytes (digest responses, cnonces).
func hexString<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(64)
    for byte in bytes {
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
}
