import NIOConcurrencyHelpers

@testable import AASAServer

/// The real file system, counting by entry name the lookups (`fstatat`)
/// and the opens the loader makes through directories, so a test can pin
/// how much work a load does per host.
final class CountingFileSystem: FileSystem, Sendable {
    struct Counts: Sendable {
        var lookups: [String: Int] = [:]
        var opens: [String: Int] = [:]
    }

    private let real = PosixFileSystem()
    private let counts = NIOLockedValueBox(Counts())

    func lookups(of name: String) -> Int { counts.withLockedValue { $0.lookups[name, default: 0] } }
    func opens(of name: String) -> Int { counts.withLockedValue { $0.opens[name, default: 0] } }

    func reset() {
        counts.withLockedValue { $0 = Counts() }
    }

    fileprivate func looked(at name: String) {
        counts.withLockedValue { $0.lookups[name, default: 0] += 1 }
    }

    fileprivate func opened(_ name: String) {
        counts.withLockedValue { $0.opens[name, default: 0] += 1 }
    }

    func openDirectory(atPath path: String) throws(FileSystemError) -> any DirectoryHandle {
        CountingDirectory(try real.openDirectory(atPath: path), counter: self)
    }

    func openFile(atPath path: String) throws(FileSystemError) -> any OpenFile {
        try real.openFile(atPath: path)
    }

    func canonicalPath(_ path: String) -> String? {
        real.canonicalPath(path)
    }
}

/// A directory that reports its lookups and opens to its counter.
private final class CountingDirectory: DirectoryHandle {
    private let inner: any DirectoryHandle
    private let counter: CountingFileSystem

    init(_ inner: any DirectoryHandle, counter: CountingFileSystem) {
        self.inner = inner
        self.counter = counter
    }

    var path: String { inner.path }

    func entries() throws(FileSystemError) -> [String] { try inner.entries() }

    func status(of name: String) throws(FileSystemError) -> FileStatus {
        counter.looked(at: name)
        return try inner.status(of: name)
    }

    func destination(ofLink name: String) throws(FileSystemError) -> String { try inner.destination(ofLink: name) }

    func openDirectory(_ name: String) throws(FileSystemError) -> any DirectoryHandle {
        counter.opened(name)
        return CountingDirectory(try inner.openDirectory(name), counter: counter)
    }

    func openFile(_ name: String) throws(FileSystemError) -> any OpenFile {
        counter.opened(name)
        return try inner.openFile(name)
    }
}
