/// The file system as the loader sees it: the seam between the loader and
/// the operating system, so tests can stage what a real disk only does by
/// chance (a directory swapped for a symlink between two calls, a file
/// vanishing for an instant, a file rewritten while it is read, a directory
/// the server may not search) without root or timing.
///
/// Everything below the served directory is reached one name at a time from
/// an open directory, never by a path the kernel resolves: no call follows a
/// symlink, so nothing under the root can point the loader outside it. The
/// loader resolves links itself (``ServedRoot``).
protocol FileSystem: Sendable {
    /// Opens a directory named by the operator (the served directory); a
    /// symlink in that path is followed, it is configuration.
    func openDirectory(atPath path: String) throws(FileSystemError) -> any DirectoryHandle

    /// Opens a file named by the operator (the default TLS certificate); a
    /// symlink in that path is followed.
    func openFile(atPath path: String) throws(FileSystemError) -> any OpenFile

    /// `path` with every symlink resolved, if it exists: an absolute symlink
    /// below the served directory may name it either way.
    func canonicalPath(_ path: String) -> String?
}

/// An open directory. Closed when released.
protocol DirectoryHandle: AnyObject {
    /// The path shown in messages: relative to the served directory below
    /// it, the configured path for the root itself.
    var path: String { get }

    /// The names in the directory, without `.` and `..`, sorted.
    func entries() throws(FileSystemError) -> [String]

    /// What `name` is, without following it if it is a symlink.
    func status(of name: String) throws(FileSystemError) -> FileStatus

    /// Where the symlink `name` points, as written in the link.
    func destination(ofLink name: String) throws(FileSystemError) -> String

    /// Opens the subdirectory `name`; fails (``FileSystemError/Code/symbolicLink``)
    /// if it has become a symlink since it was looked at.
    func openDirectory(_ name: String) throws(FileSystemError) -> any DirectoryHandle

    /// Opens the file `name` for reading without blocking (a FIFO cannot
    /// stall the loader) and without following a symlink.
    func openFile(_ name: String) throws(FileSystemError) -> any OpenFile
}

/// A file open for reading. Closed when released.
protocol OpenFile: AnyObject {
    /// The path shown in messages.
    var path: String { get }

    /// What the open file is now (`fstat`): its type and stamp.
    func status() throws(FileSystemError) -> FileStatus

    /// Up to `count` bytes from the start of the file.
    func read(upTo count: Int) throws(FileSystemError) -> [UInt8]
}

/// The type of a directory entry and the stamp of its current version.
struct FileStatus: Sendable, Hashable {
    var kind: EntryKind
    var stamp: FileStamp

    init(kind: EntryKind, stamp: FileStamp) {
        self.kind = kind
        self.stamp = stamp
    }
}

/// What a directory entry is.
public enum EntryKind: Sendable, Hashable, CustomStringConvertible {
    case regular
    case directory
    case symbolicLink
    /// A FIFO, socket or device, by name.
    case special(String)

    public var description: String {
        switch self {
        case .regular: "regular file"
        case .directory: "directory"
        case .symbolicLink: "symbolic link"
        case .special(let kind): kind
        }
    }
}
