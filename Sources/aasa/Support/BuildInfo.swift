/// What `aasa --version` prints.
///
/// A build from a checkout says honestly that it is a development build.
/// `scripts/release.sh` rewrites the two constants below in its staged copy
/// of the sources (never in the working tree) with the version it builds and
/// the commit it builds from; keep each on one line in this form.
enum BuildInfo {
    static let version = "0.0.0-dev"
    static let commit = "unknown"

    /// `aasa 1.2.0 (commit 0123456789ab)`.
    static var versionLine: String { "aasa \(version) (commit \(commit))" }
}
