// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "swift-aasa",
    // AASAKit, the one product an iOS app's tests link, needs iOS 16 / macOS 13
    // (Swift's string algorithms such as `firstRange(of:)`); the server and the
    // CLI use Synchronization's `Mutex`, hence macOS 15 for the package.
    platforms: [.macOS(.v15), .iOS(.v16)],
    products: [
        .library(name: "AASAKit", targets: ["AASAKit"]),
        .library(name: "AASAServer", targets: ["AASAServer"]),
        .library(name: "AASAChecks", targets: ["AASAChecks"]),
        .executable(name: "aasa", targets: ["aasa"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
    ],
    targets: [
        // The format: model, JSON Schema, lints, matcher. Foundation only.
        .target(
            name: "AASAKit",
            resources: [.copy("Resources")]
        ),
        // A prefetch hint for the serving path (Swift has none of its own).
        .target(name: "CPrefetch"),
        // The origin server on SwiftNIO.
        .target(
            name: "AASAServer",
            dependencies: [
                "AASAKit",
                "CPrefetch",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            // The configuration schema; the published copy is schema/aasa-config.schema.json.
            resources: [.copy("Configuration/aasa-config.schema.json")]
        ),
        // Outbound checks (live host, Apple's CDN); the server never links an HTTP client.
        .target(
            name: "AASAChecks",
            dependencies: [
                "AASAKit",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ]
        ),
        // The command-line tool, thin over the three libraries.
        .executableTarget(
            name: "aasa",
            dependencies: [
                "AASAKit",
                "AASAServer",
                "AASAChecks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "AASAKitTests",
            dependencies: ["AASAKit"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "AASAServerTests",
            dependencies: [
                "AASAServer",
                "AASAKit",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ]
        ),
        .testTarget(
            name: "AASAChecksTests",
            dependencies: [
                "AASAChecks",
                "AASAServer",
                "AASAKit",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                // A 1,024-bit RSA leaf: TLS accepts it, swift-certificates cannot read it.
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "AASACLITests",
            dependencies: [
                "aasa",
                "AASAKit",
                "AASAChecks",
                "AASAServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
