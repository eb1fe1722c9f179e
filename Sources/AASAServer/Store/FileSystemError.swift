/// A file-system operation of the loader that failed: the path (relative to
/// the served directory below it) and a code callers switch on.
public struct FileSystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why it failed.
    public enum Code: Sendable, Hashable {
        case notFound
        case permissionDenied
        case notADirectory
        /// An entry that was a file or directory a moment ago is a symlink
        /// now: it was swapped while the directory was read.
        case symbolicLink
        /// More symlinks than ``ServedRoot/maximumLinks`` in a row: a loop.
        case tooManyLinks
        /// A symlink pointing outside the served directory.
        case leavesServedDirectory(destination: String)
        /// A FIFO, socket, device or directory where a file was expected.
        case notARegularFile(EntryKind)
        /// A file rewritten in place on every one of these read attempts.
        case changedWhileReading(attempts: Int)
        /// Any other system error: its number and the system's text.
        case system(errno: Int32, reason: String)
    }

    public var path: String
    public var code: Code

    public init(path: String, code: Code) {
        self.path = path
        self.code = code
    }

    /// The reason alone, without the path.
    public var reason: String {
        switch code {
        case .notFound: "No such file or directory"
        case .permissionDenied: "Permission denied"
        case .notADirectory: "Not a directory"
        case .symbolicLink: "became a symbolic link while it was read; it is read again on the next load"
        case .tooManyLinks: "too many levels of symbolic links (a loop)"
        case .leavesServedDirectory(let destination):
            "symlink to \(destination) leaves the served directory"
        case .notARegularFile(let kind): "not a regular file (\(kind))"
        case .changedWhileReading(let attempts):
            "the file changed while it was being read (\(attempts) attempts); it is read again on the next load"
        case .system(_, let reason): reason
        }
    }

    public var description: String { "\(path): \(reason)" }
}
