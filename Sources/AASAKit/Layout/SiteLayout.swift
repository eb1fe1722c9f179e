/// Where things live in a directory laid out for `aasa serve`:
///
/// ```
/// aasa/
///   brand.example/apple-app-site-association
///   brand.example/assetlinks.json            (optional)
///   brand.example/tls/cert.pem, tls/key.pem  (optional: the host's certificate)
///   *.brand.example/…                        (every subdomain without its own)
///   staging.brand.example -> brand.example   (a symlinked sibling is an alias)
///   README.md, .git/                         (files and hidden entries are not hosts)
/// ```
public enum SiteLayout {
    /// A host's own TLS certificate directory, chosen by SNI.
    public static let tlsDirectoryName = "tls"
    /// The PEM certificate chain (leaf first) in the `tls` directory.
    public static let certificateFileName = "cert.pem"
    /// The PEM private key in the `tls` directory.
    public static let keyFileName = "key.pem"

    /// Entries starting with a dot (`.git`, a ConfigMap's `..data`) are never
    /// hosts themselves; a host may still link into them.
    public static func isHidden(_ entryName: String) -> Bool {
        entryName.hasPrefix(".")
    }

    /// `<directory>/<host>/<file>`.
    public static func path(of file: SiteFile, host: String, in directory: String) -> String {
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return base + "/" + host + "/" + file.fileName
    }
}
