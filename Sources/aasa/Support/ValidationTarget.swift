import AASAKit
import Foundation

/// A file `aasa validate` checks, and which validator applies to it.
struct ValidationTarget: Hashable, Sendable {
    enum Kind: Sendable {
        case appleAppSiteAssociation
        case assetLinks
    }

    /// The path as shown to the user: as given, or the directory given
    /// joined with the path found under it.
    var path: String
    var kind: Kind

    /// A file named on the command line: `assetlinks.json` by name, anything
    /// else is taken for an association file (they are served without an
    /// extension, and people keep copies under other names).
    init(file path: String) {
        self.path = path
        self.kind = Self.isAssetLinks(path) ? .assetLinks : .appleAppSiteAssociation
    }

    private init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }

    static let associationFileName = SiteFile.appleAppSiteAssociation.fileName
    static let assetLinksFileName = SiteFile.assetLinks.fileName

    private static func isAssetLinks(_ path: String) -> Bool {
        (path as NSString).lastPathComponent == assetLinksFileName
    }

    /// Expands command-line paths: a file stands for itself; a directory is
    /// walked (hidden directories such as `.well-known` included) for every
    /// `apple-app-site-association` and `assetlinks.json`, the layout
    /// `aasa serve` reads (`aasa/<host>/apple-app-site-association`).
    ///
    /// Paths that do not exist, and directories holding neither file, are
    /// returned as problems rather than thrown, so the other paths are still
    /// validated. Files in a directory whose names are near misses of the
    /// two (`apple-app-site-association.json`, `assetlinks.JSON`) are
    /// returned as `misnamed`: they would be served by no one.
    static func expand(
        _ paths: [String]
    ) -> (targets: [ValidationTarget], problems: [InputError], misnamed: [String]) {
        var targets: [ValidationTarget] = []
        var problems: [InputError] = []
        var misnamed: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                problems.append(InputError(path: path, "no such file or directory"))
                continue
            }
            guard isDirectory.boolValue else {
                targets.append(ValidationTarget(file: path))
                continue
            }
            let found = filesUnder(directory: path)
            if found.targets.isEmpty {
                var message = "no \(associationFileName) or \(assetLinksFileName) under the directory"
                if let first = found.misnamed.first { message += " (\(first) is not named exactly so)" }
                problems.append(InputError(path: path, message))
            }
            targets += found.targets
            misnamed += found.misnamed
        }
        return (targets, problems, misnamed)
    }

    private static func filesUnder(directory: String) -> (targets: [ValidationTarget], misnamed: [String]) {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return ([], []) }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        var found: [ValidationTarget] = []
        var misnamed: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            switch name {
            case associationFileName:
                found.append(ValidationTarget(path: prefix + relative, kind: .appleAppSiteAssociation))
            case assetLinksFileName: found.append(ValidationTarget(path: prefix + relative, kind: .assetLinks))
            default:
                if servedName(nearlyMatching: name) != nil { misnamed.append(prefix + relative) }
            }
        }
        return (found.sorted { $0.path < $1.path }, misnamed.sorted())
    }

    /// The served file name that `name` misses by case, an extension or an
    /// underscore (`Apple-App-Site-Association`, `apple-app-site-association.json`,
    /// `assetlinks.JSON`, `assetlinks`), or `nil`.
    static func servedName(nearlyMatching name: String) -> String? {
        var stem = name.lowercased().replacingOccurrences(of: "_", with: "-")
        for suffix in [".txt", ".json"] where stem.hasSuffix(suffix) {
            stem.removeLast(suffix.count)
        }
        switch stem {
        case associationFileName where name != associationFileName: return associationFileName
        case "assetlinks" where name != assetLinksFileName: return assetLinksFileName
        default: return nil
        }
    }
}
