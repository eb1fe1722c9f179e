import AASAKit
import AASAServer
import ArgumentParser
import Foundation

/// `aasa dev-cert`: a development CA (made once) and leaf certificates from
/// it, for testing Universal Links on a real device against a laptop.
struct DevCertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev-cert",
        abstract: "Issue TLS certificates from a local development CA (made once) for hosts served from this machine.",
        discussion: """
            The first run makes a development CA in --ca-dir (default: \
            $XDG_CONFIG_HOME/aasa/dev-ca, else ~/.config/aasa/dev-ca): ca.pem, ca-key.pem \
            (mode 0600) and aasa-dev-ca.mobileconfig, the profile that makes a phone trust it. \
            Every run issues a fresh leaf (P-256, at most 825 days) for each host into \
            <dir>/<host>/tls/cert.pem and key.pem, where `aasa serve` picks it up by SNI; \
            symlinked aliases of the host are named in its certificate too. The CA is kept, \
            so the phone trusts the renewed leaves without a new profile.

            With --out, one certificate naming every host goes to <out>/cert.pem and \
            key.pem instead (a default certificate: --tls-cert, or a proxy's).

            Then: install the profile on the phone, enable it in Settings > General > About > \
            Certificate Trust Settings, turn on Settings > Developer > Associated Domains \
            Development, and use applinks:<host>?mode=developer. docs/DEVICE-TESTING.md has \
            the whole path; `aasa dev` does all of it in one command.

            Examples:
              aasa dev-cert pastaio.example www.pastaio.example --dir aasa
              aasa dev-cert '*.pastaio.example' --dir aasa
              aasa dev-cert '*.aasa-staging.example.com' --out certs
            """
    )

    @Argument(help: "Host names (a host directory each with --dir); *.name for a wildcard.")
    var hosts: [String]

    @Option(help: "Served directory: one leaf per host into <dir>/<host>/tls/.")
    var dir: String = "aasa"

    @Option(help: "Write one certificate for all hosts into this directory instead of --dir.")
    var out: String?

    @Option(help: "Directory of the development CA (default: ~/.config/aasa/dev-ca).")
    var caDir: String?

    @Option(help: "Days the leaf certificates are valid (1-825, Apple's limit).")
    var days: Int = DevCertificate.defaultValidityDays

    @Flag(help: "Replace a certificate the development CA did not issue.")
    var force = false

    func validate() throws {
        guard !hosts.isEmpty else { throw ValidationError("name at least one host") }
        guard (1...DevCertificate.maximumValidityDays).contains(days) else {
            throw ValidationError("--days must be 1...825 (Apple's limit for TLS server certificates)")
        }
        for host in hosts where HostDirectoryName(host)?.name != host {
            let lower = host.lowercased()
            let hint = HostDirectoryName(lower)?.name == lower ? " (write it in lowercase: \(lower))" : ""
            throw ValidationError("not a host name: \(host)\(hint)")
        }
    }

    func run() async throws {
        let caDirectory = DevCADirectory(path: caDir ?? DevCADirectory.defaultPath())
        do {
            try caDirectory.ensureOutside(servedDirectory: out ?? dir)
            let (authority, created) = try caDirectory.loadOrCreate()
            let issuer = HostCertificates(authority: authority, directory: dir, days: days)
            let outcomes =
                if let out {
                    [try issuer.writeCombined(names: hosts, to: out, force: force)]
                } else {
                    try issuer.renew(hosts, force: force)
                }
            let output = DevCertOutput(caDirectory: caDirectory, authority: authority)
            // Through the report writer, whose failure `aasa` turns into exit 2.
            let report = CommandOutput.standard
            report.line(output.authority(created: created))
            report.line(output.certificates(outcomes))
            report.line(output.steps(hosts: hosts, servedDirectory: out == nil ? dir : nil))
        } catch {
            Terminal.printError("aasa dev-cert: \(error)")
            throw ExitCode(2)
        }
    }
}
