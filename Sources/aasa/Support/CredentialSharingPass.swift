import AASAKit
import Foundation

/// `aasa validate`'s one check that needs both files of a host: credential
/// sharing (`webcredentials` ↔ `get_login_creds`) set up for one platform
/// only. Each file is valid alone, so the per-file validators cannot see it.
enum CredentialSharingPass {
    /// Adds ``CredentialSharingLint``'s warnings to the reports of every
    /// `apple-app-site-association` and `assetlinks.json` that sit in the
    /// same directory (the layout `aasa serve` reads, one directory per
    /// host). `contents` holds the bytes read, by path; a file that is not
    /// JSON is skipped (its own report already fails).
    static func adding(to reports: [ValidationReport], contents: [String: [UInt8]]) -> [ValidationReport] {
        var byDirectory: [String: (association: String?, assetLinks: String?)] = [:]
        for path in contents.keys {
            let name = (path as NSString).lastPathComponent
            let directory = (path as NSString).deletingLastPathComponent
            if name == SiteFile.appleAppSiteAssociation.fileName {
                byDirectory[directory, default: (nil, nil)].association = path
            }
            if name == SiteFile.assetLinks.fileName { byDirectory[directory, default: (nil, nil)].assetLinks = path }
        }
        var added: [String: [Diagnostic]] = [:]
        for case let (associationPath?, assetLinksPath?) in byDirectory.values {
            guard let associationBytes = contents[associationPath], let assetLinksBytes = contents[assetLinksPath],
                let association = try? JSONParser().parse(associationBytes).value,
                let assetLinks = AssetLinksFile(bytes: assetLinksBytes)
            else { continue }
            let findings = CredentialSharingLint().diagnostics(
                assetLinks: assetLinks,
                assetLinksFile: assetLinksPath,
                association: AASAFile(json: association),
                associationFile: associationPath
            )
            for finding in findings {
                guard let file = finding.file, let bytes = contents[file] else { continue }
                let located = ValidationReport(file: file, diagnostics: [finding]).locating(in: bytes).diagnostics
                added[file, default: []] += located
            }
        }
        return reports.map { report in
            guard let file = report.file, let findings = added[file] else { return report }
            var report = report
            report.diagnostics += findings
            return report
        }
    }
}
