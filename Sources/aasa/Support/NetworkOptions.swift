import AASAChecks
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

    @Option(help: ArgumentHelp("How many hosts to fetch at once.", valueName: "n"))
    var concurrency = 8

    /// A fetcher with these bounds: the connect timeout is the smaller of
    /// 10 s and the total.
    func makeFetcher() throws(InputError) -> HTTPFetcher {
        guard timeout > 0, timeout.isFinite else { throw InputError("--timeout must be a positive number of seconds") }
        guard concurrency > 0 else { throw InputError("--concurrency must be at least 1") }
        let total = Duration.milliseconds(Int64(timeout * 1000))
        let configuration = HTTPFetcher.Configuration(
            connectTimeout: min(.seconds(10), total),
            timeout: total,
            insecure: insecure,
            caFile: caFile
        )
        do {
            return try HTTPFetcher(configuration: configuration)
        } catch {
            throw InputError("--ca-file \(error)")
        }
    }
}
