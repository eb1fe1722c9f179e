import Foundation
import Logging

@testable import AASAServer

/// The project's own origin (`aasa serve`'s store, responder and connection
/// pipeline) serving a temporary directory on 127.0.0.1, port 0: what
/// `aasa check --base-url` and `aasa cdn-diff --origin-base` are pointed at
/// for a local server.
enum OwnOrigin {
    /// - Parameter files: `<host>/<file name>` → contents.
    static func with<Result>(
        _ files: [String: String],
        _ body: (FakeHTTPServer) async throws -> Result
    ) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appending(
            path: "aasa-checks-origin-\(UUID().uuidString)"
        )
        defer { try? FileManager.default.removeItem(at: directory) }
        for (relative, contents) in files {
            let url = directory.appending(path: relative)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try Data(contents.utf8).write(to: url)
        }
        var logger = Logger(label: "aasa-checks-test")
        logger.logLevel = .critical
        let configuration = ServerConfiguration(
            http: .init(bind: "127.0.0.1", port: 0),
            files: .init(directory: directory.path, pollInterval: nil, strict: true)
        )
        let origin = AASAOrigin(configuration: configuration, logger: logger)
        try await origin.initialLoad()
        let pipeline = ServingPipeline(store: origin.store, limits: configuration.limits, accessLog: nil)
        return try await FakeHTTPServer.with(configuring: { channel in try pipeline.configure(channel) }, body)
    }
}
