import AASAKit
import AASAServer
import ArgumentParser
import Foundation

/// `aasa dev-cert`: a self-signed certificate for local and LAN testing.
struct DevCertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev-cert",
        abstract: "Generate a self-signed TLS certificate and key for local testing.",
        discussion: """
            Writes cert.pem and key.pem (P-256, the hosts as subject alternative names).
            With --dir, they go to <dir>/<first host>/tls/, where `aasa serve` picks them
            up by SNI; otherwise to --out (default: the current directory).

            Devices only use such a host for Universal Links in developer mode: add
            `applinks:<host>?mode=developer` to the entitlements, enable Associated Domains
            Development in Settings > Developer, and install and trust the certificate.

            Example:
              aasa dev-cert pastaio.test --dir aasa
              aasa serve --tls-cert aasa/pastaio.test/tls/cert.pem --tls-key aasa/pastaio.test/tls/key.pem
            """
    )

    @Argument(help: "Host names the certificate is for (the first is also the common name).")
    var hosts: [String]

    @Option(help: "Served directory: write to <dir>/<first host>/tls/.")
    var dir: String?

    @Option(help: "Directory to write cert.pem and key.pem to (ignored with --dir).")
    var out: String = "."

    @Option(help: "Days the certificate is valid.")
    var days: Int = 365

    @Flag(help: "Overwrite existing files.")
    var force = false

    func validate() throws {
        guard !hosts.isEmpty else { throw ValidationError("name at least one host") }
        guard days > 0, days <= 825 else {
            throw ValidationError("--days must be 1...825 (Apple's limit for TLS certificates)")
        }
        for host in hosts where HostName(name: host.hasPrefix("*.") ? String(host.dropFirst(2)) : host) == nil {
            throw ValidationError("not a host name: \(host)")
        }
    }

    func run() async throws {
        let directory = dir.map { "\($0)/\(hosts[0])/\(SiteLayout.tlsDirectoryName)" } ?? out
        let certificatePath = directory + "/" + SiteLayout.certificateFileName
        let keyPath = directory + "/" + SiteLayout.keyFileName
        let manager = FileManager.default
        if !force, manager.fileExists(atPath: certificatePath) || manager.fileExists(atPath: keyPath) {
            throw ValidationError("\(certificatePath) or \(keyPath) exists; pass --force to overwrite")
        }
        let certificate = try DevCertificate(hosts: hosts, days: days)
        try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(certificate.certificatePEM.utf8).write(to: URL(fileURLWithPath: certificatePath))
        try Data(certificate.keyPEM.utf8).write(to: URL(fileURLWithPath: keyPath))
        chmod(keyPath, 0o600)
        print(
            """
            Wrote \(certificatePath) and \(keyPath) for \(hosts.joined(separator: ", ")),
            valid until \(certificate.notValidAfter.formatted(.iso8601)).

            Serve with it:
              aasa serve --tls-cert \(certificatePath) --tls-key \(keyPath)
            Check it:
              aasa check \(hosts[0]) --base-url https://127.0.0.1:8080 --ca-file \(certificatePath)
            On the device: trust the certificate, enable developer mode, and use
              applinks:\(hosts[0])?mode=developer
            """
        )
    }
}
