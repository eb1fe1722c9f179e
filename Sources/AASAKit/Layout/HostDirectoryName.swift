/// The name of a host directory in the served layout: a host name
/// (`brand.example`, normalised to lowercase) or a wildcard `*.` followed by
/// a name of at least two labels (`*.brand.example`), which serves every
/// subdomain that has no directory of its own.
public struct HostDirectoryName: Sendable, Hashable, CustomStringConvertible {
    /// The normalised name: `brand.example` or `*.brand.example`.
    public let name: String

    public var description: String { name }

    /// Parses a directory name; nil for anything else (`README.md` is a file,
    /// but `not a host`, `-bad.example`, `*.example` or `a:8080` are not names).
    public init?(_ directoryName: String) {
        if directoryName.hasPrefix(Self.wildcardPrefix) {
            guard let suffix = HostName(name: String(directoryName.dropFirst(2))), suffix.value.contains(".") else {
                return nil
            }
            name = Self.wildcardPrefix + suffix.value
        } else {
            guard let host = HostName(name: directoryName) else { return nil }
            name = host.value
        }
    }

    /// For a wildcard, the suffix it covers: `brand.example` for
    /// `*.brand.example`; nil for a plain host.
    public var wildcardSuffix: String? {
        name.hasPrefix(Self.wildcardPrefix) ? String(name.dropFirst(2)) : nil
    }

    static let wildcardPrefix = "*."
}
