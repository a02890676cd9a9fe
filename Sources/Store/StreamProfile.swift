import Foundation
import GRDB

/// One stream a camera offers ("Main", "Sub"): a row of the `streamProfile` table (schema "v1").
///
/// Deleting the camera deletes its profiles (foreign key `ON DELETE CASCADE`). At most one profile per camera
/// is the default (a partial unique index; `CameraRepository.insertProfile(_:)` clears the others).
public struct StreamProfile: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    /// Primary key, stored as an upper-case UUID string.
    public var id: UUID
    /// The camera this stream belongs to (`camera.id`).
    public var cameraID: UUID
    /// The name shown to people: "Main", "Sub", or the camera's own profile name (ONVIF `trt:Profile/tt:Name`).
    public var name: String
    /// The stream's URL (RFC 7826 §4.2), without user name or password: the camera's credentials apply.
    public var rtspURL: String
    /// The picture's width in pixels, when known (from the SPS or the camera's media profile).
    public var width: Int?
    /// The picture's height in pixels, when known.
    public var height: Int?
    /// Frames per second, when known.
    public var fps: Double?
    /// The stream to play when nobody asks for a particular one.
    public var isDefault: Bool
    /// "main" (full resolution, for recording and full screen) or "sub" (small, for the grid).
    public var role: String

    public init(id: UUID = UUID(), cameraID: UUID, name: String = "Main", rtspURL: String, width: Int? = nil,
                height: Int? = nil, fps: Double? = nil, isDefault: Bool = false, role: String = "main") {
        self.id = id
        self.cameraID = cameraID
        self.name = name
        self.rtspURL = rtspURL
        self.width = width
        self.height = height
        self.fps = fps
        self.isDefault = isDefault
        self.role = role
    }

    /// The values `role` may take.
    public static let roles: Set<String> = ["main", "sub"]
}

// MARK: - Database representation

extension StreamProfile {
    public static let databaseTableName = "streamProfile"

    /// UUIDs (`id` and `cameraID`) are stored as upper-case text, like `camera.id`.
    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        .uppercaseString
    }

    /// The columns of the `streamProfile` table, for requests.
    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let cameraID = Column(CodingKeys.cameraID)
        public static let name = Column(CodingKeys.name)
        public static let rtspURL = Column(CodingKeys.rtspURL)
        public static let width = Column(CodingKeys.width)
        public static let height = Column(CodingKeys.height)
        public static let fps = Column(CodingKeys.fps)
        public static let isDefault = Column(CodingKeys.isDefault)
        public static let role = Column(CodingKeys.role)
    }

    /// A camera's profiles: the default first, then by name (then id, so that the order is total).
    static func forCamera(_ cameraID: UUID) -> QueryInterfaceRequest<StreamProfile> {
        StreamProfile
            .filter(Columns.cameraID == cameraID.uuidString)
            .order(Columns.isDefault.desc, Columns.name, Columns.id)
    }

    /// Throws a `StoreError` (`.invalidInput`) when the profile breaks a rule of the schema.
    func validate() throws {
        try RecordValidation.requireName(name, what: "stream profile")
        try RecordValidation.requireURLWithoutCredentials(rtspURL, what: "stream profile \"\(name)\"")
        guard Self.roles.contains(role) else {
            throw StoreError(.invalidInput, "stream profile \"\(name)\": role must be \"main\" or \"sub\", not \"\(role)\"")
        }
        for (label, value) in [("width", width), ("height", height)] {
            if let value, value <= 0 {
                throw StoreError(.invalidInput, "stream profile \"\(name)\": \(label) must be positive, not \(value)")
            }
        }
        if let fps, !(fps.isFinite && fps > 0) {
            throw StoreError(.invalidInput, "stream profile \"\(name)\": fps must be a positive number, not \(fps)")
        }
    }
}
