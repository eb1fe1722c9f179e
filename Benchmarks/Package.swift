// swift-tools-version: 6.0
import PackageDescription

// The benchmark tool: the matcher benchmark (AASAMatcher vs a naive
// NSRegularExpression translation) and the generator of the domain trees that
// `run.sh` serves with nginx and `aasa serve`. Built in release by run.sh,
// with its own `.build` here; not part of the main package or its tests.
let package = Package(
    name: "aasa-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-aasa", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "aasa-bench",
            dependencies: [.product(name: "AASAKit", package: "swift-aasa")]
        )
    ],
    swiftLanguageModes: [.v6]
)
