/// The served directory, opened once per load, and the resolution of
/// symlinks inside it.
///
/// The kernel never resolves a path below the root: each step opens one name
/// relative to an open directory with `O_NOFOLLOW`. A symlink is read and
/// its destination walked the same way from the directory that holds it
/// (`..` pops the walk, never the kernel), so an alias to a sibling
/// (`staging.brand.example -> brand.example`) and a Kubernetes ConfigMap
/// volume (`brand.example -> ..data/brand.example`, `..data -> ..2026_…`)
/// work, while a destination that leaves the root, even one swapped in
/// between two calls, is refused before anything outside is opened.
struct ServedRoot {
    let directory: any DirectoryHandle
    /// Absolute spellings of the root (as configured and canonical): an
    /// absolute symlink into one of them is followed as a relative one.
    let absolutePaths: [String]

    /// Links followed in one resolution before it counts as a loop.
    static let maximumLinks = 32
    /// Times one name is looked at again when it changes type between the
    /// look and the open (a directory swapped for a symlink).
    static let maximumRetries = 3

    /// What a name resolved to; for a directory, where it ended inside the
    /// root (a file's place is never asked for, and an array per file
    /// opened was an allocation per host and load).
    enum Resolved {
        case directory(any DirectoryHandle, location: [String])
        case file(any OpenFile)
        /// What the file is, without opening it.
        case status(FileStatus)
    }

    enum Expected {
        case directory
        case file
        /// A file's status only: a poll learns a file is unchanged without
        /// opening it.
        case fileStatus
        /// A regular file, opened; anything else comes back as its status,
        /// unopened (a load never opens a FIFO or a device). For a file
        /// that will be read anyway: one lookup instead of two.
        case regularFile
    }

    /// Opens `name` of `parent` (which sits at `location` inside the root),
    /// following symlinks inside the root. Errors carry the path of `name`
    /// as seen in the directory, wherever its links led.
    ///
    /// - Parameter status: what `name` was a moment ago, when the caller has
    ///   just looked (the scan of the root looks at every entry): the first
    ///   step then does not look again. An entry that changed since fails
    ///   to open as what it was and is looked at again, as in any race.
    func open(
        _ name: String,
        in parent: any DirectoryHandle,
        at location: [String],
        expecting expected: Expected,
        status: FileStatus? = nil
    ) throws(FileSystemError) -> Resolved {
        do {
            return try resolve(name, in: parent, at: location, expecting: expected, status: status)
        } catch {
            // The path shown is built only for an error: a load opens
            // several names per host, and nearly all of them succeed.
            throw FileSystemError(path: (location + [name]).joined(separator: "/"), code: error.code)
        }
    }

    /// Its errors carry `name` only; ``open(_:in:at:expecting:)`` gives them
    /// the path shown.
    private func resolve(
        _ name: String,
        in parent: any DirectoryHandle,
        at location: [String],
        expecting expected: Expected,
        status known: FileStatus?
    ) throws(FileSystemError) -> Resolved {
        var walk = Walk(directory: parent, location: location)
        // For `name` itself, and once: a retry or a link's parts look again.
        var known = known
        // The parts still to walk: `name` first, then what links add.
        // `name` is kept apart so the usual walk (one name, no link) fills
        // no array.
        var first: String? = name
        var pending: [String] = []
        var links = 0
        var retries = 0
        while let part = first ?? pending.first {
            if first != nil { first = nil } else { pending.removeFirst() }
            if part.isEmpty || part == "." { continue }
            if part == ".." {
                guard !walk.location.isEmpty else { throw Self.leaves(name, walk.lastDestination) }
                walk.location.removeLast()
                walk.directory = try reopen(walk.location)
                continue
            }
            let isLast = pending.allSatisfy { $0.isEmpty || $0 == "." }
            let status: FileStatus
            if let looked = known, part == name, links == 0, retries == 0 {
                status = looked
            } else {
                status = try walk.directory.status(of: part)
            }
            known = nil
            switch status.kind {
            case .symbolicLink:
                links += 1
                guard links <= Self.maximumLinks else { throw FileSystemError(path: name, code: .tooManyLinks) }
                let destination = try walk.directory.destination(ofLink: part)
                walk.lastDestination = destination
                var relative = Substring(destination)
                if destination.hasPrefix("/") {
                    guard let inside = insideRoot(destination) else { throw Self.leaves(name, destination) }
                    relative = inside
                    walk.location = []
                    walk.directory = directory
                }
                pending = relative.split(separator: "/").map(String.init) + pending
            case .directory:
                if isLast, expected != .directory {
                    throw FileSystemError(path: name, code: .notARegularFile(.directory))
                }
                let opened: any DirectoryHandle
                do {
                    opened = try walk.directory.openDirectory(part)
                } catch {
                    guard Self.changedType(error), retries < Self.maximumRetries else { throw error }
                    retries += 1
                    pending.insert(part, at: 0)
                    continue
                }
                walk.directory = opened
                walk.location.append(part)
                if isLast { return .directory(opened, location: walk.location) }
            case .regular, .special:
                guard isLast, expected != .directory else {
                    throw FileSystemError(path: name, code: .notADirectory)
                }
                if expected == .fileStatus || (expected == .regularFile && status.kind != .regular) {
                    return .status(status)
                }
                do {
                    return .file(try walk.directory.openFile(part))
                } catch {
                    guard Self.changedType(error), retries < Self.maximumRetries else { throw error }
                    retries += 1
                    pending.insert(part, at: 0)
                }
            }
        }
        // The destination ended on a directory already open (`x -> .`, `x -> ..`).
        guard expected == .directory else { throw FileSystemError(path: name, code: .notARegularFile(.directory)) }
        return .directory(walk.directory, location: walk.location)
    }

    /// The current position of a walk.
    private struct Walk {
        var directory: any DirectoryHandle
        var location: [String]
        var lastDestination: String?
    }

    /// Opens the directory at `location` again from the root, one real
    /// directory at a time.
    private func reopen(_ location: [String]) throws(FileSystemError) -> any DirectoryHandle {
        var current = directory
        for part in location {
            current = try current.openDirectory(part)
        }
        return current
    }

    /// The part of an absolute destination below the root, if it is below it.
    private func insideRoot(_ destination: String) -> Substring? {
        for root in absolutePaths {
            let base = root.hasSuffix("/") ? String(root.dropLast()) : root
            if destination == base { return "" }
            if destination.hasPrefix(base + "/") { return destination.dropFirst(base.count + 1) }
        }
        return nil
    }

    /// An open that failed because the entry is no longer what it was a
    /// moment ago (a directory or file swapped for a symlink): `O_NOFOLLOW`
    /// reports `ELOOP`, or `ENOTDIR` together with `O_DIRECTORY` on Linux.
    private static func changedType(_ error: FileSystemError) -> Bool {
        error.code == .symbolicLink || error.code == .notADirectory
    }

    private static func leaves(_ shown: String, _ destination: String?) -> FileSystemError {
        FileSystemError(
            path: shown,
            code: .leavesServedDirectory(destination: LoadIssue.printable(destination ?? ".."))
        )
    }
}
