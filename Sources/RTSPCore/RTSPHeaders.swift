/// RTSP header fields (RFC 2326 §4.2, §12): an ordered, multi-valued list whose names
/// compare case-insensitively (RFC 2326 §4.2 defers to RFC 2616 §4.2: "Field names are
/// case-insensitive").
///
/// Order is preserved as received or added, so a message round-trips byte for byte
/// (apart from the `Content-Length` that ``RTSPRequest/write(into:)`` computes).
public struct RTSPHeaders: Sendable, Equatable, Sequence {
    public typealias Element = (name: String, value: String)

    @usableFromInline
    internal var storage: [(name: String, value: String)]

    public init() {
        self.storage = []
    }

    public init(_ pairs: [(String, String)]) {
        self.storage = pairs.map { (name: $0.0, value: $0.1) }
    }

    /// Number of header lines (a name present twice counts twice).
    public var count: Int { storage.count }

    public var isEmpty: Bool { storage.isEmpty }

    /// Appends a header line, keeping any existing lines of the same name.
    public mutating func add(name: String, value: String) {
        storage.append((name: name, value: value))
    }

    /// Replaces the first line of that name (in place, keeping its position) and removes
    /// the others; appends when there is none.
    public mutating func replaceOrAdd(name: String, value: String) {
        guard let first = storage.firstIndex(where: { Self.namesEqual($0.name, name) }) else {
            storage.append((name: name, value: value))
            return
        }
        storage[first] = (name: name, value: value)
        var index = storage.index(after: first)
        while index < storage.endIndex {
            if Self.namesEqual(storage[index].name, name) {
                storage.remove(at: index)
            } else {
                index = storage.index(after: index)
            }
        }
    }

    /// Removes every line of that name.
    public mutating func remove(name: String) {
        storage.removeAll { Self.namesEqual($0.name, name) }
    }

    /// All values for that name, in order.
    public subscript(name: String) -> [String] {
        storage.compactMap { Self.namesEqual($0.name, name) ? $0.value : nil }
    }

    /// The first value for that name.
    public func first(name: String) -> String? {
        storage.first { Self.namesEqual($0.name, name) }?.value
    }

    public func contains(name: String) -> Bool {
        storage.contains { Self.namesEqual($0.name, name) }
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        storage.makeIterator()
    }

    /// Same lines in the same order; names compared case-insensitively, values exactly.
    public static func == (lhs: RTSPHeaders, rhs: RTSPHeaders) -> Bool {
        guard lhs.storage.count == rhs.storage.count else { return false }
        for (left, right) in zip(lhs.storage, rhs.storage) {
            guard left.value == right.value, namesEqual(left.name, right.name) else { return false }
        }
        return true
    }

    /// ASCII case-insensitive comparison without allocating (header names are ASCII tokens).
    @usableFromInline
    internal static func namesEqual(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.utf8
        let right = rhs.utf8
        guard left.count == right.count else { return false }
        for (a, b) in zip(left, right) where a != b {
            guard asciiLowercase(a) == asciiLowercase(b) else { return false }
        }
        return true
    }

    @inlinable
    internal static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }
}

extension RTSPHeaders: ExpressibleByDictionaryLiteral {
    /// `["CSeq": "1", "Session": "abc"]`, in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }
}

extension RTSPHeaders: CustomStringConvertible {
    /// One `Name: value` per line, with `Authorization` and `Proxy-Authorization` values
    /// replaced by `<redacted>` so a logged message never carries credentials.
    public var description: String {
        storage.map { line in
            let redact = Self.namesEqual(line.name, "Authorization")
                || Self.namesEqual(line.name, "Proxy-Authorization")
            return "\(line.name): \(redact ? "<redacted>" : line.value)"
        }.joined(separator: "\n")
    }
}
