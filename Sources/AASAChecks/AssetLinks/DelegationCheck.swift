/// The `android.delegates` check: which apps the host delegates App Links
/// (and credential sharing) to, and whether the apps the user named are
/// among them with the signing certificates the user named.
///
/// A valid file that delegates to the wrong certificate (an upload key
/// instead of Play's app-signing key) is the failure this check exists for:
/// everything else about the host passes, and no App Link verifies.
struct DelegationCheck {
    let expectations: AndroidExpectations

    func check(_ delegations: [AndroidDelegation]) -> CheckResult {
        let appLinks = delegations.filter { $0.relation == "handle_all_urls" }
        let packages = Self.unique(appLinks.map(\.packageName))
        var problems: [String] = []
        for package in expectations.packages where !packages.contains(package) {
            let granted = packages.isEmpty ? "no app" : packages.joined(separator: ", ")
            problems.append("\(package) is not granted handle_all_urls (the host grants it to \(granted))")
        }
        let checked = expectations.packages.isEmpty ? packages : expectations.packages.filter(packages.contains)
        for fingerprint in expectations.fingerprints {
            let lacking = checked.filter { !fingerprints(of: $0, in: appLinks).contains(fingerprint) }
            if checked.isEmpty {
                problems.append("\(fingerprint) is listed for no app (no app is granted handle_all_urls)")
            } else if expectations.packages.isEmpty, lacking.count == checked.count {
                problems.append("\(fingerprint) is listed for no app granted handle_all_urls")
            } else if !expectations.packages.isEmpty {
                for package in lacking {
                    let listed = fingerprints(of: package, in: appLinks)
                    problems.append(
                        "\(fingerprint) is not listed for \(package) (listed: \(listed.joined(separator: ", ")))"
                    )
                }
            }
        }
        if !problems.isEmpty {
            return CheckResult("android.delegates", .fail, problems.joined(separator: "; "))
        }
        return CheckResult("android.delegates", .pass, Self.summary(delegations))
    }

    private func fingerprints(of package: String, in delegations: [AndroidDelegation]) -> [String] {
        Self.unique(delegations.filter { $0.packageName == package }.flatMap(\.fingerprints))
    }

    /// `handle_all_urls: com.example.app (2 certificates); get_login_creds: com.example.app (1 certificate)`.
    static func summary(_ delegations: [AndroidDelegation]) -> String {
        guard !delegations.isEmpty else { return "delegates nothing to an Android app" }
        return AndroidDelegation.reported.compactMap { _, relation in
            let granted = delegations.filter { $0.relation == relation }
            guard !granted.isEmpty else { return nil }
            let apps = unique(granted.map(\.packageName)).map { package in
                let count = unique(granted.filter { $0.packageName == package }.flatMap(\.fingerprints)).count
                return "\(package) (\(count) certificate\(count == 1 ? "" : "s"))"
            }
            return "\(relation): \(apps.joined(separator: ", "))"
        }.joined(separator: "; ")
    }

    static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}
