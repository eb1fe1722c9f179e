import Foundation

/// Keeps absolute paths out of what the admin port shows: paths under the
/// served directory become relative to it (`a.example/apple-app-site-association`),
/// any other absolute path of an existing file or directory (a symlink's
/// target, say) is cut to its last component (`…/secret`). URL paths quoted
/// in validation messages (`"/buy/*"`) name nothing on disk and stay.
/// `/status` needs no path to be useful, and a path tells an attacker
/// where things are.
struct PathRedactor: Sendable {
    /// The served directory as configured and as resolved (symlinks,
    /// relative paths), each with a trailing `/`, longest first.
    private let roots: [String]

    init(root: String) {
        let absolute = URL(fileURLWithPath: root).standardizedFileURL.path
        let resolved = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        roots = Set([absolute, resolved].map { $0.hasSuffix("/") ? $0 : $0 + "/" })
            .sorted { $0.count > $1.count }
    }

    func redact(_ text: String) -> String {
        var text = text
        for root in roots {
            text = text.replacingOccurrences(of: root, with: "")
        }
        // What is left starting with `/` at a word boundary is a path outside.
        var output = ""
        var rest = Substring(text)
        while let slash = rest.firstIndex(of: "/") {
            let atBoundary = slash == rest.startIndex || " (\"'=\t".contains(rest[rest.index(before: slash)])
            guard atBoundary else {
                output += rest[...slash]
                rest = rest[rest.index(after: slash)...]
                continue
            }
            output += rest[..<slash]
            let end = rest[slash...].firstIndex { " ,;:)\"'\t\n".contains($0) } ?? rest.endIndex
            let path = rest[slash..<end]
            let components = path.split(separator: "/")
            if components.count >= 2, FileManager.default.fileExists(atPath: String(path)) {
                output += "…/" + (components.last ?? "")
            } else {
                output += path
            }
            rest = rest[end...]
        }
        return output + rest
    }
}
