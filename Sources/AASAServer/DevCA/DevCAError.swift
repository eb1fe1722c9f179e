/// Why `aasa dev-cert` or `aasa dev` cannot set up certificates; each case
/// names the path concerned. All of them are bad input (exit 2).
public enum DevCAError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A CA file exists but cannot be read.
    case unreadable(path: String, reason: String)
    /// A CA file was read but cannot be used (not PEM, key not matching, expired).
    case invalid(path: String, problem: String)
    /// Only one of the CA certificate and key exists: neither is replaced,
    /// so a CA a phone already trusts is never lost by accident.
    case incomplete(present: String, missing: String)
    case cannotWrite(path: String, reason: String)
    /// The CA directory is inside the served directory (where a `git add`
    /// or a sync would publish the CA key).
    case insideServedDirectory(caDirectory: String, servedDirectory: String)
    /// A host named on the command line has no directory in the served directory.
    case noHostDirectory(host: String, directory: String, suggestion: String?)
    /// The host is a symlinked alias; its certificate is its target's.
    case aliasHost(host: String, target: String)
    /// The host already has a certificate this CA did not issue.
    case foreignCertificate(path: String, issuer: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "\(path): cannot read: \(reason)"
        case .invalid(let path, let problem):
            "\(path): \(problem); move the CA directory away to make a new CA (the phone must then trust the new one)"
        case .incomplete(let present, let missing):
            "\(present) exists but \(missing) does not; restore it, or move both away to make a new CA"
        case .cannotWrite(let path, let reason):
            "\(path): cannot write: \(reason)"
        case .insideServedDirectory(let ca, let served):
            "the CA directory \(ca) is inside the served directory \(served); keep the CA key outside it (--ca-dir)"
        case .noHostDirectory(let host, let directory, let suggestion):
            "\(directory) has no directory \(host)"
                + (suggestion.map { "; did you mean \($0)?" } ?? "; create it with the host's files first")
        case .aliasHost(let host, let target):
            "\(host) is an alias of \(target) (a symlink); its name goes into \(target)'s certificate: name \(target)"
        case .foreignCertificate(let path, let issuer):
            "\(path) was issued by \(issuer), not by the development CA; pass --force to replace it"
        }
    }
}
