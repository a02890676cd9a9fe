import Foundation
import H26x
import Hub
import Logging
import NIOConcurrencyHelpers
import NIOCore
import RTSPClient
import RTSPCore
import Store

/// The registry and the hub, kept in step: what the REST API does, without HTTP.
public final class CameraService: Sendable {
    let repository: any CameraRepository
    let secrets: SecretBox
    public let hub: StreamHub
    let snapshotter: Snapshotter
    let changes = ChangeBroadcaster()
    private let logger: Logger
    private let snapshots = NIOLockedValueBox<[UUID: (jpeg: Data, at: ContinuousClock.Instant)]>([:])
    private let statusTask = NIOLockedValueBox<Task<Void, Never>?>(nil)
    /// How long a snapshot is served from cache.
    static let snapshotCacheTime = Duration.seconds(2)
    /// The demo camera's URL: not a network address, the clip built into the binary.
    static let demoURL = "demo://watchbox/clip"

    /// Merged reads for the cameras' TCP streams (``RTSPClientConfiguration/readInterval``); nil: off.
    let readInterval: TimeAmount?

    public init(repository: any CameraRepository, secrets: SecretBox, hub: StreamHub, snapshotter: Snapshotter,
                readInterval: TimeAmount? = nil, logger: Logger = Logger(label: "watchbox.cameras")) {
        self.readInterval = readInterval
        self.repository = repository
        self.secrets = secrets
        self.hub = hub
        self.snapshotter = snapshotter
        self.logger = logger
    }

    /// Registers every camera with the hub and starts tracking when cameras connect.
    public func start() async throws {
        for camera in try await repository.cameras() {
            await register(camera)
        }
        let updates = hub.subscribe()
        let repository = self.repository
        let task = Task.detached {
            var wasLive: Set<UUID> = []
            for await (id, status) in updates {
                if status.state == .live {
                    if wasLive.insert(id).inserted { try? await repository.markConnected(cameraID: id, at: Date()) }
                } else {
                    wasLive.remove(id)
                }
            }
        }
        statusTask.withLockedValue { $0 = task }
    }

    public func shutdown() async {
        statusTask.withLockedValue { $0?.cancel() }
        changes.finish()
        await hub.shutdown()
    }

    // MARK: - Cameras

    public func list() async throws -> [CameraResponse] {
        var result: [CameraResponse] = []
        for camera in try await repository.cameras() {
            result.append(try await response(for: camera))
        }
        return result
    }

    public func get(_ id: UUID) async throws -> CameraResponse {
        try await response(for: try await camera(id))
    }

    public func create(_ input: CameraInput) async throws -> CameraResponse {
        let name = try Self.validName(input.name)
        guard let text = input.rtspURL?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            throw APIError.badRequest("give the camera's stream URL, like rtsp://192.168.1.20:554/stream1", field: "rtspURL")
        }
        let url = try Self.parseURL(text, field: "rtspURL")
        let username = input.username ?? url.username ?? ""
        let password = input.password ?? url.password
        let transport = try Self.validTransport(input.transport) ?? "tcp"
        let subURL = try input.subStreamURL.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
            .map { try Self.parseURL($0, field: "subStreamURL") }
        var camera = Camera(name: name, rtspURL: url.withCredentials(nil).requestURI, username: username,
                            passwordSealed: try sealed(password), host: url.host, port: url.port,
                            manufacturer: input.manufacturer, model: input.model, isActive: input.isActive ?? true,
                            transport: transport, allowSelfSignedCertificate: input.allowSelfSignedCertificate ?? false)
        camera = try await repository.insert(camera)
        if let subURL {
            _ = try await repository.insertProfile(StreamProfile(cameraID: camera.id, name: "Sub",
                                                                 rtspURL: subURL.withCredentials(nil).requestURI, role: "sub"))
        }
        logger.info("camera added", metadata: ["camera": "\(camera.id)", "url": "\(camera.rtspURL)"])
        await register(camera)
        changes.notify()
        return try await response(for: camera)
    }

    public func update(_ id: UUID, _ input: CameraInput) async throws -> CameraResponse {
        var camera = try await camera(id)
        let before = camera
        if let name = input.name { camera.name = try Self.validName(name) }
        if let text = input.rtspURL {
            let url = try Self.parseURL(text.trimmingCharacters(in: .whitespacesAndNewlines), field: "rtspURL")
            camera.rtspURL = url.withCredentials(nil).requestURI
            camera.host = url.host
            camera.port = url.port
            if input.username == nil, let user = url.username { camera.username = user }
            if input.password == nil, let password = url.password { camera.passwordSealed = try sealed(password) }
        }
        if let username = input.username { camera.username = username }
        if let password = input.password { camera.passwordSealed = try sealed(password) }
        if let transport = try Self.validTransport(input.transport) { camera.transport = transport }
        if let allow = input.allowSelfSignedCertificate { camera.allowSelfSignedCertificate = allow }
        if let active = input.isActive { camera.isActive = active }
        if let manufacturer = input.manufacturer { camera.manufacturer = manufacturer.isEmpty ? nil : manufacturer }
        if let model = input.model { camera.model = model.isEmpty ? nil : model }
        if let text = input.subStreamURL {
            let profiles = try await repository.profiles(cameraID: id)
            let existing = profiles.first { $0.role == "sub" }
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty {
                if let existing { _ = try await repository.deleteProfile(id: existing.id) }
            } else {
                let url = try Self.parseURL(trimmed, field: "subStreamURL").withCredentials(nil).requestURI
                if var existing {
                    existing.rtspURL = url
                    try await repository.updateProfile(existing)
                } else {
                    _ = try await repository.insertProfile(StreamProfile(cameraID: id, name: "Sub", rtspURL: url, role: "sub"))
                }
            }
        }
        try await repository.update(camera)
        let sourceChanged = before.rtspURL != camera.rtspURL || before.username != camera.username
            || before.passwordSealed != camera.passwordSealed || before.transport != camera.transport
            || before.allowSelfSignedCertificate != camera.allowSelfSignedCertificate || before.isActive != camera.isActive
            || input.subStreamURL != nil
        if sourceChanged { await register(camera) }
        changes.notify()
        return try await response(for: camera)
    }

    public func delete(_ id: UUID) async throws {
        guard try await repository.deleteCamera(id: id) else { throw APIError.notFound("there is no camera with id \(id)") }
        await hub.unregister(cameraID: id)
        snapshots.withLockedValue { _ = $0.removeValue(forKey: id) }
        logger.info("camera removed", metadata: ["camera": "\(id)"])
        changes.notify()
    }

    public func reorder(_ ids: [UUID]) async throws {
        let known = Set(try await repository.cameras().map(\.id))
        if let unknown = ids.first(where: { !known.contains($0) }) {
            throw APIError.badRequest("there is no camera with id \(unknown)", field: "ids")
        }
        guard Set(ids).count == ids.count else { throw APIError.badRequest("a camera is listed twice", field: "ids") }
        try await repository.reorder(ids)
        changes.notify()
    }

    public func addDemo() async throws -> CameraResponse {
        let existing = try await repository.cameras().filter(\.isDemo)
        var camera = Camera(name: existing.isEmpty ? "Demo camera" : "Demo camera \(existing.count + 1)",
                            rtspURL: Self.demoURL, host: nil, port: 0, manufacturer: "WatchBox", model: "Demo clip",
                            isDemo: true)
        camera = try await repository.insert(camera)
        await register(camera)
        changes.notify()
        return try await response(for: camera)
    }

    // MARK: - Profiles

    public func profiles(_ cameraID: UUID) async throws -> [ProfileResponse] {
        _ = try await camera(cameraID)
        return try await repository.profiles(cameraID: cameraID).map(ProfileResponse.init)
    }

    public func createProfile(_ cameraID: UUID, _ input: ProfileInput) async throws -> ProfileResponse {
        let camera = try await camera(cameraID)
        let name = try Self.validName(input.name, field: "name", what: "profile")
        guard let text = input.rtspURL else { throw APIError.badRequest("give the profile's stream URL", field: "rtspURL") }
        let url = try Self.parseURL(text, field: "rtspURL")
        let role = try Self.validRole(input.role) ?? "main"
        let profile = try await repository.insertProfile(StreamProfile(
            cameraID: cameraID, name: name, rtspURL: url.withCredentials(nil).requestURI, width: input.width,
            height: input.height, fps: input.fps, isDefault: input.isDefault ?? false, role: role))
        await register(camera)
        changes.notify()
        return ProfileResponse(profile)
    }

    public func updateProfile(_ cameraID: UUID, _ profileID: UUID, _ input: ProfileInput) async throws -> ProfileResponse {
        let camera = try await camera(cameraID)
        guard var profile = try await repository.profiles(cameraID: cameraID).first(where: { $0.id == profileID }) else {
            throw APIError.notFound("camera \(cameraID) has no stream profile \(profileID)")
        }
        if let name = input.name { profile.name = try Self.validName(name, field: "name", what: "profile") }
        if let text = input.rtspURL { profile.rtspURL = try Self.parseURL(text, field: "rtspURL").withCredentials(nil).requestURI }
        if let width = input.width { profile.width = width }
        if let height = input.height { profile.height = height }
        if let fps = input.fps { profile.fps = fps }
        if let isDefault = input.isDefault { profile.isDefault = isDefault }
        if let role = try Self.validRole(input.role) { profile.role = role }
        try await repository.updateProfile(profile)
        await register(camera)
        changes.notify()
        return ProfileResponse(profile)
    }

    public func deleteProfile(_ cameraID: UUID, _ profileID: UUID) async throws {
        let camera = try await camera(cameraID)
        guard try await repository.profiles(cameraID: cameraID).contains(where: { $0.id == profileID }),
              try await repository.deleteProfile(id: profileID) else {
            throw APIError.notFound("camera \(cameraID) has no stream profile \(profileID)")
        }
        await register(camera)
        changes.notify()
    }

    // MARK: - Test connection, snapshots

    /// Probes a stream for two seconds. Never throws for camera trouble: that is the result.
    public func test(_ input: TestConnectionInput) async throws -> TestResult {
        guard let text = input.rtspURL?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            throw APIError.badRequest("give the camera's stream URL, like rtsp://192.168.1.20:554/stream1", field: "rtspURL")
        }
        var url = try Self.parseURL(text, field: "rtspURL")
        let username = input.username ?? url.username
        let password = input.password ?? url.password
        if let username, !username.isEmpty || !(password ?? "").isEmpty {
            url = url.withCredentials(RTSPCredentials(username: username, password: password ?? ""))
        }
        let transport = try Self.validTransport(input.transport) ?? "tcp"
        return await probe(url, transport: transport, allowSelfSigned: input.allowSelfSignedCertificate ?? false)
    }

    /// Probes a saved camera's main stream.
    public func test(cameraID: UUID) async throws -> TestResult {
        let camera = try await camera(cameraID)
        if camera.isDemo {
            return TestResult(ok: true, error: nil, state: .live, elapsedMs: 0, video: nil, audio: nil, server: "WatchBox demo")
        }
        let url = try mainURL(of: camera)
        let result = await probe(url, transport: camera.transport, allowSelfSigned: camera.allowSelfSignedCertificate)
        if result.ok { try? await repository.markConnected(cameraID: cameraID, at: Date()) }
        return result
    }

    private func probe(_ url: RTSPURL, transport: String, allowSelfSigned: Bool) async -> TestResult {
        let started = ContinuousClock.now
        let configuration = RTSPClientConfiguration(
            transport: .init(rawValue: transport) ?? .tcp, includeAudio: true, connectTimeout: .seconds(5),
            requestTimeout: .seconds(5), dataTimeout: .seconds(5), allowSelfSignedCertificates: allowSelfSigned)
        let elapsed = { Int((ContinuousClock.now - started) / .milliseconds(1)) }
        do {
            let report = try await Probe.run(url: url, configuration: configuration, duration: 2, logger: logger)
            let video = TestResult.Video(codec: report.video.codec, width: report.video.width, height: report.video.height,
                                         fps: report.video.fps > 0 ? report.video.fps : report.video.declaredFps,
                                         codecString: report.video.codecString, profile: report.video.profile,
                                         level: report.video.level)
            let audio = report.audio.map { TestResult.Audio(codec: $0.codec, sampleRate: $0.sampleRate, channels: $0.channels) }
            return TestResult(ok: true, error: nil, state: nil, elapsedMs: elapsed(), video: video, audio: audio,
                              server: report.server, bitrateKbps: report.bitrateKbps)
        } catch let error as RTSPClientError {
            return TestResult(ok: false, error: error.message, state: CameraState(failure: error), elapsedMs: elapsed())
        } catch {
            return TestResult(ok: false, error: "\(error)", state: .error, elapsedMs: elapsed())
        }
    }

    /// A JPEG of the camera's latest keyframe (cached for 2 s), also kept as its thumbnail.
    public func snapshot(_ id: UUID) async throws -> Data {
        _ = try await camera(id)
        if let cached = snapshots.withLockedValue({ $0[id] }), ContinuousClock.now - cached.at < Self.snapshotCacheTime {
            return cached.jpeg
        }
        guard snapshotter.isAvailable else {
            throw APIError(.serviceUnavailable, "snapshots need ffmpeg: install it (apt-get install ffmpeg) or start WatchBox with --ffmpeg PATH")
        }
        let keyframe: (unit: AccessUnit, format: VideoFormat)
        do {
            keyframe = try await hub.keyframe(cameraID: id)
        } catch {
            switch error.kind {
            case .unknownCamera: throw APIError.notFound(error.description)
            case .inactive: throw APIError(.conflict, error.description)
            case .noFrame: throw APIError(.gatewayTimeout, error.description)
            }
        }
        let jpeg: Data
        do {
            jpeg = try await snapshotter.jpeg(keyframe: keyframe.unit, format: keyframe.format)
        } catch {
            throw APIError(error.kind == .ffmpegMissing ? .serviceUnavailable : .badGateway, error.description)
        }
        snapshots.withLockedValue { $0[id] = (jpeg, .now) }
        try? await repository.setThumbnail(cameraID: id, jpeg: thumbnailSized(jpeg), at: Date())
        return jpeg
    }

    public func thumbnail(_ id: UUID) async throws -> Data {
        guard let jpeg = try await camera(id).thumbnail else {
            throw APIError.notFound("no thumbnail yet: one is taken with the camera's first snapshot")
        }
        return jpeg
    }

    /// Thumbnails are the snapshot itself (already at most 1280 px wide); kept separate should we shrink them.
    private func thumbnailSized(_ jpeg: Data) -> Data { jpeg }

    // MARK: - Helpers

    func camera(_ id: UUID) async throws -> Camera {
        guard let camera = try await repository.camera(id: id) else {
            throw APIError.notFound("there is no camera with id \(id)")
        }
        return camera
    }

    private func response(for camera: Camera) async throws -> CameraResponse {
        CameraResponse(camera, profiles: try await repository.profiles(cameraID: camera.id), status: hub.status(cameraID: camera.id))
    }

    private func sealed(_ password: String?) throws -> Data? {
        guard let password, !password.isEmpty else { return nil }
        return try secrets.seal(password)
    }

    private func credentials(of camera: Camera) throws -> RTSPCredentials? {
        let password = try camera.passwordSealed.map { try secrets.open($0) } ?? ""
        if camera.username.isEmpty && password.isEmpty { return nil }
        return RTSPCredentials(username: camera.username, password: password)
    }

    private func mainURL(of camera: Camera) throws -> RTSPURL {
        try RTSPURL(string: camera.rtspURL).withCredentials(try credentials(of: camera))
    }

    /// (Re)registers a camera's streams with the hub.
    private func register(_ camera: Camera) async {
        var upstreams: [StreamVariant: any Upstream] = [:]
        if camera.isDemo {
            upstreams[.main] = DemoUpstream(logger: logger)
        } else {
            do {
                let credentials = try credentials(of: camera)
                var configuration = RTSPClientConfiguration(transport: .init(rawValue: camera.transport) ?? .tcp,
                                                            allowSelfSignedCertificates: camera.allowSelfSignedCertificate)
                configuration.readInterval = readInterval
                // The main stream carries the camera's AAC audio too: recordings keep it (live viewers ignore it).
                var mainConfiguration = configuration
                mainConfiguration.includeAudio = true
                upstreams[.main] = RTSPUpstream(url: try RTSPURL(string: camera.rtspURL).withCredentials(credentials),
                                                configuration: mainConfiguration, logger: logger)
                if let sub = try await repository.profiles(cameraID: camera.id).first(where: { $0.role == "sub" }) {
                    var url = try RTSPURL(string: sub.rtspURL)
                    if url.credentials == nil { url = url.withCredentials(credentials) }
                    upstreams[.sub] = RTSPUpstream(url: url, configuration: configuration, logger: logger)
                }
            } catch {
                logger.error("cannot set up the camera's streams", metadata: ["camera": "\(camera.id)", "error": "\(error)"])
            }
        }
        await hub.register(cameraID: camera.id, upstreams: upstreams, isActive: camera.isActive)
    }

    // MARK: - Validation

    static func validName(_ name: String?, field: String = "name", what: String = "camera") throws -> String {
        let trimmed = name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !trimmed.isEmpty else { throw APIError.badRequest("give the \(what) a name", field: field) }
        guard trimmed.count <= 100 else { throw APIError.badRequest("a \(what) name is at most 100 characters", field: field) }
        return trimmed
    }

    static func parseURL(_ text: String, field: String) throws -> RTSPURL {
        do {
            return try RTSPURL(string: text)
        } catch {
            throw APIError.badRequest("\(error)", field: field)
        }
    }

    static func validTransport(_ transport: String?) throws -> String? {
        guard let transport else { return nil }
        let value = transport.lowercased()
        guard value == "tcp" || value == "udp" else {
            throw APIError.badRequest("transport is \"tcp\" or \"udp\", not \"\(transport)\"", field: "transport")
        }
        return value
    }

    static func validRole(_ role: String?) throws -> String? {
        guard let role else { return nil }
        guard role == "main" || role == "sub" else {
            throw APIError.badRequest("a profile's role is \"main\" or \"sub\", not \"\(role)\"", field: "role")
        }
        return role
    }
}
