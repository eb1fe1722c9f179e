import AASAChecks
import AASAKit
import ArgumentParser

/// The request bounds and trust options of the commands that go online.
struct NetworkOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Seconds allowed for each request, body included.", valueName: "seconds"))
    var timeout: Double = 10

    @Flag(help: "Accept any TLS certificate (staging hosts); expiry is still reported.")
    var insecure = false

    @Option(
        name: .customLong("ca-file"),
        help: ArgumentHelp("Also trust the CA certificates in this PEM file (private staging CAs).", valueName: "pem")
    )
    var caFile: String?

    @Option(
        name: .customLong("resolve"),
        help: ArgumentHelp(
            "Connect to ADDRESS for DOMAIN on PORT, as curl does (repeatable); Host, SNI and the certificate check still use DOMAIN.",
            valueName: "domain:port:address"
        )
    )
    var resolve: [String] = []

    @Option(help: ArgumentHelp("How many hosts to fetch at once.", valueName: "n"))
    var concurrency = 8

    /// The parsed `--resolve` entries.
    func resolveOverrides() throws(InputError) -> [ResolveOverride] {
        var overrides: [ResolveOverride] = []
        for argument in resolve {
            let override: ResolveOverride
            do {
                override = try ResolveOverride(parsing: argument)
            } catch {
                throw InputError(error.description)
            }
            if let clash = overrides.first(where: { $0.domain == override.domain && $0.port == override.port }) {
                throw InputError(
                    "--resolve \(argument): \(clash.domain):\(clash.port) is already resolved to \(clash.address)"
                )
            }
            overrides.append(override)
        }
        return overrides
    }

    /// Rejects a `--resolve` entry that no request would use (a typo in the
    /// domain, or a port the URLs do not have): ignoring it, as curl does,
    /// would check the public host while the user believes it checks another.
    /// - Parameter movedBy: the hosts a base URL option already connects
    ///   elsewhere, and that option's name.
    func requireUsed(
        _ overrides: [ResolveOverride],
        by requests: [(host: String, port: Int)],
        movedBy: (option: String, hosts: [String])? = nil
    ) throws(InputError) {
        for override in overrides where !requests.contains(where: { override.applies(host: $0.host, port: $0.port) }) {
            if let movedBy, movedBy.hosts.contains(override.domain) {
                throw InputError(
                    "--resolve \(override): \(movedBy.option) already chooses where \(override.domain) connects; use one of them"
                )
            }
            let sameDomain = requests.filter { $0.host == override.domain }.map { "\($0.host):\($0.port)" }
            let suggestion = Suggestion.closest(to: override.domain, in: requests.map(\.host))
            let hint =
                sameDomain.isEmpty
                ? "no request goes to \(override.domain)" + (suggestion.map { " (did you mean \($0)?)" } ?? "")
                : "\(override.domain) is fetched on \(sameDomain.joined(separator: ", ")), not port \(override.port)"
            throw InputError("--resolve \(override): \(hint)")
        }
    }

    /// A fetcher with these bounds: the connect timeout is the smaller of
    /// 10 s and the total.
    func makeFetcher(resolve overrides: [ResolveOverride] = []) throws(InputError) -> HTTPFetcher {
        guard timeout > 0, timeout.isFinite else { throw InputError("--timeout must be a positive number of seconds") }
        guard concurrency > 0 else { throw InputError("--concurrency must be at least 1") }
        let total = Duration.milliseconds(Int64(timeout * 1000))
        let configuration = HTTPFetcher.Configuration(
            connectTimeout: min(.seconds(10), total),
            timeout: total,
            insecure: insecure,
            caFile: caFile,
            resolve: overrides
        )
        do {
            return try HTTPFetcher(configuration: configuration)
        } catch {
            throw InputError("--ca-file \(error)")
        }
    }
}
