import Logging
import NIOCore
import Prometheus
import ServiceLifecycle

@testable import AASAServer

/// The real origin on loopback, like `RunningOrigin`, with the test's own
/// logger, a metrics registry and the service group's graceful-shutdown
/// limit set by the test (long by default: the server's own deadlines,
/// not the group's, must end a shutdown).
struct OriginHarness {
    let origin: AASAOrigin
    let group: ServiceGroup
    let log = CapturedLogs()
    let registry = PrometheusCollectorRegistry()

    init(
        _ configuration: ServerConfiguration,
        groupGrace: Duration = .seconds(60),
        descriptorLimit: DescriptorLimit.Source = .system,
        refusalLogInterval: TimeAmount = RateLimitedLog.defaultInterval
    ) async throws {
        let origin = AASAOrigin(
            configuration: configuration,
            logger: log.logger,
            registry: registry,
            descriptorLimit: descriptorLimit,
            refusalLogInterval: refusalLogInterval
        )
        try await origin.initialLoad()
        var groupConfiguration = ServiceGroupConfiguration(services: try origin.makeServices(), logger: log.logger)
        groupConfiguration.maximumGracefulShutdownDuration = groupGrace
        self.origin = origin
        self.group = ServiceGroup(configuration: groupConfiguration)
    }

    /// Runs the group around `body`, then shuts it down gracefully.
    func run<T: Sendable>(_ body: @Sendable (OriginHarness) async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            _ = try await origin.httpAddress.port()
            do {
                let result = try await body(self)
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

    var client: TestHTTPClient {
        get async throws { TestHTTPClient(port: try await origin.httpAddress.port()) }
    }

    var admin: TestHTTPClient {
        get async throws { TestHTTPClient(port: try await origin.adminAddress.port()) }
    }

    var metrics: String {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
