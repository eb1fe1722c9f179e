import AASAChecks
import ArgumentParser

/// Where `cdn-diff` and `validate-cdn` fetch from, so either can point at
/// local servers.
struct CDNEndpointOptions: ParsableArguments {
    @Option(
        name: .customLong("origin-base"),
        help: ArgumentHelp(
            "Fetch the origin from this URL instead of https://<domain>, sending Host: <domain>.",
            valueName: "url"
        )
    )
    var originBase: String?

    @Option(
        name: .customLong("cdn-base"),
        help: ArgumentHelp("Replace \(CDNDiff.appleCDNBase) (the domain is appended).", valueName: "url")
    )
    var cdnBase: String?
}
