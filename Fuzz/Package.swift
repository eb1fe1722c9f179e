// swift-tools-version: 6.2
import PackageDescription

// libFuzzer targets over swift-aasa, kept out of the main package so that
// `swift build` there never needs `-sanitize=fuzzer`. Build and run with
// `.ci/fuzz.sh` from the repository root; see Fuzz/README.md.
let package = Package(
    name: "swift-aasa-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-aasa", path: ".."),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        // Declares libFuzzer's `LLVMFuzzerRunDriver`.
        .target(name: "CLibFuzzer"),
        // Bytes → JSON parser → schema, validator, model, matcher; and bytes as a pattern.
        .executableTarget(
            name: "FuzzAASAKit",
            dependencies: ["CLibFuzzer", .product(name: "AASAKit", package: "swift-aasa")]
        ),
        // Bytes → NIO's HTTP/1 decoder and the origin's handlers on an embedded channel.
        .executableTarget(
            name: "FuzzHTTP",
            dependencies: [
                "CLibFuzzer",
                .product(name: "AASAServer", package: "swift-aasa"),
                .product(name: "AASAKit", package: "swift-aasa"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
