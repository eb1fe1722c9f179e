import Logging
import ServiceLifecycle

@testable import AASAServer

/// The real origin, started on ephemeral loopback ports for one test and
/// stopped with a graceful shutdown at the end.
struct RunningOrigin {
    let origin: AASAOrigin
    let port: Int
    let group: ServiceGroup

    var client: TestHTTPClient { TestHTTPClient(port: port) }

    static func with<T: Sendable>(
        _ configuration: ServerConfiguration,
        _ body: @Sendable (RunningOrigin) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "aasa-test")
        logger.logLevel = .critical
        let origin = AASAOrigin(configuration: configuration, logger: logger)
        try await origin.initialLoad()
        let group = ServiceGroup(configuration: .init(services: try origin.makeServices(), logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let port = try await origin.httpAddress.port()
            do {
                let result = try await body(RunningOrigin(origin: origin, port: port, group: group))
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }
}
