import AASAChecks
import ArgumentParser

/// How `aasa validate --follow-includes` fetches included files: the
/// request bounds and trust options of the commands that go online, without
/// the ones about hosts.
struct IncludeFetchOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Seconds allowed for each include request (default 10).", valueName: "seconds"))
    var timeout: Double?

    @Flag(help: "Accept any TLS certificate when fetching includes.")
    var insecure = false

    @Option(
        name: .customLong("ca-file"),
        help: ArgumentHelp("Also trust the CA certificates in this PEM file.", valueName: "pem")
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

    /// Whether any option was given: without `--follow-includes` nothing
    /// would use it, and ignoring it would mislead.
    var isUsed: Bool { timeout != nil || insecure || caFile != nil || !resolve.isEmpty }

    /// A fetcher with these options, through ``NetworkOptions``' rules.
    func makeFetcher() throws(InputError) -> HTTPFetcher {
        // Every member is set: an unparsed option group has no values to read.
        var network = NetworkOptions()
        network.timeout = timeout ?? 10
        network.concurrency = 1
        network.insecure = insecure
        network.caFile = caFile
        network.resolve = resolve
        return try network.makeFetcher(resolve: network.resolveOverrides())
    }
}
