import Discovery
import Foundation
import Logging
import NIOConcurrencyHelpers
import RTSPCore
import Store

/// Discovery runs for the API: starts them in the background, keeps their progress and results (the last few
/// runs, in memory), cancels them, and adds chosen devices to the registry through `CameraService`.
public final class DiscoveryManager: Sendable {
    let cameras: CameraService
    let settings: any DiscoverySettingsRepository
    let secrets: SecretBox
    let onvif: (any ONVIFSource)?
    private let logger: Logger
    private let runs = NIOLockedValueBox<[UUID: Run]>([:])
    /// Finished runs kept for adding from; older ones are forgotten.
    static let keptRuns = 8

    struct Run: Sendable {
        var response: DiscoveryResponse
        /// Tried during the run, and the default when adding from it; never returned.
        var credentials: RTSPCredentials?
        var task: Task<Void, Never>?
        /// Subscribers of `updates(_:)`: each gets the newest state (older ones not yet read are dropped).
        var watchers: [UUID: AsyncStream<DiscoveryResponse>.Continuation] = [:]
    }

    public init(cameras: CameraService, settings: any DiscoverySettingsRepository, secrets: SecretBox,
                onvif: (any ONVIFSource)? = ONVIFFinder(), logger: Logger = Logger(label: "watchbox.discovery")) {
        self.cameras = cameras
        self.settings = settings
        self.secrets = secrets
        self.onvif = onvif
        self.logger = logger
    }

    // MARK: - Runs

    public func start(_ input: DiscoveryInput) async throws -> DiscoveryResponse {
        let stored = try await settings.discoverySettings()
        let subnetTexts = input.subnets ?? stored.subnets
        let subnets: [IPv4Subnet]
        do {
            subnets = subnetTexts.isEmpty ? [try HostNetwork.defaultSubnet()]
                : try IPv4Subnet.parseList(subnetTexts, allowLarge: input.allowLarge ?? false)
        } catch let error as DiscoveryError {
            if case .subnetNeedsConfirmation = error { throw APIError.badRequest(error.description, field: "allowLarge") }
            throw APIError.badRequest(error.description, field: "subnets")
        }
        let ports: [Int]
        do {
            ports = try PortList.validate(input.ports ?? stored.ports)
        } catch {
            throw APIError.badRequest("\(error)", field: "ports")
        }
        let timeout = input.timeout ?? 3
        guard timeout > 0, timeout <= 60 else { throw APIError.badRequest("timeout is between 0 and 60 seconds", field: "timeout") }
        let credentials = try credentials(username: input.username, password: input.password, settings: stored)
        let onvifDevices: [ONVIFDeviceAddress]
        do {
            onvifDevices = try ONVIFDeviceAddress.parseList(input.onvifDevices ?? [])
        } catch {
            throw APIError.badRequest("\(error)", field: "onvifDevices")
        }
        if let outside = onvifDevices.first(where: { !ScanScope(subnets).contains($0.host) }) {
            throw APIError.badRequest(DiscoveryError.onvifDeviceOutsideSubnets(outside.url).description, field: "onvifDevices")
        }
        let request = DiscoveryRequest(subnets: subnets, ports: ports, onvif: input.onvif ?? stored.onvif,
                                       credentials: credentials, timeout: .milliseconds(Int64(timeout * 1000)),
                                       onvifDevices: onvifDevices)
        let id = UUID()
        let total = ScanScope(subnets).hosts.count
        let response = DiscoveryResponse(id: id, state: "running", subnets: subnets.map(\.description), ports: ports,
                                         onvif: request.onvif, progress: ScanProgress(hostsScanned: 0, hostsTotal: total, devicesFound: 0),
                                         startedAt: Date(), finishedAt: nil, devices: [])
        runs.withLockedValue { runs in
            runs[id] = Run(response: response, credentials: credentials)
            let finished = runs.values.filter { $0.response.state != "running" }.sorted { $0.response.startedAt < $1.response.startedAt }
            for old in finished.dropLast(Self.keptRuns) { runs.removeValue(forKey: old.response.id) }
        }
        let registered = try await registeredCameras()
        let run = DiscoveryRun(request: request, onvif: onvif, logger: logger)
        logger.info("discovery started", metadata: ["id": "\(id)", "subnets": "\(response.subnets)", "ports": "\(ports)"])
        let task = Task.detached { [runs, logger] in
            let devices = await run.run(registered: registered) { progress in
                let update = runs.withLockedValue { runs -> (DiscoveryResponse, [AsyncStream<DiscoveryResponse>.Continuation])? in
                    guard var entry = runs[id] else { return nil }
                    entry.response.progress = progress
                    runs[id] = entry
                    return (entry.response, Array(entry.watchers.values))
                }
                if let (response, watchers) = update { for watcher in watchers { watcher.yield(response) } }
            }
            let final = runs.withLockedValue { runs -> (DiscoveryResponse, [AsyncStream<DiscoveryResponse>.Continuation])? in
                guard var entry = runs[id] else { return nil }
                entry.response.devices = devices
                entry.response.finishedAt = Date()
                if entry.response.state == "running" { entry.response.state = Task.isCancelled ? "cancelled" : "finished" }
                entry.response.progress.devicesFound = devices.count
                if entry.response.state == "finished" { entry.response.progress.hostsScanned = entry.response.progress.hostsTotal }
                entry.task = nil
                let watchers = Array(entry.watchers.values)
                entry.watchers = [:]
                runs[id] = entry
                return (entry.response, watchers)
            }
            if let (response, watchers) = final {
                for watcher in watchers {
                    watcher.yield(response)
                    watcher.finish()
                }
            }
            logger.info("discovery finished", metadata: ["id": "\(id)", "devices": "\(devices.count)"])
        }
        runs.withLockedValue { $0[id]?.task = task }
        return response
    }

    public func get(_ id: UUID) throws -> DiscoveryResponse {
        guard let run = runs.withLockedValue({ $0[id] }) else { throw APIError.notFound("there is no discovery with id \(id)") }
        return run.response
    }

    /// The run's state now and at every change: progress while it runs, then the final state with its devices,
    /// after which the stream ends. A slow reader skips to the newest state.
    public func updates(_ id: UUID) throws -> AsyncStream<DiscoveryResponse> {
        let watcher = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: DiscoveryResponse.self, bufferingPolicy: .bufferingNewest(1))
        try runs.withLockedValue { runs in
            guard var run = runs[id] else { throw APIError.notFound("there is no discovery with id \(id)") }
            continuation.yield(run.response)
            if run.response.finishedAt != nil {
                continuation.finish()
            } else {
                run.watchers[watcher] = continuation
                runs[id] = run
            }
        }
        continuation.onTermination = { [runs] _ in
            runs.withLockedValue { _ = $0[id]?.watchers.removeValue(forKey: watcher) }
        }
        return stream
    }

    public func cancel(_ id: UUID) throws -> DiscoveryResponse {
        let task = try runs.withLockedValue { runs -> Task<Void, Never>? in
            guard var run = runs[id] else { throw APIError.notFound("there is no discovery with id \(id)") }
            if run.response.state == "running" { run.response.state = "cancelled" }
            runs[id] = run
            return run.task
        }
        task?.cancel()
        return try get(id)
    }

    /// Waits for the run to finish (for tests and the CLI-like callers).
    public func wait(_ id: UUID) async {
        await runs.withLockedValue { $0[id]?.task }?.value
    }

    public func shutdown() {
        for task in runs.withLockedValue({ $0.values.compactMap(\.task) }) { task.cancel() }
    }

    // MARK: - Adding

    public func add(_ id: UUID, _ input: DiscoveryAddInput) async throws -> DiscoveryAddResult {
        guard let run = runs.withLockedValue({ $0[id] }) else { throw APIError.notFound("there is no discovery with id \(id)") }
        guard run.response.state != "running" else {
            throw APIError(.conflict, "the discovery is still running: add devices once it has finished")
        }
        guard !input.devices.isEmpty else { throw APIError.badRequest("choose at least one device to add", field: "devices") }
        let shared = try optionalCredentials(username: input.username, password: input.password) ?? run.credentials
        var results: [DiscoveryAddResult.Entry] = []
        for (index, choice) in input.devices.enumerated() {
            guard let device = run.response.devices.first(where: { $0.ip == choice.ip }) else {
                throw APIError.badRequest("\(choice.ip) is not one of this discovery's devices", field: "devices[\(index)].ip")
            }
            if let port = choice.port, !device.endpoints.contains(where: { $0.port == port }) {
                throw APIError.badRequest("\(choice.ip) has no RTSP port \(port)", field: "devices[\(index)].port")
            }
            // Checked again now: the camera may have been added since the run (or earlier in this request).
            let registered = try await registeredCameras()
            let existing = registered.first { camera in
                choice.port.map { DiscoveryMerge.matches(camera, device, port: $0) } ?? DiscoveryMerge.matches(camera, device)
            }
            if let existing {
                results.append(.init(ip: device.ip, port: choice.port, status: "duplicate", cameraID: UUID(uuidString: existing.id),
                                     error: "already in the registry: not added again"))
                continue
            }
            let credentials = try optionalCredentials(username: choice.username, password: choice.password) ?? shared
            let found: (main: String?, sub: String?) = choice.port.map { device.urls(port: $0) } ?? (main: device.mainURL, sub: device.subURL)
            guard let url = choice.rtspURL ?? found.main else {
                results.append(.init(ip: device.ip, port: choice.port, status: "failed", error: device.requiresAuthentication
                    ? "no stream URL found on \(device.ip): it needs a user name and password; run the discovery again with them, or enter the URL"
                    : "no stream URL found on \(device.ip): enter its URL by hand"))
                continue
            }
            do {
                let camera = try await create(device, url: url, sub: choice.rtspURL == nil ? found.sub : nil,
                                              useProfiles: choice.port == nil, port: choice.port, name: choice.name, credentials: credentials)
                results.append(.init(ip: device.ip, port: choice.port, status: "added", cameraID: camera.id))
            } catch let error as APIError {
                results.append(.init(ip: device.ip, port: choice.port, status: "failed", error: error.message))
            }
        }
        return DiscoveryAddResult(results: results)
    }

    private func create(_ device: DiscoveredDevice, url: String, sub: String?, useProfiles: Bool, port: Int?, name: String?,
                        credentials: RTSPCredentials?) async throws -> CameraResponse {
        let identity = [device.vendor ?? device.manufacturer, device.model].compactMap { $0 }.joined(separator: " ")
        let place = port.map { "\(device.ip):\($0)" } ?? device.ip
        let cameraName = name?.trimmingCharacters(in: .whitespaces).nilIfEmpty ?? device.name
            ?? (identity.isEmpty ? "Camera \(place)" : "\(identity) (\(place))")
        let camera = try await cameras.create(CameraInput(
            name: cameraName, rtspURL: url, username: credentials?.username, password: credentials?.password,
            manufacturer: device.manufacturer ?? device.vendor, model: device.model))
        // ONVIF profiles become the camera's stream profiles: the highest resolution "Main", the lowest "Sub".
        let main = useProfiles ? device.profiles.first : nil
        if let main, let uri = main.streamURI {
            _ = try await cameras.createProfile(camera.id, ProfileInput(
                name: "Main", rtspURL: uri, width: main.width, height: main.height, fps: main.fps, isDefault: true, role: "main"))
        }
        if let sub {
            let profile = useProfiles && device.profiles.count > 1 ? device.profiles.last : nil
            _ = try await cameras.createProfile(camera.id, ProfileInput(
                name: "Sub", rtspURL: sub, width: profile?.width, height: profile?.height, fps: profile?.fps,
                isDefault: false, role: "sub"))
        }
        logger.info("camera added from discovery", metadata: ["ip": "\(device.ip)", "camera": "\(camera.id)"])
        return try await cameras.get(camera.id)
    }

    func registeredCameras() async throws -> [RegisteredCamera] {
        var result: [RegisteredCamera] = []
        for camera in try await cameras.repository.cameras() {
            let profiles = try await cameras.repository.profiles(cameraID: camera.id).map(\.rtspURL)
            result.append(RegisteredCamera(id: camera.id.uuidString, host: camera.host, port: camera.port,
                                           urls: [camera.rtspURL] + profiles))
        }
        return result
    }

    // MARK: - Settings

    public func settingsResponse() async throws -> DiscoverySettingsResponse {
        let stored = try await settings.discoverySettings()
        return DiscoverySettingsResponse(subnets: stored.subnets, ports: stored.ports, onvif: stored.onvif,
                                         username: stored.username, hasPassword: stored.passwordSealed != nil,
                                         defaultSubnet: (try? HostNetwork.defaultSubnet())?.description)
    }

    public func updateSettings(_ input: DiscoverySettingsInput) async throws -> DiscoverySettingsResponse {
        var stored = try await settings.discoverySettings()
        if let subnets = input.subnets {
            var clean: [String] = []
            for (index, text) in subnets.enumerated() {
                do {
                    // Settings may hold a large subnet: starting a run from it still asks for confirmation.
                    let subnet = try IPv4Subnet(parsing: text)
                    try subnet.checkSize(allowLarge: true)
                    if !clean.contains(subnet.description) { clean.append(subnet.description) }
                } catch {
                    throw APIError.badRequest("\(error)", field: "subnets[\(index)]")
                }
            }
            stored.subnets = clean
        }
        if let ports = input.ports {
            do {
                stored.ports = try PortList.validate(ports)
            } catch {
                throw APIError.badRequest("\(error)", field: "ports")
            }
        }
        if let onvif = input.onvif { stored.onvif = onvif }
        if let username = input.username {
            guard username.count <= 100 else { throw APIError.badRequest("a user name is at most 100 characters", field: "username") }
            stored.username = username
        }
        if let password = input.password {
            stored.passwordSealed = password.isEmpty ? nil : try secrets.seal(password)
        }
        try await settings.saveDiscoverySettings(stored)
        return try await settingsResponse()
    }

    /// The run's credentials: the input's, else the settings' defaults.
    private func credentials(username: String?, password: String?, settings stored: DiscoverySettings) throws -> RTSPCredentials? {
        if let given = try optionalCredentials(username: username, password: password) { return given }
        guard !stored.username.isEmpty else { return nil }
        let password = try stored.passwordSealed.map { try secrets.open($0) } ?? ""
        return RTSPCredentials(username: stored.username, password: password)
    }

    private func optionalCredentials(username: String?, password: String?) throws -> RTSPCredentials? {
        guard let username, !username.isEmpty else {
            if let password, !password.isEmpty {
                throw APIError.badRequest("give the user name that goes with the password", field: "username")
            }
            return nil
        }
        return RTSPCredentials(username: username, password: password ?? "")
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
