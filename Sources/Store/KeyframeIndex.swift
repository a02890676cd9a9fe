import Foundation

/// Where a segment file's keyframes are: for each fragment that starts with a keyframe, its media time (the
/// video `tfdt` in milliseconds) and the byte offset of its `moof`. Both grow monotonically, so the compact
/// form stores a version byte then, per entry, the two deltas as unsigned LEB128 varints (a one-minute
/// segment with a keyframe every second takes about 5 bytes a keyframe). Pure value type, no I/O.
public struct KeyframeIndex: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var mediaTimeMs: Int64
        public var offset: Int64

        public init(mediaTimeMs: Int64, offset: Int64) {
            self.mediaTimeMs = mediaTimeMs
            self.offset = offset
        }
    }

    public static let version: UInt8 = 1
    public private(set) var entries: [Entry]

    public init(entries: [Entry] = []) {
        self.entries = entries
    }

    /// Adds an entry; one that does not move forward in time and offset is refused (false).
    @discardableResult
    public mutating func append(mediaTimeMs: Int64, offset: Int64) -> Bool {
        if let last = entries.last, mediaTimeMs < last.mediaTimeMs || offset <= last.offset { return false }
        guard mediaTimeMs >= 0, offset >= 0 else { return false }
        entries.append(Entry(mediaTimeMs: mediaTimeMs, offset: offset))
        return true
    }

    /// The last entry at or before `mediaTimeMs` (the first one when the time is before it); nil when empty.
    public func entry(atOrBefore mediaTimeMs: Int64) -> Entry? {
        guard !entries.isEmpty else { return nil }
        var low = 0, high = entries.count - 1
        if entries[0].mediaTimeMs > mediaTimeMs { return entries[0] }
        while low < high {
            let middle = (low + high + 1) / 2
            if entries[middle].mediaTimeMs <= mediaTimeMs { low = middle } else { high = middle - 1 }
        }
        return entries[low]
    }

    public var encoded: Data {
        var data = Data([Self.version])
        var time: Int64 = 0, offset: Int64 = 0
        for entry in entries {
            Self.writeVarint(UInt64(entry.mediaTimeMs - time), into: &data)
            Self.writeVarint(UInt64(entry.offset - offset), into: &data)
            time = entry.mediaTimeMs
            offset = entry.offset
        }
        return data
    }

    /// Decodes the compact form; throws on an unknown version or bytes that end inside an entry.
    public init(encoded data: Data) throws {
        let bytes = [UInt8](data)
        guard let first = bytes.first else { throw StoreError(.database, "a keyframe index is empty: the segment row is damaged") }
        guard first == Self.version else {
            throw StoreError(.database, "a keyframe index has version \(first), this WatchBox reads \(Self.version): run the newer WatchBox")
        }
        var position = 1
        var time: Int64 = 0, offset: Int64 = 0
        var entries: [Entry] = []
        while position < bytes.count {
            guard let deltaTime = Self.readVarint(bytes, &position), let deltaOffset = Self.readVarint(bytes, &position),
                  deltaTime <= UInt64(Int64.max - time), deltaOffset <= UInt64(Int64.max - offset) else {
                throw StoreError(.database, "a keyframe index ends inside an entry: the segment row is damaged")
            }
            time += Int64(deltaTime)
            offset += Int64(deltaOffset)
            entries.append(Entry(mediaTimeMs: time, offset: offset))
        }
        self.entries = entries
    }

    static func writeVarint(_ value: UInt64, into data: inout Data) {
        var value = value
        repeat {
            var byte = UInt8(value & 0x7F)
            value >>= 7
            if value != 0 { byte |= 0x80 }
            data.append(byte)
        } while value != 0
    }

    static func readVarint(_ bytes: [UInt8], _ position: inout Int) -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while position < bytes.count, shift < 64 {
            let byte = bytes[position]
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
        return nil
    }
}
