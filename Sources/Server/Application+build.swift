import Foundation
import Hub
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import Recording
import ServiceLifecycle
import Store

/// Everything `watchbox serve` runs, built from its configuration: the database, the secret key, the
/// stream hub and the HTTP application.
public struct WatchBoxServer: Sendable {
    public let service: CameraService
    /// Sites, floor plans and placements (issue 8).
    public let plans: PlanService
    public let configuration: ServerConfiguration
    /// Finding cameras (`/api/discoveries`).
    public let discovery: DiscoveryManager
    /// Recording, the index, playback and export (issue 7).
    public let recordings: RecordingService

    /// Opens (creating on first run) the data directory, database and key; registers the cameras.
    /// Throws `StoreError` with a sentence saying what to do when the directory or key is unusable.
    public static func open(configuration: ServerConfiguration, logger: Logger) async throws -> WatchBoxServer {
        let database = try AppDatabase.open(dataDirectory: configuration.dataDirectory)
        let secrets = try SecretBox.load(dataDirectory: configuration.dataDirectory)
        // A camera is checked again only after its previous check ended, whatever the interval.
        let healthChecks = configuration.healthInterval.map { CameraHealthMonitor.Configuration(interval: $0, timeout: .seconds(5)) }
        let hub = StreamHub(configuration: .init(maxUpstreams: configuration.maxStreams, gracePeriod: configuration.gracePeriod,
                                                 healthChecks: healthChecks, failAfter: configuration.failAfter,
                                                 instrument: configuration.instrument, fragmentFraming: .webSocketBinary),
                            logger: logger)
        let service = CameraService(repository: database, secrets: secrets, hub: hub,
                                    snapshotter: Snapshotter(ffmpegPath: configuration.ffmpegPath),
                                    readInterval: configuration.readInterval.map { TimeAmount($0) },
                                    logger: logger)
        try await service.start()
        if configuration.demo, try await database.cameras().isEmpty {
            _ = try await service.addDemo()
            logger.notice("added the demo camera")
        }
        let plans = PlanService(repository: database, cameras: database, logger: logger)
        let discovery = DiscoveryManager(cameras: service, settings: database, secrets: secrets, logger: logger)
        let manager = RecordingManager(
            configuration: .init(root: configuration.recordingsRoot.path, segmentSeconds: configuration.segmentSeconds),
            repository: database, cameras: database, hub: hub, logger: logger)
        try await manager.start()
        let recordings = RecordingService(manager: manager, repository: database, cameras: database)
        return WatchBoxServer(service: service, plans: plans, configuration: configuration, discovery: discovery,
                              recordings: recordings)
    }

    /// The web app's files: `--web-root`, else the copy built into the binary.
    public var webRoot: String? {
        configuration.webRoot ?? Bundle.module.url(forResource: "web", withExtension: nil)?.path
    }

    /// Every route: the API under /api, the live WebSocket, the web app.
    public func router(logRequests: Bool = false) -> Router<WatchBoxRequestContext> {
        let router = Router(context: WatchBoxRequestContext.self)
        if logRequests { router.middlewares.add(LogRequestsMiddleware(.info)) }
        if let webRoot {
            router.middlewares.add(FileMiddleware(webRoot, searchForIndexHtml: true))
        }
        let api = router.group("api")
        api.get("health") { _, _ in ["status": "ok"] }
        CameraController(service: service).addRoutes(to: api)
        PlanController(plans: plans).addRoutes(to: api)
        EventsController(service: service, plans: plans, recordings: recordings.manager).addRoutes(to: api)
        RecordingController(recordings: recordings).addRoutes(to: api)
        DiscoveryController(discovery: discovery).addRoutes(to: api)
        LiveController(hub: service.hub).addRoutes(to: router)
        if let instrumentation = service.hub.instrumentation {
            DebugController(hub: service.hub, instrumentation: instrumentation).addRoutes(to: api)
        }
        return router
    }

    /// The HTTP application; SIGTERM/SIGINT stop it cleanly (viewers closed, sessions torn down).
    public func application(logger: Logger, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol {
        let router = router(logRequests: logger.logLevel <= .debug)
        return Application(
            router: router,
            server: QuietConnectionCloser.builder(webSocketRouter: router),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "WatchBox"),
            services: [HubService(service: service, plans: plans, discovery: discovery, recordings: recordings.manager, logger: logger)],
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }
}

/// Stops every camera stream (TEARDOWN) when the server shuts down.
struct HubService: Service {
    let service: CameraService
    var plans: PlanService? = nil
    var discovery: DiscoveryManager?
    /// Closes and indexes the segments being written, before the streams stop.
    var recordings: RecordingManager? = nil
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        logger.info("shutting down: closing viewers and camera sessions")
        plans?.shutdown()
        discovery?.shutdown()
        await recordings?.shutdown()
        await service.shutdown()
    }
}
