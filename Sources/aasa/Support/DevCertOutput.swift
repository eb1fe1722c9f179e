import AASAServer
import Foundation

/// What `aasa dev-cert` and `aasa dev` print: where the CA is, what was
/// issued, and the steps on the phone, in the order a developer takes them.
struct DevCertOutput {
    let caDirectory: DevCADirectory
    let authority: DevCertificateAuthority

    func authority(created: Bool) -> String {
        let fingerprint = (try? authority.fingerprint) ?? "unavailable"
        func row(_ file: String, _ what: String) -> String {
            "  " + file.padding(toLength: 26, withPad: " ", startingAt: 0) + what
        }
        return [
            "Development CA \"\(authority.commonName)\" \(created ? "created in" : "reused from") \(caDirectory.path)/",
            row(DevCADirectory.certificateFileName, "the CA certificate (SHA-256 \(fingerprint))"),
            row(ConfigurationProfile.fileName, "the profile to install on the phone"),
            row(DevCADirectory.keyFileName, "its key (mode 0600): keep it on this machine"),
        ].joined(separator: "\n")
    }

    func certificates(_ outcomes: [HostCertificates.Outcome]) -> String {
        var lines = ["Certificates:"]
        for outcome in outcomes {
            let state =
                switch outcome.action {
                case .issued: "issued"
                case .kept: "kept"
                case .foreign(let issuer): "left alone (issued by \(issuer), not the development CA)"
                }
            let until = outcome.notValidAfter.map { ", valid until \($0.formatted(.iso8601))" } ?? ""
            lines.append("  \(outcome.certificatePath): \(outcome.names.joined(separator: ", ")) — \(state)\(until)")
        }
        return lines.joined(separator: "\n")
    }

    /// The steps on the phone and the laptop. `servedDirectory` is nil when
    /// the certificate went elsewhere (`--out`).
    func steps(hosts: [String], servedDirectory: String?) -> String {
        let host = hosts.first { !$0.hasPrefix("*.") } ?? "app.example"
        let serve =
            servedDirectory.map { "aasa serve --dir \($0) --port 8080 --tls-port 8443   (or: aasa dev \($0))" }
            ?? "aasa serve --tls-cert <out>/cert.pem --tls-key <out>/key.pem --tls-port 8443"
        return """

            Next steps (docs/DEVICE-TESTING.md has the whole path):
              1. Serve:   \(serve)
                 Check:   aasa check \(host) --base-url https://127.0.0.1:8443 --ca-file \(caDirectory.certificatePath)
              2. Phone:   install \(caDirectory.profilePath)
                          (AirDrop or mail it, or open the URL `aasa dev` prints), then
                          Settings > General > VPN & Device Management > install the profile,
                          Settings > General > About > Certificate Trust Settings > enable "\(authority.commonName)".
              3. Phone:   Settings > Developer > Associated Domains Development: on.
              4. App:     entitlement \(hosts.map { "applinks:\($0)?mode=developer" }.joined(separator: " "))
              5. DNS:     the phone must resolve each host to this machine, on port 443.
            """
    }
}
