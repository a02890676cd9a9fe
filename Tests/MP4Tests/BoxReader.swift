import NIOCore
import Testing

/// A small ISO BMFF box reader for the tests (ISO/IEC 14496-12 §4.2), written independently of the
/// writers: it walks the tree, checks that every child fits its parent exactly, and gives typed access to
/// full-box fields.
struct Box: CustomStringConvertible {
    var type: String
    /// Offset of the box's first byte in the buffer that was parsed.
    var offset: Int
    var size: Int
    var headerSize: Int
    /// The bytes after the header (for a full box: starting with version and flags).
    var payload: [UInt8]
    var children: [Box]

    var description: String { "\(type)(\(size))" }

    /// Version of a full box.
    var version: UInt8 { payload[0] }
    /// Flags of a full box.
    var flags: UInt32 { UInt32(payload[1]) << 16 | UInt32(payload[2]) << 8 | UInt32(payload[3]) }

    /// A reader over the payload after version and flags (full boxes) or over the whole payload.
    func fields(fullBox: Bool = true) -> FieldReader { FieldReader(payload, at: fullBox ? 4 : 0) }

    func child(_ type: String) -> Box? { children.first { $0.type == type } }
    func children(_ type: String) -> [Box] { children.filter { $0.type == type } }

    /// The first descendant of this type, depth first.
    func find(_ type: String) -> Box? {
        for child in children {
            if child.type == type { return child }
            if let found = child.find(type) { return found }
        }
        return nil
    }

    /// Every box in the tree, depth first.
    var all: [Box] { children.flatMap { [$0] + $0.all } }

    /// Box types whose payload is only child boxes.
    static let containers: Set<String> = ["moov", "trak", "mdia", "minf", "dinf", "stbl", "mvex", "moof", "traf", "edts", "udta"]
    /// Boxes with a fixed-size head before their children.
    static let headBeforeChildren: [String: Int] = [
        "stsd": 8,   // version/flags + entry_count
        "dref": 8,
        "avc1": 78, "avc3": 78, "hvc1": 78, "hev1": 78,   // SampleEntry (8) + VisualSampleEntry (70)
        "mp4a": 28,  // SampleEntry (8) + AudioSampleEntry (20)
    ]

    struct ParseError: Error, CustomStringConvertible { var description: String }

    /// Parses consecutive boxes filling `bytes[range]` exactly.
    static func parse(_ bytes: [UInt8], range: Range<Int>? = nil) throws -> [Box] {
        let range = range ?? 0..<bytes.count
        var boxes: [Box] = []
        var position = range.lowerBound
        while position < range.upperBound {
            guard range.upperBound - position >= 8 else {
                throw ParseError(description: "\(range.upperBound - position) stray bytes at \(position)")
            }
            var reader = FieldReader(bytes, at: position)
            var size = Int(reader.u32())
            let type = reader.fourCC()
            var header = 8
            if size == 1 {
                size = Int(reader.u64())
                header = 16
            } else if size == 0 {
                size = range.upperBound - position
            }
            guard size >= header, position + size <= range.upperBound else {
                throw ParseError(description: "box \(type) at \(position) has size \(size), beyond its parent (ends at \(range.upperBound))")
            }
            let payloadRange = (position + header)..<(position + size)
            var children: [Box] = []
            if containers.contains(type) {
                children = try parse(bytes, range: payloadRange)
            } else if let head = headBeforeChildren[type] {
                guard payloadRange.count >= head else {
                    throw ParseError(description: "box \(type) is \(payloadRange.count) bytes, shorter than its \(head)-byte head")
                }
                children = try parse(bytes, range: (payloadRange.lowerBound + head)..<payloadRange.upperBound)
            }
            boxes.append(Box(type: type, offset: position, size: size, headerSize: header,
                             payload: Array(bytes[payloadRange]), children: children))
            position += size
        }
        return boxes
    }

    static func parse(_ buffer: ByteBuffer) throws -> [Box] {
        try parse(Array(buffer.readableBytesView))
    }
}

/// Big-endian field reader.
struct FieldReader {
    var bytes: [UInt8]
    var index: Int

    init(_ bytes: [UInt8], at index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    var remaining: Int { bytes.count - index }

    mutating func u8() -> UInt8 {
        defer { index += 1 }
        return bytes[index]
    }

    mutating func u16() -> UInt16 { UInt16(u8()) << 8 | UInt16(u8()) }
    mutating func u24() -> UInt32 { UInt32(u8()) << 16 | UInt32(u16()) }
    mutating func u32() -> UInt32 { UInt32(u16()) << 16 | UInt32(u16()) }
    mutating func u64() -> UInt64 { UInt64(u32()) << 32 | UInt64(u32()) }
    mutating func i32() -> Int32 { Int32(bitPattern: u32()) }
    mutating func i16() -> Int16 { Int16(bitPattern: u16()) }

    mutating func fourCC() -> String {
        String(decoding: take(4), as: UTF8.self)
    }

    mutating func take(_ count: Int) -> [UInt8] {
        defer { index += count }
        return Array(bytes[index..<(index + count)])
    }

    mutating func skip(_ count: Int) { index += count }

    /// ISO/IEC 14496-1 §8.3.3 expandable size.
    mutating func descriptorSize() -> Int {
        var size = 0
        for _ in 0..<4 {
            let byte = u8()
            size = size << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 { break }
        }
        return size
    }
}

/// The parsed contents of a fragment's trun, per sample.
struct RunSample: Equatable {
    var duration: UInt32
    var size: UInt32
    var flags: UInt32
    var compositionOffset: Int32
}

/// A parsed `traf`: the fields the tests look at.
struct ParsedTrackFragment {
    var trackID: UInt32
    var tfhdFlags: UInt32
    var baseMediaDecodeTime: UInt64
    var tfdtVersion: UInt8
    var trunVersion: UInt8
    var trunFlags: UInt32
    var dataOffset: Int32
    var samples: [RunSample]

    init(_ traf: Box) throws {
        let tfhd = try #require(traf.child("tfhd"))
        let tfdt = try #require(traf.child("tfdt"))
        let trun = try #require(traf.child("trun"))
        tfhdFlags = tfhd.flags
        var reader = tfhd.fields()
        trackID = reader.u32()
        tfdtVersion = tfdt.version
        reader = tfdt.fields()
        baseMediaDecodeTime = tfdt.version == 1 ? reader.u64() : UInt64(reader.u32())
        trunVersion = trun.version
        trunFlags = trun.flags
        reader = trun.fields()
        let count = Int(reader.u32())
        dataOffset = trun.flags & 0x1 != 0 ? reader.i32() : 0
        if trun.flags & 0x4 != 0 { reader.skip(4) }
        samples = []
        for _ in 0..<count {
            let duration = trun.flags & 0x100 != 0 ? reader.u32() : 0
            let size = trun.flags & 0x200 != 0 ? reader.u32() : 0
            let flags = trun.flags & 0x400 != 0 ? reader.u32() : 0
            var offset: Int32 = 0
            if trun.flags & 0x800 != 0 {
                offset = trun.version == 0 ? Int32(bitPattern: reader.u32()) : reader.i32()
            }
            samples.append(RunSample(duration: duration, size: size, flags: flags, compositionOffset: offset))
        }
        #expect(reader.remaining == 0, "trun has \(reader.remaining) bytes after its samples")
    }
}
