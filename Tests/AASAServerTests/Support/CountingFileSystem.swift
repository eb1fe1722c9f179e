import NIOConcurrencyHelpers

@testable import AASAServer

/// The real file system, counting by entry name the lookups (`fstatat`)
/// and the opens the loader makes through directories, so a test can pin
/// how much work a load does per host; and the directories and files open
/// at once (their descriptors), at most, so a test can pin what a load
/// holds.
final class CountingFileSystem: FileSystem, Sendable {
    struct Counts: Sendable {
        var lookups: [String: Int] = [:]
        var opens: [String: Int] = [:]
        var openNow = 0
        var mostOpenAtOnce = 0
    }

    private let real = PosixFileSystem()
    private let counts = NIOLockedValueBox(Counts())

    func lookups(of name: String) -> Int { counts.withLockedValue { $0.lookups[name, default: 0] } }
    func opens(of name: String) -> Int { counts.withLockedValue { $0.opens[name, default: 0] } }

    /// The most handles (directories and files) that were open at once.
    var mostOpenAtOnce: Int { counts.withLockedValue { $0.mostOpenAtOnce } }

    func reset() {
        counts.withLockedValue { $0 = Counts(openNow: $0.openNow, mostOpenAtOnce: $0.openNow) }
    }

    fileprivate func handleOpened() {
        counts.withLockedValue {
            $0.openNow += 1
            $0.mostOpenAtOnce = max($0.mostOpenAtOnce, $0.openNow)
        }
    }

    fileprivate func handleClosed() {
        counts.withLockedValue { $0.openNow -= 1 }
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
        CountingFile(try real.openFile(atPath: path), counter: self)
    }

    func canonicalPath(_ path: String) -> String? {
        real.canonicalPath(path)
    }
}

/// One open handle, counted from its wrapper's creation to its release
/// (the real handles close their descriptors when released, as their
/// wrappers are).
private final class CountedHandle: Sendable {
    let counter: CountingFileSystem

    init(_ counter: CountingFileSystem) {
        self.counter = counter
        counter.handleOpened()
    }

    deinit {
        counter.handleClosed()
    }
}

/// A directory that reports its lookups and opens to its counter.
private final class CountingDirectory: DirectoryHandle {
    private let inner: any DirectoryHandle
    private let handle: CountedHandle
    private var counter: CountingFileSystem { handle.counter }

    init(_ inner: any DirectoryHandle, counter: CountingFileSystem) {
        self.inner = inner
        self.handle = CountedHandle(counter)
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
        return CountingFile(try inner.openFile(name), counter: counter)
    }
}

/// A file that is counted while it is open.
private final class CountingFile: OpenFile {
    private let inner: any OpenFile
    private let handle: CountedHandle

    init(_ inner: any OpenFile, counter: CountingFileSystem) {
        self.inner = inner
        self.handle = CountedHandle(counter)
    }

    var path: String { inner.path }

    func status() throws(FileSystemError) -> FileStatus { try inner.status() }

    func read(upTo count: Int) throws(FileSystemError) -> [UInt8] { try inner.read(upTo: count) }
}
