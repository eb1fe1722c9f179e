import Foundation
import NIOConcurrencyHelpers

@testable import AASAServer

/// An in-memory file system behind the loader's seam. Nodes are objects, so
/// an open handle keeps the node it opened (as a descriptor keeps its inode)
/// while the test renames, removes or swaps names around it; hooks run a
/// change at an exact point of a load (before an open, after a read), which
/// a real disk only offers by chance.
final class FakeFileSystem: FileSystem, @unchecked Sendable {
    // @unchecked: every access to the tree goes through `lock`.
    final class Node {
        enum Content {
            case directory([String: Node])
            case file([UInt8])
            case symlink(String)
            case special(String)
        }

        var content: Content
        let inode: UInt64
        var version: Int64 = 1
        /// `r` on a directory: may be listed and opened.
        var readable = true
        /// `x` on a directory: names inside may be looked up.
        var searchable = true

        init(_ content: Content, inode: UInt64) {
            self.content = content
            self.inode = inode
        }
    }

    /// A point of the load where a hook runs.
    enum Event: Equatable {
        case openDirectory(String)
        case openFile(String)
        case read(String)
    }

    let rootPath = "/srv/aasa"
    private let lock = NIOLock()
    private var nextInode: UInt64 = 2
    private let root: Node
    private var hook: ((Event) -> Void)?
    private var events: [Event] = []

    init() {
        root = Node(.directory([:]), inode: 1)
    }

    // MARK: Building the tree (paths relative to the root)

    /// Writes a file, creating its directories; an existing file is
    /// rewritten in place (same inode, new version).
    func write(_ path: String, _ contents: String) {
        write(path, Array(contents.utf8))
    }

    func write(_ path: String, _ bytes: [UInt8]) {
        lock.withLock {
            let (parent, name) = parentNode(path, creating: true)
            if let existing = children(parent)[name], case .file = existing.content {
                existing.content = .file(bytes)
                existing.version += 1
            } else {
                setChild(parent, name, makeNode(.file(bytes)))
            }
        }
    }

    func makeDirectory(_ path: String) {
        lock.withLock {
            let (parent, name) = parentNode(path, creating: true)
            if children(parent)[name] == nil { setChild(parent, name, makeNode(.directory([:]))) }
        }
    }

    func symlink(_ path: String, to destination: String) {
        lock.withLock {
            let (parent, name) = parentNode(path, creating: true)
            setChild(parent, name, makeNode(.symlink(destination)))
        }
    }

    func special(_ path: String, kind: String) {
        lock.withLock {
            let (parent, name) = parentNode(path, creating: true)
            setChild(parent, name, makeNode(.special(kind)))
        }
    }

    /// Removes a name (and everything below it).
    func remove(_ path: String) {
        lock.withLock {
            let (parent, name) = parentNode(path, creating: false)
            guard case .directory(var entries) = parent.content else { return }
            entries[name] = nil
            parent.content = .directory(entries)
        }
    }

    /// Moves a node to another name, as `rename(2)` does.
    func rename(_ from: String, to: String) {
        lock.withLock {
            let (source, name) = parentNode(from, creating: false)
            guard let node = children(source)[name] else { return }
            guard case .directory(var entries) = source.content else { return }
            entries[name] = nil
            source.content = .directory(entries)
            let (target, newName) = parentNode(to, creating: true)
            setChild(target, newName, node)
        }
    }

    /// Sets a directory's `r` and `x` permissions (`nil`: the root).
    func setPermissions(_ path: String?, readable: Bool = true, searchable: Bool = true) {
        lock.withLock {
            let node = path.map { parentNode($0, creating: false) }.flatMap { children($0.0)[$0.1] } ?? root
            node.readable = readable
            node.searchable = searchable
        }
    }

    /// Runs `hook` at every event (outside the lock, so it can change the tree).
    func onEvent(_ hook: @escaping (Event) -> Void) {
        lock.withLock { self.hook = hook }
    }

    /// Every event so far, in order.
    var recordedEvents: [Event] {
        lock.withLock { events }
    }

    // MARK: FileSystem

    func openDirectory(atPath path: String) throws(FileSystemError) -> any DirectoryHandle {
        guard path == rootPath else { throw FileSystemError(path: path, code: .notFound) }
        guard lock.withLock({ root.readable }) else { throw FileSystemError(path: path, code: .permissionDenied) }
        return FakeDirectory(fileSystem: self, node: root, path: path, prefix: "")
    }

    func openFile(atPath path: String) throws(FileSystemError) -> any OpenFile {
        throw FileSystemError(path: path, code: .notFound)
    }

    func canonicalPath(_ path: String) -> String? {
        path == rootPath ? path : nil
    }

    // MARK: For the handles

    func event(_ event: Event) {
        let hook = lock.withLock {
            events.append(event)
            return self.hook
        }
        hook?(event)
    }

    func withLock<T>(_ body: () throws(FileSystemError) -> T) throws(FileSystemError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    func status(_ node: Node) -> FileStatus {
        let kind: EntryKind
        var size = 0
        switch node.content {
        case .directory: kind = .directory
        case .file(let bytes):
            kind = .regular
            size = bytes.count
        case .symlink(let destination):
            kind = .symbolicLink
            size = destination.utf8.count
        case .special(let name): kind = .special(name)
        }
        return FileStatus(
            kind: kind,
            stamp: FileStamp(
                device: 1,
                inode: node.inode,
                size: size,
                modifiedNanoseconds: node.version * 1_000_000_000,
                changedNanoseconds: node.version * 1_000_000_000
            )
        )
    }

    func children(_ node: Node) -> [String: Node] {
        if case .directory(let entries) = node.content { return entries }
        return [:]
    }

    // MARK: Private

    private func makeNode(_ content: Node.Content) -> Node {
        defer { nextInode += 1 }
        return Node(content, inode: nextInode)
    }

    private func setChild(_ parent: Node, _ name: String, _ node: Node) {
        guard case .directory(var entries) = parent.content else { return }
        entries[name] = node
        parent.content = .directory(entries)
    }

    /// The directory holding the last component of `path`, and that name.
    private func parentNode(_ path: String, creating: Bool) -> (Node, String) {
        var parts = path.split(separator: "/").map(String.init)
        let name = parts.removeLast()
        var node = root
        for part in parts {
            if let child = children(node)[part] {
                node = child
            } else if creating {
                let child = makeNode(.directory([:]))
                setChild(node, part, child)
                node = child
            }
        }
        return (node, name)
    }
}
