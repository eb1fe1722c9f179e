import Configuration

/// Everything `aasa serve` can be told, with the defaults it uses when told
/// nothing. The set of hosts is *not* here: it comes from the directory layout.
///
/// Read with ``init(reader:)`` from any swift-configuration provider stack;
/// `aasa serve` reads it through ``ConfigurationSources``, which checks
/// flags, `AASA_*` environment variables and the `--config` JSON file
/// against `schema/aasa-config.schema.json` first. Every key is documented
/// in `config/README.md`; a key read here must be in the schema.
public struct ServerConfiguration: Sendable {
    /// The serving listener (`http.*`), plain HTTP.
    public var http: Listener
    /// The HTTPS listener (`https.*`), on beside the plain one when
    /// `https.port` is set; nil otherwise.
    public var https: Listener?
    /// The admin listener (`admin.*`): `/healthz`, `/readyz`, `/metrics`, `/status`.
    /// A port of 0 in the configuration disables it (`nil`).
    public var admin: Listener?
    /// `admin.maxConnections` (int, 64): admin connections past this are
    /// answered 503 and closed, like the serving port's `limits.maxConnections`.
    public var adminMaxConnections: Int = 64
    public var files: Files
    public var response: Response
    public var hosts: Hosts
    public var limits: Limits
    public var log: Log
    public var tls: TLS
    /// `shutdown.gracePeriod` (double seconds, 8): how long in-flight requests
    /// may take after SIGTERM before connections are closed. Kept under
    /// Docker's and Kubernetes' 10 s default so the process exits on its own.
    public var shutdownGracePeriod: Duration

    public struct Listener: Sendable, Hashable {
        /// `http.bind` (string, `0.0.0.0`) / `https.bind` (string, `http.bind`)
        /// / `admin.bind` (string, `127.0.0.1`).
        public var bind: String
        /// `http.port` (int, 8080) / `https.port` (int, none: no HTTPS) /
        /// `admin.port` (int, 8081). 0 on `http.port` or `https.port` picks a
        /// free port (tests).
        public var port: Int

        public init(bind: String, port: Int) {
            self.bind = bind
            self.port = port
        }
    }

    public struct Files: Sendable, Hashable {
        /// `files.directory` (string, `aasa`): one directory per host.
        public var directory: String
        /// `files.pollInterval` (double seconds, 2): how often the directory is
        /// re-read so ConfigMap swaps and `git pull` are picked up without a
        /// signal; 0 turns polling off (SIGHUP still reloads).
        public var pollInterval: Duration?
        /// `files.strict` (bool, false): any invalid file at startup is fatal.
        public var strict: Bool

        public init(directory: String = "aasa", pollInterval: Duration? = .seconds(2), strict: Bool = false) {
            self.directory = directory
            self.pollInterval = pollInterval
            self.strict = strict
        }
    }

    public struct Response: Sendable, Hashable {
        /// `response.cacheControl` (string, `max-age=300`): sent with every file.
        public var cacheControl: String

        public init(cacheControl: String = "max-age=300") {
            self.cacheControl = cacheControl
        }
    }

    public struct Hosts: Sendable, Hashable {
        /// `hosts.default` (string, none): the host whose file answers requests
        /// for unknown hosts. Off by default: unknown hosts get 404.
        public var defaultHost: String?
        /// `hosts.aliases` (array of `"alias=target"` strings, empty): extra
        /// names serving another host's files; an alias may be a wildcard
        /// (`*.brand.example=brand.example`), the more specific name winning.
        public var aliases: [String]
        /// `hosts.staging` (array of patterns, empty): staging names derived
        /// from every served host, e.g. `{label}.aasa-staging.example.com`
        /// serves `brand.de` as `brand-de.aasa-staging.example.com` (see
        /// ``StagingNameRule`` for how `.` and `-` are written).
        public var staging: [String]

        public init(defaultHost: String? = nil, aliases: [String] = [], staging: [String] = []) {
            self.defaultHost = defaultHost
            self.aliases = aliases
            self.staging = staging
        }
    }

    public struct Limits: Sendable, Hashable {
        /// `limits.maxHeaderBytes` (int, 8192): larger request heads get 431.
        public var maxHeaderBytes: Int
        /// `limits.headerTimeout` (double seconds, 10): a request head must
        /// arrive completely within this time of its first byte (slowloris).
        public var headerTimeout: Duration
        /// `limits.idleTimeout` (double seconds, 60): an idle keep-alive
        /// connection is closed after this long.
        public var idleTimeout: Duration
        /// `limits.maxConnections` (int, 10000): connections past this are
        /// closed as soon as they are accepted.
        public var maxConnections: Int
        /// `limits.sendTimeout` (double seconds, 10): a connection whose queued
        /// responses make no progress for this long (a client that stopped
        /// reading) is closed.
        public var sendTimeout: Duration
        /// `limits.idleShutdownGrace` (double seconds, 0.5): once shutdown begins,
        /// how long an idle keep-alive connection may still send a request
        /// (one already on the wire is answered rather than reset).
        public var idleShutdownGrace: Duration

        public init(
            maxHeaderBytes: Int = 8192,
            headerTimeout: Duration = .seconds(10),
            idleTimeout: Duration = .seconds(60),
            maxConnections: Int = 10_000,
            idleShutdownGrace: Duration = .milliseconds(500),
            sendTimeout: Duration = .seconds(10)
        ) {
            self.sendTimeout = sendTimeout
            self.maxHeaderBytes = maxHeaderBytes
            self.headerTimeout = headerTimeout
            self.idleTimeout = idleTimeout
            self.maxConnections = maxConnections
            self.idleShutdownGrace = idleShutdownGrace
        }
    }

    public struct Log: Sendable, Hashable {
        /// `log.level` (string, `info`): trace, debug, info, notice, warning, error, critical.
        public var level: String
        /// `log.access` (bool, true): one structured line per request.
        public var access: Bool
        /// `log.format` (string, `text`): `text` or `json` (one JSON object per line).
        public var format: String

        public init(level: String = "info", access: Bool = true, format: String = "text") {
            self.level = level
            self.access = access
            self.format = format
        }
    }

    public struct TLS: Sendable, Hashable {
        /// `tls.certificate` (string, none): PEM chain of the default
        /// certificate, for HTTPS connections whose server name (SNI) names
        /// no host with a certificate of its own (those come from
        /// `<dir>/<host>/tls/{cert,key}.pem`). Needs `https.port`.
        public var certificatePath: String?
        /// `tls.key` (string, none): PEM private key of the default certificate.
        public var keyPath: String?

        public init(certificatePath: String? = nil, keyPath: String? = nil) {
            self.certificatePath = certificatePath
            self.keyPath = keyPath
        }

        /// A default certificate is configured (HTTPS itself is on when
        /// ``ServerConfiguration/https`` is set).
        public var isEnabled: Bool { certificatePath != nil && keyPath != nil }
    }

    public init(
        http: Listener = Listener(bind: "0.0.0.0", port: 8080),
        https: Listener? = nil,
        admin: Listener? = Listener(bind: "127.0.0.1", port: 8081),
        files: Files = Files(),
        response: Response = Response(),
        hosts: Hosts = Hosts(),
        limits: Limits = Limits(),
        log: Log = Log(),
        tls: TLS = TLS(),
        shutdownGracePeriod: Duration = .seconds(8)
    ) {
        self.http = http
        self.https = https
        self.admin = admin
        self.files = files
        self.response = response
        self.hosts = hosts
        self.limits = limits
        self.log = log
        self.tls = tls
        self.shutdownGracePeriod = shutdownGracePeriod
    }
}

extension ServerConfiguration {
    /// Reads every key from `reader`, falling back to the defaults above.
    public init(reader: ConfigReader) {
        let defaults = ServerConfiguration()
        let adminPort = reader.int(forKey: "admin.port", default: defaults.admin?.port ?? 0)
        let poll = reader.double(forKey: "files.pollInterval", default: 2)
        let httpBind = reader.string(forKey: "http.bind", default: defaults.http.bind)
        let httpsBind = reader.string(forKey: "https.bind", default: httpBind)
        self.init(
            http: Listener(bind: httpBind, port: reader.int(forKey: "http.port", default: defaults.http.port)),
            https: reader.int(forKey: "https.port").map { Listener(bind: httpsBind, port: $0) },
            admin: adminPort == 0
                ? nil
                : Listener(bind: reader.string(forKey: "admin.bind", default: "127.0.0.1"), port: adminPort),
            files: Files(
                directory: reader.string(forKey: "files.directory", default: defaults.files.directory),
                pollInterval: poll > 0 ? .seconds(poll) : nil,
                strict: reader.bool(forKey: "files.strict", default: false)
            ),
            response: Response(
                cacheControl: reader.string(forKey: "response.cacheControl", default: defaults.response.cacheControl)
            ),
            hosts: Hosts(
                defaultHost: reader.string(forKey: "hosts.default"),
                aliases: reader.stringArray(forKey: "hosts.aliases", default: []),
                staging: reader.stringArray(forKey: "hosts.staging", default: [])
            ),
            limits: Limits(
                maxHeaderBytes: reader.int(forKey: "limits.maxHeaderBytes", default: defaults.limits.maxHeaderBytes),
                headerTimeout: .seconds(reader.double(forKey: "limits.headerTimeout", default: 10)),
                idleTimeout: .seconds(reader.double(forKey: "limits.idleTimeout", default: 60)),
                maxConnections: reader.int(forKey: "limits.maxConnections", default: defaults.limits.maxConnections),
                idleShutdownGrace: .seconds(reader.double(forKey: "limits.idleShutdownGrace", default: 0.5)),
                sendTimeout: .seconds(reader.double(forKey: "limits.sendTimeout", default: 10))
            ),
            log: Log(
                level: reader.string(forKey: "log.level", default: defaults.log.level),
                access: reader.bool(forKey: "log.access", default: defaults.log.access),
                format: reader.string(forKey: "log.format", default: defaults.log.format)
            ),
            tls: TLS(
                certificatePath: reader.string(forKey: "tls.certificate"),
                keyPath: reader.string(forKey: "tls.key")
            ),
            shutdownGracePeriod: .seconds(reader.double(forKey: "shutdown.gracePeriod", default: 8))
        )
        adminMaxConnections = reader.int(forKey: "admin.maxConnections", default: defaults.adminMaxConnections)
    }
}
