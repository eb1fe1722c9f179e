import AASAKit
import Foundation

/// Turns the bytes of one file version into a ``ServedFile`` or the issues
/// that keep it from being served. Pure and `Sendable`: nothing here touches
/// the disk or the previous load, so files can be validated in any order or
/// in parallel.
struct FileValidator: Sendable {
    let aasa: AASAValidator
    let assetLinks: AssetLinksValidator
    let cacheControl: String

    /// One file version to validate, as read.
    struct Candidate: Sendable {
        let kind: SiteFile
        let host: String
        /// Relative to the served directory: `brand.example/apple-app-site-association`.
        let path: String
        let contents: FileReader.Contents
        let stamp: FileStamp
        /// Whether a previous good version stays served if this one fails.
        let hasPrevious: Bool
    }

    enum Verdict: Sendable {
        case accepted(ServedFile, warnings: [LoadIssue])
        case rejected([LoadIssue])
    }

    /// - Parameter gzip: the load's compressors, shared by its threads.
    func validate(_ candidate: Candidate, gzip: GzipPool) -> Verdict {
        let kept = LoadIssue.kept(previous: candidate.hasPrevious)
        let bytes: [UInt8]
        switch candidate.contents {
        case .tooLarge(let size):
            // Reported from the file's real size: the bytes read stop one past the cap.
            let diagnostic = AASAValidator.tooLarge(byteCount: size)
            return .rejected([Self.issue(diagnostic, candidate, kept: kept)])
        case .complete(let read):
            bytes = read
        }
        let report =
            switch candidate.kind {
            case .appleAppSiteAssociation: aasa.validate(bytes: bytes, file: candidate.path)
            case .assetLinks: assetLinks.validate(bytes: bytes, file: candidate.path)
            }
        let errors = report.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty else {
            return .rejected(errors.map { Self.issue($0, candidate, kept: kept) })
        }
        let warnings = report.diagnostics.filter { $0.severity == .warning }
        let file = ServedFile(
            kind: candidate.kind,
            host: candidate.host,
            contents: bytes,
            stamp: candidate.stamp,
            lastModified: Date(timeIntervalSince1970: Double(candidate.stamp.modifiedNanoseconds) / 1e9),
            appIDs: report.document.map(Self.appIDs) ?? report.json.map(Self.packageNames) ?? [],
            warnings: warnings.map { "\($0.path): \($0.message)" },
            cacheControl: cacheControl,
            gzip: gzip
        )
        let issues = warnings.map { warning in
            LoadIssue(
                host: candidate.host,
                path: candidate.path,
                code: .servedWithWarning(diagnostic: warning.code),
                message: "\(warning.path): \(warning.message)"
            )
        }
        return .accepted(file, warnings: issues)
    }

    private static func issue(_ diagnostic: Diagnostic, _ candidate: Candidate, kept: String) -> LoadIssue {
        LoadIssue(
            host: candidate.host,
            path: candidate.path,
            code: .invalidFile(diagnostic: diagnostic.code),
            message: "\(diagnostic.path): \(diagnostic.message) [\(diagnostic.code)]; \(kept)"
        )
    }

    /// App IDs an association file lists (applinks, then other services), for `/status`.
    /// One pass and one set, the first listing of each ID kept: this runs
    /// for every file a load accepts.
    private static func appIDs(_ document: AASAFile) -> [String] {
        var seen = Set<String>()
        var ids: [String] = []
        for detail in document.appLinks?.details ?? [] {
            for id in detail.appIDs where seen.insert(id).inserted { ids.append(id) }
        }
        for service in [document.webCredentials, document.appClips, document.activityContinuation] {
            for id in service ?? [] where seen.insert(id).inserted { ids.append(id) }
        }
        return ids
    }

    /// Android package names of an assetlinks.json, for `/status`.
    private static func packageNames(_ json: JSONValue) -> [String] {
        (json.arrayValue ?? []).compactMap { $0["target"]?["package_name"]?.stringValue }
    }
}
