import NIOCore

/// `--resolve DOMAIN:PORT:ADDRESS`, as curl reads it: requests to `DOMAIN`
/// on `PORT` connect to `ADDRESS` instead of what DNS says. Only the
/// connection moves; the `Host` header, the SNI name and the certificate
/// check still use `DOMAIN`, so the check is of the domain, on another server.
public struct ResolveOverride: Sendable, Hashable, CustomStringConvertible {
    /// The domain, lowercased.
    public var domain: String
    public var port: Int
    /// An IP address (IPv6 without brackets) or a host name.
    public var address: String

    public init(domain: String, port: Int, address: String) {
        self.domain = domain.lowercased()
        self.port = port
        self.address = address
    }

    /// Parses `example.com:443:127.0.0.1` or `example.com:443:[::1]`.
    public init(parsing argument: String) throws(ResolveOverrideError) {
        let parts = argument.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw ResolveOverrideError(argument: argument, problem: "expected DOMAIN:PORT:ADDRESS")
        }
        let domain = String(parts[0])
        guard !domain.isEmpty, !domain.contains("/"), !domain.contains("*") else {
            throw ResolveOverrideError(argument: argument, problem: "\"\(domain)\" is not a domain name")
        }
        guard let port = Int(parts[1]), (1...65_535).contains(port) else {
            throw ResolveOverrideError(argument: argument, problem: "\"\(parts[1])\" is not a port (1-65535)")
        }
        var address = String(parts[2])
        if address.hasPrefix("[") && address.hasSuffix("]") {
            address = String(address.dropFirst().dropLast())
        }
        guard (try? SocketAddress(ipAddress: address, port: port)) != nil else {
            throw ResolveOverrideError(
                argument: argument,
                problem: "\"\(parts[2])\" is not an IP address (IPv6 in brackets: [::1])"
            )
        }
        self.init(domain: domain, port: port, address: address)
    }

    /// Whether a request to `host` on `port` is redirected.
    public func applies(host: String, port: Int) -> Bool {
        host.lowercased() == domain && port == self.port
    }

    /// `example.com:443:127.0.0.1`.
    public var description: String {
        let shown = address.contains(":") ? "[\(address)]" : address
        return "\(domain):\(port):\(shown)"
    }
}

/// A `--resolve` argument that is not `DOMAIN:PORT:ADDRESS`.
public struct ResolveOverrideError: Error, Sendable, Hashable, CustomStringConvertible {
    public var argument: String
    public var problem: String

    public var description: String { "--resolve \(argument): \(problem)" }
}
