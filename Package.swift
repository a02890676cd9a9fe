// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "WatchBox",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "RTP", targets: ["RTP"]),
        .library(name: "H26x", targets: ["H26x"]),
        .library(name: "RTSPCore", targets: ["RTSPCore"]),
        .library(name: "RTSPClient", targets: ["RTSPClient"]),
        .library(name: "AAC", targets: ["AAC"]),
        .library(name: "MP4", targets: ["MP4"]),
        .library(name: "ONVIF", targets: ["ONVIF"]),
        .executable(name: "watchbox", targets: ["watchbox"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // RTP/RTCP packets, sequence and timestamp tracking, reordering (RFC 3550). Pure, no I/O.
        .target(name: "RTP", dependencies: [
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        // NAL units, SPS parsing, H.264/H.265 depacketizers, decoder configuration records. Pure, no I/O.
        .target(name: "H26x", dependencies: [
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ]),
        // RTSP messages and the mixed-stream parser, SDP, Basic/Digest auth, URLs, transport headers,
        // the client session state machine. Pure, no I/O.
        .target(name: "RTSPCore", dependencies: [
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // AAC: AudioSpecificConfig, the RFC 3640 mpeg4-generic depacketizer, audio codec names. Pure, no I/O.
        .target(name: "AAC", dependencies: [
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        // Fragmented ISO BMFF (MP4) muxer: init segments, fragments, sample timing. Pure, no I/O.
        .target(name: "MP4", dependencies: [
            "H26x", "AAC",
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        // The RTSP client on SwiftNIO: TCP interleaved, UDP, RTSPS, keepalive, reconnect, probe.
        .target(name: "RTSPClient", dependencies: [
            "RTP", "H26x", "AAC", "RTSPCore",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // ONVIF: WS-Discovery (UDP multicast), SOAP 1.2 device and media services, WS-Security UsernameToken.
        // The XML tree, SOAP/WS-Discovery builders and response parsers are pure; the clients do I/O.
        .target(name: "ONVIF", dependencies: [
            "RTSPCore",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The camera registry: SQLite through GRDB, migrations, sealed passwords. The only module importing GRDB.
        .target(name: "Store", dependencies: [
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Streams shared by viewers (GOP cache, bounded viewer queues), upstream slots, recording, snapshots, demo.
        .target(name: "Hub", dependencies: [
            "RTSPClient", "RTSPCore", "H26x", "AAC", "MP4",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "DequeModule", package: "swift-collections"),
            .product(name: "Logging", package: "swift-log"),
        ], resources: [.copy("Resources/demo")]),
        // Recording (issue 7): per-camera recorders on the hub's streams, segment files, the index, crash repair,
        // retention, the scheduler. Pure parts (naming, schedule, retention plan) are value types.
        .target(name: "Recording", dependencies: [
            "Hub", "MP4", "Store", "H26x", "AAC", "RTSPClient",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Finding cameras: CIDR ranges, the RTSP port scan (NIO), vendor paths and guesses, merging ONVIF
        // findings with the scan, the discovery run. Pure parts are value types; only the scanner does I/O.
        .target(name: "Discovery", dependencies: [
            "RTSPCore", "ONVIF",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The web server: REST API, live WebSocket, server-sent events, the web app. The only module importing Hummingbird.
        .target(name: "Server", dependencies: [
            "Hub", "Store", "RTSPClient", "RTSPCore", "H26x", "Discovery", "Recording", "MP4",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ], resources: [.copy("Resources/web")]),
        .executableTarget(name: "watchbox", dependencies: [
            "Server", "Hub", "Store", "RTSPClient", "RTSPCore", "H26x", "AAC", "Discovery",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Throughput of the media core on a recorded session (not a test: run it in release mode).
        .executableTarget(name: "watchbox-bench", dependencies: [
            "RTP", "H26x", "RTSPCore", "RTSPClient", "MP4",
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        .testTarget(name: "RTPTests", dependencies: [
            "RTP",
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        .testTarget(name: "H26xTests", dependencies: [
            "H26x",
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        .testTarget(name: "RTSPCoreTests", dependencies: [
            "RTSPCore",
            .product(name: "NIOCore", package: "swift-nio"),
        ], resources: [.copy("Fixtures")]),
        // What the integration tests share: the GStreamer RTSP peer, running commands, ffprobe.
        .target(name: "TestSupport", path: "Tests/Support"),
        .testTarget(name: "AACTests", dependencies: [
            "AAC",
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        .testTarget(name: "MP4Tests", dependencies: [
            "MP4", "H26x", "AAC",
            .product(name: "NIOCore", package: "swift-nio"),
        ], resources: [.copy("Fixtures")]),
        .testTarget(name: "ONVIFTests", dependencies: [
            "ONVIF", "TestSupport",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ], resources: [.copy("Fixtures")]),
        // Runs WSDiscoveryClient once and prints JSON lines: the WS-Discovery test runs it inside a network namespace.
        .executableTarget(name: "onvif-probe-tool", dependencies: ["ONVIF"], path: "Tests/ONVIFProbeTool"),
        .testTarget(name: "StoreTests", dependencies: [
            "Store",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "HubTests", dependencies: [
            "Hub", "RTSPClient", "RTSPCore", "H26x", "MP4",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ], resources: [.copy("Fixtures")]),
        .testTarget(name: "RecordingTests", dependencies: [
            "Recording", "Hub", "Store", "MP4", "H26x", "AAC", "RTSPClient", "RTSPCore", "TestSupport",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "ServerTests", dependencies: [
            "Server", "Hub", "Store", "MP4", "H26x", "TestSupport",
            .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOWebSocket", package: "swift-nio"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
        ]),
        .testTarget(name: "DiscoveryTests", dependencies: [
            "Discovery", "RTSPCore", "TestSupport",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        .testTarget(name: "RTSPClientTests", dependencies: [
            "RTSPClient", "RTSPCore", "RTP", "H26x", "AAC", "TestSupport",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOTestUtils", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ], resources: [.copy("Fixtures")]),
    ],
    swiftLanguageModes: [.v6]
)
