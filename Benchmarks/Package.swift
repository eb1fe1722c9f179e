// swift-tools-version: 6.0
import PackageDescription

// The benchmark tool: the matcher benchmark (AASAMatcher vs a naive
// NSRegularExpression translation) and the generator of the domain trees that
// `run.sh` serves with nginx and `aasa serve`; and AsyncEngine, the origin's
// request path on a NIOAsyncChannel loop, which `engines.sh` measures against
// the ChannelHandler that `aasa serve` uses; and NIOFloor, the least a server
// on NIO's HTTP/1 decoder does per request (`run.sh`'s floor row). Built in release, with its own
// `.build` here; not part of the main package or its tests.
let package = Package(
    name: "aasa-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-aasa", path: ".."),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "aasa-bench",
            dependencies: [.product(name: "AASAKit", package: "swift-aasa")]
        ),
        .executableTarget(
            name: "AsyncEngine",
            dependencies: [
                .product(name: "AASAServer", package: "swift-aasa"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "NIOFloor",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
