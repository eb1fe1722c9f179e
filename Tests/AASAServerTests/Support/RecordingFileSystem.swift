import NIOConcurrencyHelpers

@testable import AASAServer

/// The real file system, recording the identity (device and inode) of every
/// directory and file the loader opens, so a test can prove a file was not
/// merely left unserved but never even opened.
final class RecordingFileSystem: FileSystem, Sendable {
    struct Identity: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64

        init(_ stamp: FileStamp) {
            device = stamp.device
            inode = stamp.inode
        }
    }

    private let real = PosixFileSystem()
    private let seen = NIOLockedValueBox<Set<Identity>>([])

    /// Everything opened so far.
    var opened: Set<Identity> { seen.withLockedValue { $0 } }

    func record(_ stamp: FileStamp) {
        _ = seen.withLockedValue { $0.insert(Identity(stamp)) }
    }

    func openDirectory(atPath path: String) throws(FileSystemError) -> any DirectoryHandle {
        try RecordingDirectory(try real.openDirectory(atPath: path), recorder: self)
    }

    func openFile(atPath path: String) throws(FileSystemError) -> any OpenFile {
        let file = try real.openFile(atPath: path)
        record(try file.status().stamp)
        return file
    }

    func canonicalPath(_ path: String) -> String? {
        real.canonicalPath(path)
    }
}

/// A directory that reports what is opened through it to its recorder.
final class RecordingDirectory: DirectoryHandle {
    private let inner: any DirectoryHandle
    private let recorder: RecordingFileSystem

    init(_ inner: any DirectoryHandle, recorder: RecordingFileSystem) throws(FileSystemError) {
        self.inner = inner
        self.recorder = recorder
        recorder.record(try inner.status(of: ".").stamp)
    }

    var path: String { inner.path }

    func entries() throws(FileSystemError) -> [String] { try inner.entries() }

    func status(of name: String) throws(FileSystemError) -> FileStatus { try inner.status(of: name) }

    func destination(ofLink name: String) throws(FileSystemError) -> String { try inner.destination(ofLink: name) }

    func openDirectory(_ name: String) throws(FileSystemError) -> any DirectoryHandle {
        try RecordingDirectory(try inner.openDirectory(name), recorder: recorder)
    }

    func openFile(_ name: String) throws(FileSystemError) -> any OpenFile {
        let file = try inner.openFile(name)
        recorder.record(try file.status().stamp)
        return file
    }
}
