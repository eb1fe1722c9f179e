import AASAServer

/// What `aasa dev` prints once both ports listen: per host the URLs to try
/// and the entitlement line, the addresses the phone can use, then the
/// phone's steps. The last line says it is ready (scripts and tests wait
/// for it).
struct DevInstructions {
    let hosts: [SiteDirectoryHost]
    let httpPort: Int
    let httpsPort: Int
    let caDirectory: DevCADirectory
    let addresses: [LANAddresses.Address]

    static let readyLine = "aasa dev: ready"

    var text: String {
        var lines = [
            "", "Hosts (files are watched: edits are served within a second; a new host gets its certificate):",
        ]
        if hosts.isEmpty {
            lines.append("  none yet: add <dir>/<host>/apple-app-site-association")
        }
        for host in hosts {
            lines.append("  \(host.names.joined(separator: ", "))")
            for name in host.names {
                // A wildcard directory serves every name under it: show one.
                let example = name.hasPrefix("*.") ? "www" + name.dropFirst() : name
                lines.append("    https://\(example):\(httpsPort)/.well-known/apple-app-site-association")
                lines.append("    http://\(example):\(httpPort)/.well-known/apple-app-site-association")
                lines.append("    entitlement: applinks:\(name)?mode=developer")
            }
            if let name = host.names.first.map({ $0.hasPrefix("*.") ? "www" + $0.dropFirst() : $0 }) {
                lines.append(
                    "    from this machine: curl --cacert \(caDirectory.certificatePath) "
                        + "--resolve \(name):\(httpsPort):127.0.0.1 "
                        + "https://\(name):\(httpsPort)/.well-known/apple-app-site-association"
                )
            }
        }
        lines.append("")
        if addresses.isEmpty {
            lines.append("No network address found: connect this machine to the phone's network.")
        } else {
            lines.append("This machine on the network (point the hosts' names here, docs/DEVICE-TESTING.md):")
            for address in addresses {
                lines.append("  \(address.ip)  (\(address.interface))")
            }
        }
        lines.append(
            "iOS fetches https://<host>/.well-known/apple-app-site-association on port 443: "
                + (httpsPort == 443
                    ? "this HTTPS port."
                    : "run with --tls-port 443 or forward 443 to \(httpsPort) (docs/DEVICE-TESTING.md).")
        )
        lines.append("")
        lines.append("On the phone, once:")
        lines.append("  install \(caDirectory.profilePath) (AirDrop or mail it), then")
        lines.append("  Settings > General > VPN & Device Management: install the profile;")
        lines.append("  Settings > General > About > Certificate Trust Settings: enable full trust for it;")
        lines.append("  Settings > Developer > Associated Domains Development: on.")
        lines.append("")
        lines.append("\(Self.readyLine): http port \(httpPort), https port \(httpsPort). Ctrl-C stops.")
        return lines.joined(separator: "\n")
    }
}
