// swift-tools-version:6.0
// libFuzzer harnesses for WatchBox's parsers. Build and run them with `scripts/fuzz`
// (it passes `-sanitize=fuzzer,address`; libFuzzer supplies `main`, hence -parse-as-library).
// A separate package so that the main build never links libFuzzer; it builds only what the
// harnesses import: NIOCore, Crypto and the RTP, H26x and RTSPCore modules.
import PackageDescription

let fuzzerFlags: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

func fuzzer(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport", .product(name: "NIOCore", package: "swift-nio")] + dependencies,
        swiftSettings: fuzzerFlags
    )
}

let package = Package(
    name: "WatchBoxFuzz",
    dependencies: [
        .package(name: "WatchBox", path: ".."),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        // Turns a fuzz input into decisions and bytes; shared by every harness.
        .target(name: "FuzzSupport"),
        // Plays pseudo RTP packets into a video depacketizer; shared by FuzzH264 and FuzzH265.
        .target(name: "FuzzVideoSupport", dependencies: [
            "FuzzSupport",
            .product(name: "H26x", package: "WatchBox"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        fuzzer("FuzzRTSPStream", [.product(name: "RTSPCore", package: "WatchBox")]),
        fuzzer("FuzzSDP", [
            .product(name: "RTSPCore", package: "WatchBox"),
            .product(name: "H26x", package: "WatchBox"),
        ]),
        fuzzer("FuzzRTP", [.product(name: "RTP", package: "WatchBox")]),
        fuzzer("FuzzH264", ["FuzzVideoSupport", .product(name: "H26x", package: "WatchBox")]),
        fuzzer("FuzzH265", ["FuzzVideoSupport", .product(name: "H26x", package: "WatchBox")]),
    ],
    swiftLanguageModes: [.v6]
)
