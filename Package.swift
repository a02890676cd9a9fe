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
        .executable(name: "watchbox", targets: ["watchbox"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        // RTP/RTCP packets, sequence and timestamp tracking, reordering (RFC 3550). Pure, no I/O.
        .target(name: "RTP", dependencies: [
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        // NAL units, SPS parsing, H.264/H.265 depacketizers, decoder configuration records. Pure, no I/O.
        .target(name: "H26x", dependencies: [
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        // RTSP messages and the mixed-stream parser, SDP, Basic/Digest auth, URLs, transport headers,
        // the client session state machine. Pure, no I/O.
        .target(name: "RTSPCore", dependencies: [
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // The RTSP client on SwiftNIO: TCP interleaved, UDP, RTSPS, keepalive, reconnect, probe.
        .target(name: "RTSPClient", dependencies: [
            "RTP", "H26x", "RTSPCore",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "watchbox", dependencies: [
            "RTSPClient", "RTSPCore", "H26x",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Throughput of the media core on a recorded session (not a test: run it in release mode).
        .executableTarget(name: "watchbox-bench", dependencies: [
            "RTP", "H26x", "RTSPCore", "RTSPClient",
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
        .testTarget(name: "RTSPClientTests", dependencies: [
            "RTSPClient", "RTSPCore", "RTP", "H26x",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOTestUtils", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ], resources: [.copy("Fixtures")]),
    ],
    swiftLanguageModes: [.v6]
)
