import AASAServer
import ArgumentParser
import Configuration
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
            every key is documented in config/README.md.

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

    @Option(help: "Default TLS certificate chain (PEM) for hosts without their own; needs --tls-port (tls.certificate).")
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
        if let cpus = CPUAffinity.count() {
            NIOSingletons.groupLoopCountSuggestion = min(cpus, System.coreCount)
        }

        let reader = try await configurationReader()
        let configuration = ServerConfiguration(reader: reader)
        let logger = LoggingSetup.bootstrap(level: configuration.log.level, format: configuration.log.format)
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))

        let origin = AASAOrigin(configuration: configuration, logger: logger, registry: registry)
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

    /// Flags over `AASA_*` environment variables over the `--config` file.
    private func configurationReader() async throws -> ConfigReader {
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        func set(_ key: AbsoluteConfigKey, _ content: ConfigContent?) {
            if let content { values[key] = ConfigValue(content, isSecret: false) }
        }
        set("files.directory", dir.map { .string($0) })
        set("http.port", port.map { .int($0) })
        set("http.bind", bind.map { .string($0) })
        set("admin.port", adminPort.map { .int($0) })
        set("admin.bind", adminBind.map { .string($0) })
        set("files.pollInterval", pollInterval.map { .double($0) })
        set("https.port", tlsPort.map { .int($0) })
        set("tls.certificate", tlsCert.map { .string($0) })
        set("tls.key", tlsKey.map { .string($0) })
        if strict { set("files.strict", .bool(true)) }
        if noAccessLog { set("log.access", .bool(false)) }

        var providers: [any ConfigProvider] = [
            InMemoryProvider(name: "flags", values: values),
            EnvironmentVariablesProvider().prefixKeys(with: "aasa"),
        ]
        if let config {
            do {
                providers.append(try await FileProvider<JSONSnapshot>(filePath: FilePath(config)))
            } catch {
                throw ValidationError("--config \(config): \(error)")
            }
        }
        return ConfigReader(providers: providers)
    }
}
