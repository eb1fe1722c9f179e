import AASAKit
import AASAServer
import ArgumentParser
import Foundation
import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceLifecycle
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `aasa serve`: the origin.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve apple-app-site-association files per Host header from a directory.",
        discussion: """
            Serves <dir>/<host>/apple-app-site-association (and assetlinks.json) at
            /.well-known/apple-app-site-association, the legacy /apple-app-site-association
            and /.well-known/assetlinks.json: always 200 application/json, never a redirect.
            Every file is validated on load and on every reload; an invalid file never
            replaces the last good one. SIGHUP re-reads everything; the directory is also
            polled. Admin endpoints (/healthz, /readyz, /metrics, /status) listen on the
            admin port, loopback only by default.

            Settings come from flags, then AASA_* environment variables, then --config;
            every key is documented in config/README.md. An unknown key or variable, or a
            value of the wrong type or out of range, stops it at startup (exit code 2).

            Example:
              aasa serve --dir aasa --port 8080
              aasa serve --dir aasa --port 8080 --tls-port 8443      (HTTPS too: see aasa dev-cert)
              curl -i -H 'Host: pastaio.example' localhost:8080/.well-known/apple-app-site-association
            """
    )

    @Option(help: "Directory with one sub-directory per host (files.directory, default: aasa).")
    var dir: String?

    @Option(help: "Serving port (http.port, default: 8080).")
    var port: Int?

    @Option(help: "Serving address (http.bind, default: 0.0.0.0).")
    var bind: String?

    @Option(help: "Admin port; 0 disables it (admin.port, default: 8081).")
    var adminPort: Int?

    @Option(help: "Admin address (admin.bind, default: 127.0.0.1).")
    var adminBind: String?

    @Option(help: "Seconds between directory polls; 0 disables polling (files.pollInterval, default: 2).")
    var pollInterval: Double?

    @Option(help: "JSON configuration file; flags and AASA_* variables override it.")
    var config: String?

    @Option(help: "HTTPS port, served beside --port; certificates per host from <dir>/<host>/tls/ (https.port).")
    var tlsPort: Int?

    @Option(
        help: "Default TLS certificate chain (PEM) for hosts without their own; needs --tls-port (tls.certificate)."
    )
    var tlsCert: String?

    @Option(help: "Private key for --tls-cert (PEM) (tls.key).")
    var tlsKey: String?

    @Flag(help: "Exit if any file is invalid at startup, instead of serving the valid ones (files.strict).")
    var strict = false

    @Flag(help: "Do not log one line per request (log.access).")
    var noAccessLog = false

    func run() async throws {
        // A SIGHUP arriving before the reloader traps it must not kill us.
        signal(SIGHUP, SIG_IGN)
        // One event loop per CPU we may actually run on.
        // (Reading `groupLoopCountSuggestion` would freeze it: compare with
        // the core count instead.)
        NIOSingletons.groupLoopCountSuggestion = Self.eventLoopCount

        let configuration = try loadConfiguration()
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let log = LoggingSetup.bootstrap(level: configuration.log.level, format: configuration.log.format)
        defer { log.flush() }
        let logger = log.logger

        let origin = AASAOrigin(configuration: configuration, logger: logger, registry: registry)
        do {
            // An open-file limit too low to serve is the environment's
            // setting, like a bad flag: exit 2 with how to raise it.
            try origin.checkDescriptors()
        } catch {
            logger.critical("cannot start", metadata: ["error": "\(error)"])
            throw ExitCode(2)
        }
        let services: [any Service]
        do {
            try await origin.initialLoad()
            services = try origin.makeServices()
        } catch {
            logger.critical("cannot start", metadata: ["error": "\(error)"])
            throw ExitCode(1)
        }
        var groupConfiguration = ServiceGroupConfiguration(
            services: services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) },
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        // In-flight requests get this long; then the listeners are cancelled.
        groupConfiguration.maximumGracefulShutdownDuration = configuration.shutdownGracePeriod
        try await ServiceGroup(configuration: groupConfiguration).run()
    }

    /// The event loops `serve` runs: one per CPU it may run on (the
    /// descriptor budget reserves descriptors per loop).
    static var eventLoopCount: Int {
        min(CPUAffinity.count() ?? System.coreCount, System.coreCount)
    }

    /// Flags over `AASA_*` environment variables over the `--config` file,
    /// each layer checked against the configuration schema: any unknown or
    /// invalid setting stops here, before anything starts (exit 2).
    private func loadConfiguration() throws -> ServerConfiguration {
        var flags: [ConfigurationSources.FlagSetting] = []
        func set(_ flag: String, _ key: String, _ value: JSONValue?) {
            if let value { flags.append(.init(flag: flag, key: key, value: value)) }
        }
        set("--dir", "files.directory", dir.map { .string($0) })
        set("--port", "http.port", port.map { .number(Double($0)) })
        set("--bind", "http.bind", bind.map { .string($0) })
        set("--admin-port", "admin.port", adminPort.map { .number(Double($0)) })
        set("--admin-bind", "admin.bind", adminBind.map { .string($0) })
        set("--poll-interval", "files.pollInterval", pollInterval.map { .number($0) })
        set("--tls-port", "https.port", tlsPort.map { .number(Double($0)) })
        set("--tls-cert", "tls.certificate", tlsCert.map { .string($0) })
        set("--tls-key", "tls.key", tlsKey.map { .string($0) })
        if strict { set("--strict", "files.strict", .bool(true)) }
        if noAccessLog { set("--no-access-log", "log.access", .bool(false)) }

        let sources = ConfigurationSources(
            file: config,
            environment: ProcessInfo.processInfo.environment,
            flags: flags
        )
        do {
            return try sources.load()
        } catch {
            Terminal.printError("aasa serve: invalid configuration (every setting is in config/README.md):")
            for issue in error.issues {
                Terminal.printError("  \(issue)")
            }
            throw ExitCode(2)
        }
    }
}
