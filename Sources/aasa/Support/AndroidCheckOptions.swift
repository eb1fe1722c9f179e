import AASAChecks
import AASAKit
import ArgumentParser

/// The options of `aasa check` about Android's `assetlinks.json`.
struct AndroidCheckOptions: ParsableArguments {
    @Flag(
        name: .customLong("assetlinks"),
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Require /.well-known/assetlinks.json on every host (--no-assetlinks: do not fetch it). By default a host without it is a warning."
        )
    )
    var required: Bool?

    @Option(
        name: .customLong("package"),
        help: ArgumentHelp(
            "Fail unless every host grants this Android package handle_all_urls (repeatable).",
            valueName: "name"
        )
    )
    var packages: [String] = []

    @Option(
        name: .customLong("fingerprint"),
        help: ArgumentHelp(
            "Fail unless this SHA-256 signing-certificate fingerprint (AA:BB:…) is listed for every --package, or for some app without --package (repeatable).",
            valueName: "sha256"
        )
    )
    var fingerprints: [String] = []

    /// The expectations, and notes about fingerprints read in another
    /// spelling than Google's (printed on stderr, so JSON output stays JSON).
    func expectations() throws(InputError) -> (expectations: AndroidExpectations, notes: [String]) {
        if required == false, !packages.isEmpty || !fingerprints.isEmpty {
            throw InputError("--no-assetlinks skips the Android checks that --package and --fingerprint need")
        }
        for package in packages where !AndroidPackageName.isValid(package) {
            throw InputError(
                "--package \(package): not an Android package name (two or more parts separated by \".\", each a letter followed by letters, digits or \"_\", e.g. com.example.app)"
            )
        }
        var canonical: [String] = []
        var notes: [String] = []
        for fingerprint in fingerprints {
            guard let spelled = CertificateFingerprint.canonical(fingerprint) else {
                throw InputError(
                    "--fingerprint \(fingerprint): not a SHA-256 fingerprint (32 bytes as two hex digits each, separated by colons, as `keytool -list -v` prints it)"
                )
            }
            if spelled != fingerprint {
                notes.append(
                    "note: --fingerprint \(fingerprint) read as \(spelled), the uppercase spelling assetlinks.json must use"
                )
            }
            if !canonical.contains(spelled) { canonical.append(spelled) }
        }
        let presence: AndroidExpectations.Presence =
            switch required {
            case true?: .required
            case false?: .notChecked
            case nil: .optional
            }
        return (AndroidExpectations(presence: presence, packages: packages, fingerprints: canonical), notes)
    }
}
