import AASAServer
import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `aasa dev`: the device-testing loop in one command. The development CA
/// (made once), a leaf for every host of the directory (issued when missing
/// or expiring), HTTP and HTTPS served together from the directory, watched
/// for edits, and what to do on the phone printed once both ports listen.
struct DevCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev",
        abstract: "Serve a directory over HTTP and HTTPS for testing on a real device, with the development CA.",
        discussion: """
            Makes (once) the development CA of `aasa dev-cert`, issues a leaf certificate for \
            every host of the directory that has none from it or whose leaf expires within 30 \
            days, then serves the directory on --port (HTTP) and --tls-port (HTTPS) at once, \
            re-reading it every --poll-interval seconds (a host added meanwhile gets its leaf \
            too). It prints, per host, the URLs to try \
            and the entitlement line (applinks:<host>?mode=developer), the addresses of this \
            machine on the network, and the steps on the phone. Ctrl-C stops it (exit 0).

            Example:
              aasa dev aasa
              sudo aasa dev aasa --tls-port 443     (Linux; see docs/DEVICE-TESTING.md for 443 without root)
            """
    )

    @Argument(help: "Directory with one sub-directory per host.")
    var dir: String = "aasa"

    @Option(help: "HTTP port.")
    var port: Int = 8080

    @Option(help: "HTTPS port (the phone uses 443).")
    var tlsPort: Int = 8443

    @Option(help: "Address of both ports (0.0.0.0: reachable by the phone).")
    var bind: String = "0.0.0.0"

    @Option(help: "Admin port on 127.0.0.1 (/healthz, /status); 0 disables it.")
    var adminPort: Int = 0

    @Option(help: "Seconds between directory polls.")
    var pollInterval: Double = 0.5

    @Option(help: "Directory of the development CA (default: ~/.config/aasa/dev-ca).")
    var caDir: String?

    func validate() throws {
        for (flag, value) in [("--port", port), ("--tls-port", tlsPort), ("--admin-port", adminPort)]
        where !(0...65535).contains(value) {
            throw ValidationError("\(flag) must be 0...65535, got \(value)")
        }
        guard pollInterval > 0, pollInterval <= 86_400 else {
            throw ValidationError("--poll-interval must be above 0 and at most 86400")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("not a directory: \(dir)")
        }
    }

    func run() async throws {
        signal(SIGHUP, SIG_IGN)
        let caDirectory = DevCADirectory(path: caDir ?? DevCADirectory.defaultPath())
        let authority: DevCertificateAuthority
        do {
            try caDirectory.ensureOutside(servedDirectory: dir)
            let (loaded, created) = try caDirectory.loadOrCreate()
            authority = loaded
            let outcomes = try HostCertificates(authority: authority, directory: dir).ensureAll()
            let output = DevCertOutput(caDirectory: caDirectory, authority: authority)
            Self.say(output.authority(created: created))
            Self.say(output.certificates(outcomes))
        } catch {
            Terminal.printError("aasa dev: \(error)")
            throw ExitCode(2)
        }

        let log = LoggingSetup.bootstrap(level: "info", format: "text")
        defer { log.flush() }
        let logger = log.logger
        let origin = AASAOrigin(configuration: serverConfiguration, logger: logger)
        let services: [any Service]
        do {
            try await origin.initialLoad()
            services = try origin.makeServices()
        } catch {
            logger.critical("cannot start", metadata: ["error": "\(error)"])
            throw ExitCode(1)
        }
        let leaves = DevLeafIssuer(
            authority: authority,
            directory: dir,
            interval: .milliseconds(Int(max(pollInterval, 1) * 1000)),
            logger: logger,
            issued: { Self.say("aasa dev: issued \($0.certificatePath) for \($0.names.joined(separator: ", "))") }
        )
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: (services + [leaves]).map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) },
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        let hosts = SiteDirectoryHost.scan(dir)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            tasks.addTask {
                // Printed only once both ports listen; a port that fails to
                // bind ends `group.run()` with the error instead.
                let instructions = DevInstructions(
                    hosts: hosts,
                    httpPort: try await origin.httpAddress.port(),
                    httpsPort: try await origin.httpsAddress.port(),
                    caDirectory: caDirectory,
                    addresses: LANAddresses.current()
                )
                Self.say(instructions.text)
            }
            try await tasks.waitForAll()
        }
    }

    /// Straight to the descriptor, unbuffered: a script or test waiting
    /// for the ready line gets it when the ports listen, not at exit.
    /// A reader that went away (EPIPE) must not crash the server: the
    /// throwing `write(contentsOf:)`, never the trapping `write(_:)`.
    private static func say(_ text: String) {
        try? FileHandle.standardOutput.write(contentsOf: Data((text + "\n").utf8))
    }

    private var serverConfiguration: ServerConfiguration {
        var configuration = ServerConfiguration(
            http: .init(bind: bind, port: port),
            https: .init(bind: bind, port: tlsPort),
            admin: adminPort == 0 ? nil : .init(bind: "127.0.0.1", port: adminPort)
        )
        configuration.files.directory = dir
        configuration.files.pollInterval = .milliseconds(Int(pollInterval * 1000))
        // Every edit must reach the phone's next fetch.
        configuration.response.cacheControl = "no-cache"
        return configuration
    }
}
