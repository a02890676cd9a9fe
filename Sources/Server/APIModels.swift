import Foundation
import Hub
import Hummingbird
import Store

/// A camera as the API shows it: never with its password.
public struct CameraResponse: ResponseCodable, Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var rtspURL: String
    public var username: String
    public var hasPassword: Bool
    public var host: String?
    public var port: Int
    public var manufacturer: String?
    public var model: String?
    public var isActive: Bool
    public var gridPosition: Int
    public var addedAt: Date
    public var lastConnectedAt: Date?
    public var transport: String
    public var allowSelfSignedCertificate: Bool
    public var isDemo: Bool
    public var thumbnailURL: String?
    public var profiles: [ProfileResponse]
    public var status: CameraStatus

    init(_ camera: Camera, profiles: [StreamProfile], status: CameraStatus) {
        id = camera.id
        name = camera.name
        rtspURL = camera.rtspURL
        username = camera.username
        hasPassword = camera.passwordSealed != nil
        host = camera.host
        port = camera.port
        manufacturer = camera.manufacturer
        model = camera.model
        isActive = camera.isActive
        gridPosition = camera.gridPosition
        addedAt = camera.addedAt
        lastConnectedAt = camera.lastConnectedAt
        transport = camera.transport
        allowSelfSignedCertificate = camera.allowSelfSignedCertificate
        isDemo = camera.isDemo
        thumbnailURL = camera.thumbnail == nil ? nil : "/api/cameras/\(camera.id.uuidString)/thumbnail.jpg"
        self.profiles = profiles.map(ProfileResponse.init)
        self.status = status
    }
}

public struct ProfileResponse: ResponseCodable, Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var rtspURL: String
    public var width: Int?
    public var height: Int?
    public var fps: Double?
    public var isDefault: Bool
    public var role: String

    init(_ profile: StreamProfile) {
        id = profile.id
        name = profile.name
        rtspURL = profile.rtspURL
        width = profile.width
        height = profile.height
        fps = profile.fps
        isDefault = profile.isDefault
        role = profile.role
    }
}

/// `POST /api/cameras`, and (every field optional) `PATCH /api/cameras/{id}`.
public struct CameraInput: Decodable, Sendable {
    public var name: String?
    public var rtspURL: String?
    public var username: String?
    /// PATCH: absent = unchanged, "" = remove.
    public var password: String?
    public var transport: String?
    public var allowSelfSignedCertificate: Bool?
    public var subStreamURL: String?
    public var isActive: Bool?
    public var manufacturer: String?
    public var model: String?
}

/// `POST /api/cameras/{id}/profiles`, and (every field optional) PATCH.
public struct ProfileInput: Decodable, Sendable {
    public var name: String?
    public var rtspURL: String?
    public var width: Int?
    public var height: Int?
    public var fps: Double?
    public var isDefault: Bool?
    public var role: String?
}

/// `POST /api/test-connection`.
public struct TestConnectionInput: Decodable, Sendable {
    public var rtspURL: String?
    public var username: String?
    public var password: String?
    public var transport: String?
    public var allowSelfSignedCertificate: Bool?
}

/// `PUT /api/cameras/order`.
public struct OrderInput: Decodable, Sendable {
    public var ids: [UUID]
}

/// What "Test connection" found.
public struct TestResult: ResponseCodable, Sendable, Equatable {
    public struct Video: Codable, Sendable, Equatable {
        public var codec: String
        public var width: Int
        public var height: Int
        public var fps: Double?
        public var codecString: String
        public var profile: String
        public var level: String
    }
    public struct Audio: Codable, Sendable, Equatable {
        public var codec: String
        public var sampleRate: Int?
        public var channels: Int?
    }
    public var ok: Bool
    public var error: String?
    public var state: CameraState?
    public var elapsedMs: Int
    public var video: Video?
    public var audio: Audio?
    public var server: String?
    public var bitrateKbps: Double?
}
