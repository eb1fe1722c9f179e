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
    /// validated.
    static func expand(_ paths: [String]) -> (targets: [ValidationTarget], problems: [InputError]) {
        var targets: [ValidationTarget] = []
        var problems: [InputError] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                problems.append(InputError("\(path): no such file or directory"))
                continue
            }
            guard isDirectory.boolValue else {
                targets.append(ValidationTarget(file: path))
                continue
            }
            let found = filesUnder(directory: path)
            if found.isEmpty {
                problems.append(
                    InputError("\(path): no \(associationFileName) or \(assetLinksFileName) under the directory")
                )
            }
            targets += found
        }
        return (targets, problems)
    }

    private static func filesUnder(directory: String) -> [ValidationTarget] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        var found: [ValidationTarget] = []
        while let relative = enumerator.nextObject() as? String {
            switch (relative as NSString).lastPathComponent {
            case associationFileName:
                found.append(ValidationTarget(path: prefix + relative, kind: .appleAppSiteAssociation))
            case assetLinksFileName: found.append(ValidationTarget(path: prefix + relative, kind: .assetLinks))
            default: continue
            }
        }
        return found.sorted { $0.path < $1.path }
    }
}
