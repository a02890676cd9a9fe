import Foundation
import GRDB

/// One IP camera of the registry: a row of the `camera` table (schema "v1", see `AppDatabase+Migrations.swift`).
///
/// The camera's password is never stored in clear: `passwordSealed` holds what `SecretBox.seal(_:)` returned.
/// The stream URL is stored without credentials (the store refuses a URL with a user name or password in it).
public struct Camera: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    /// Primary key, stored as an upper-case UUID string.
    public var id: UUID
    /// The name shown to people ("Front door").
    public var name: String
    /// The main stream's URL (RFC 7826 §4.2 rtsp/rtsps URI), without user name or password.
    public var rtspURL: String
    /// The user name for RTSP authentication (RFC 7826 §19.1), "" for none.
    public var username: String
    /// The password sealed by `SecretBox` (AES-GCM combined: nonce, ciphertext, tag); nil for none.
    public var passwordSealed: Data?
    /// The camera's IP address or host name, derived from the URL by the caller.
    public var host: String?
    /// The RTSP port (RFC 7826 §4.2: 554 by default, 322 for rtsps).
    public var port: Int
    public var manufacturer: String?
    public var model: String?
    /// An inactive camera stays in the registry but is never connected to.
    public var isActive: Bool
    /// The place in the grid, from 0; kept dense by the store (append, compaction on delete, reorder).
    public var gridPosition: Int
    /// When the camera was added (stored with millisecond precision).
    public var addedAt: Date
    /// When a stream from the camera last started.
    public var lastConnectedAt: Date?
    /// The last snapshot, as JPEG.
    public var thumbnail: Data?
    /// When `thumbnail` was taken.
    public var thumbnailAt: Date?
    /// How RTP travels: "tcp" (RFC 7826 §C.2 interleaved on the RTSP connection) or "udp".
    public var transport: String
    /// For rtsps: accept a certificate that no trusted authority signed (most cameras have such a one).
    public var allowSelfSignedCertificate: Bool
    /// The built-in demo camera (a looping clip), not a real device.
    public var isDemo: Bool

    public init(id: UUID = UUID(), name: String, rtspURL: String, username: String = "", passwordSealed: Data? = nil,
                host: String? = nil, port: Int = 554, manufacturer: String? = nil, model: String? = nil,
                isActive: Bool = true, gridPosition: Int = 0, addedAt: Date = Date(), transport: String = "tcp",
                allowSelfSignedCertificate: Bool = false, isDemo: Bool = false) {
        self.id = id
        self.name = name
        self.rtspURL = rtspURL
        self.username = username
        self.passwordSealed = passwordSealed
        self.host = host
        self.port = port
        self.manufacturer = manufacturer
        self.model = model
        self.isActive = isActive
        self.gridPosition = gridPosition
        self.addedAt = addedAt
        self.lastConnectedAt = nil
        self.thumbnail = nil
        self.thumbnailAt = nil
        self.transport = transport
        self.allowSelfSignedCertificate = allowSelfSignedCertificate
        self.isDemo = isDemo
    }

    /// The values `transport` may take.
    public static let transports: Set<String> = ["tcp", "udp"]
}

// MARK: - Database representation

extension Camera {
    public static let databaseTableName = "camera"

    /// UUIDs are stored as text (`"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"`), readable in the sqlite3 shell.
    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        .uppercaseString
    }

    /// The columns of the `camera` table, for requests.
    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let name = Column(CodingKeys.name)
        public static let rtspURL = Column(CodingKeys.rtspURL)
        public static let username = Column(CodingKeys.username)
        public static let passwordSealed = Column(CodingKeys.passwordSealed)
        public static let host = Column(CodingKeys.host)
        public static let port = Column(CodingKeys.port)
        public static let manufacturer = Column(CodingKeys.manufacturer)
        public static let model = Column(CodingKeys.model)
        public static let isActive = Column(CodingKeys.isActive)
        public static let gridPosition = Column(CodingKeys.gridPosition)
        public static let addedAt = Column(CodingKeys.addedAt)
        public static let lastConnectedAt = Column(CodingKeys.lastConnectedAt)
        public static let thumbnail = Column(CodingKeys.thumbnail)
        public static let thumbnailAt = Column(CodingKeys.thumbnailAt)
        public static let transport = Column(CodingKeys.transport)
        public static let allowSelfSignedCertificate = Column(CodingKeys.allowSelfSignedCertificate)
        public static let isDemo = Column(CodingKeys.isDemo)
    }

    /// The columns that `CameraRepository.update(_:)` writes: what a person edits. The store keeps the others
    /// (grid position, dates, thumbnail) itself, so that an update from a stale copy cannot undo a reorder,
    /// a new thumbnail or a connection time written meanwhile.
    static let editableColumns: [Column] = [
        Columns.name, Columns.rtspURL, Columns.username, Columns.passwordSealed, Columns.host, Columns.port,
        Columns.manufacturer, Columns.model, Columns.isActive, Columns.transport,
        Columns.allowSelfSignedCertificate, Columns.isDemo,
    ]

    /// The cameras in grid order: by `gridPosition`, then `addedAt` (then id, so that the order is total).
    static func inGridOrder() -> QueryInterfaceRequest<Camera> {
        Camera.order(Columns.gridPosition, Columns.addedAt, Columns.id)
    }

    /// Throws a `StoreError` (`.invalidInput`) when the camera breaks a rule of the schema.
    func validate() throws {
        try RecordValidation.requireName(name, what: "camera")
        try RecordValidation.requireURLWithoutCredentials(rtspURL, what: "camera \"\(name)\"")
        guard Self.transports.contains(transport) else {
            throw StoreError(.invalidInput, "camera \"\(name)\": transport must be \"tcp\" or \"udp\", not \"\(transport)\"")
        }
        guard (0...65_535).contains(port) else {
            throw StoreError(.invalidInput, "camera \"\(name)\": port \(port) is outside 0...65535")
        }
    }
}
