@testable import AASAServer

/// A directory open in a ``FakeFileSystem``: the node itself, whatever
/// happens to its name afterwards.
final class FakeDirectory: DirectoryHandle {
    let fileSystem: FakeFileSystem
    let node: FakeFileSystem.Node
    let path: String
    let prefix: String

    init(fileSystem: FakeFileSystem, node: FakeFileSystem.Node, path: String, prefix: String) {
        self.fileSystem = fileSystem
        self.node = node
        self.path = path
        self.prefix = prefix
    }

    func entries() throws(FileSystemError) -> [String] {
        try fileSystem.withLock { () throws(FileSystemError) -> [String] in
            guard node.readable else { throw FileSystemError(path: path, code: .permissionDenied) }
            return fileSystem.children(node).keys.sorted()
        }
    }

    func status(of name: String) throws(FileSystemError) -> FileStatus {
        try fileSystem.withLock { () throws(FileSystemError) -> FileStatus in
            if name == "." {
                guard node.searchable else { throw FileSystemError(path: path, code: .permissionDenied) }
                return fileSystem.status(node)
            }
            return fileSystem.status(try child(name))
        }
    }

    func destination(ofLink name: String) throws(FileSystemError) -> String {
        try fileSystem.withLock { () throws(FileSystemError) -> String in
            guard case .symlink(let destination) = try child(name).content else {
                throw FileSystemError(path: prefix + name, code: .system(errno: 22, reason: "Invalid argument"))
            }
            return destination
        }
    }

    func openDirectory(_ name: String) throws(FileSystemError) -> any DirectoryHandle {
        fileSystem.event(.openDirectory(prefix + name))
        return try fileSystem.withLock { () throws(FileSystemError) -> any DirectoryHandle in
            let child = try child(name)
            switch child.content {
            case .directory:
                guard child.readable else { throw FileSystemError(path: prefix + name, code: .permissionDenied) }
                return FakeDirectory(
                    fileSystem: fileSystem,
                    node: child,
                    path: prefix + name,
                    prefix: prefix + name + "/"
                )
            default:
                // A symlink too: Linux answers `O_NOFOLLOW | O_DIRECTORY` on one with ENOTDIR.
                throw FileSystemError(path: prefix + name, code: .notADirectory)
            }
        }
    }

    func openFile(_ name: String) throws(FileSystemError) -> any OpenFile {
        fileSystem.event(.openFile(prefix + name))
        return try fileSystem.withLock { () throws(FileSystemError) -> any OpenFile in
            let child = try child(name)
            if case .symlink = child.content { throw FileSystemError(path: prefix + name, code: .symbolicLink) }
            return FakeFile(fileSystem: fileSystem, node: child, path: prefix + name)
        }
    }

    /// Looks `name` up; called under the file system's lock.
    private func child(_ name: String) throws(FileSystemError) -> FakeFileSystem.Node {
        guard node.searchable else { throw FileSystemError(path: prefix + name, code: .permissionDenied) }
        guard let child = fileSystem.children(node)[name] else {
            throw FileSystemError(path: prefix + name, code: .notFound)
        }
        return child
    }
}

/// A file open in a ``FakeFileSystem``: reads see the node's current bytes,
/// as reads of a descriptor see a file rewritten in place.
final class FakeFile: OpenFile {
    let fileSystem: FakeFileSystem
    let node: FakeFileSystem.Node
    let path: String

    init(fileSystem: FakeFileSystem, node: FakeFileSystem.Node, path: String) {
        self.fileSystem = fileSystem
        self.node = node
        self.path = path
    }

    func status() throws(FileSystemError) -> FileStatus {
        try fileSystem.withLock { () throws(FileSystemError) -> FileStatus in fileSystem.status(node) }
    }

    func read(upTo count: Int) throws(FileSystemError) -> [UInt8] {
        let bytes = try fileSystem.withLock { () throws(FileSystemError) -> [UInt8] in
            guard case .file(let bytes) = node.content else {
                throw FileSystemError(path: path, code: .system(errno: 21, reason: "Is a directory"))
            }
            return Array(bytes.prefix(count))
        }
        fileSystem.event(.read(path))
        return bytes
    }
}
