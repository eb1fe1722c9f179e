import AASAChecks
import ArgumentParser

/// Where `cdn-diff` and `validate-cdn` fetch from, so either can point at
/// local servers.
struct CDNEndpointOptions: ParsableArguments {
    @Option(
        name: .customLong("origin-base"),
        help: ArgumentHelp(
            "Connect to this server for the origin instead of https://<domain>; Host, SNI and the certificate check stay the domain's.",
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
