import Foundation
import Testing

@testable import AASAServer

/// A served file written while the loader reads it, on a real disk: the
/// reader returns one whole version or an error, never a torn mix of two.
@Suite("Reading a file that changes")
struct FileReadTests {
    let site: TemporarySite
    let path: String
    let reader = FileReader(limit: 131_072)

    init() throws {
        site = try TemporarySite()
        path = site.path + "/file.json"
        try Self.version(1).write(toFile: path, atomically: false, encoding: .utf8)
    }

    /// `{"v":1,"pad":"111…"}`: versions differ in every padding byte, so a
    /// torn read would show a mix.
    static func version(_ number: Int) -> String {
        #"{"v":\#(number),"pad":"\#(String(repeating: String(number), count: 4096))"}"#
    }

    /// Truncates and rewrites the same inode, as `>` in a shell or an editor
    /// saving in place does.
    static func rewriteInPlace(_ path: String, with contents: String) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(contents.utf8))
        try handle.close()
    }

    /// The real file, opened by the real file system, with `afterRead` run
    /// between each read and the check of its stamp.
    func open(afterRead: @escaping () -> Void) throws -> any OpenFile {
        InterruptedFile(try PosixFileSystem().openFile(atPath: path), afterRead: afterRead)
    }

    static func text(_ version: FileReader.Version) -> String? {
        guard case .complete(let bytes) = version.contents else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func fileRewrittenInPlaceDuringTheReadIsReadAgainWhole() throws {
        var rewrites = 0
        let file = try open {
            guard rewrites == 0 else { return }
            rewrites += 1
            try? Self.rewriteInPlace(path, with: Self.version(2))
        }
        let read = try reader.read(file)
        #expect(rewrites == 1)
        #expect(Self.text(read) == Self.version(2))
        #expect(read.stamp == (try FileStamp.of(path)))
    }

    @Test func fileReplacedByRenameDuringTheReadIsReadInItsOldVersionWhole() throws {
        let before = try FileStamp.of(path)
        let file = try open { try? Self.version(3).write(toFile: path, atomically: true, encoding: .utf8) }
        let read = try reader.read(file)
        // The rename changes the old inode's ctime (one link fewer), so it is
        // read once more: the same inode, the same whole old version.
        #expect(Self.text(read) == Self.version(1))
        #expect(read.stamp.inode == before.inode)
        // The next load sees the new inode and reads version 3.
        #expect((try FileStamp.of(path)) != before)
    }

    @Test func fileThatKeepsChangingIsAnErrorNotATornRead() throws {
        var rewrites = 0
        let file = try open {
            rewrites += 1
            try? Self.rewriteInPlace(path, with: Self.version(rewrites % 2 == 0 ? 4 : 5))
        }
        let error = #expect(throws: FileSystemError.self) { _ = try reader.read(file) }
        #expect(rewrites == FileReader.readAttempts)
        #expect(error?.code == .changedWhileReading(attempts: 3))
        #expect(
            error?.description
                == "\(path): the file changed while it was being read (3 attempts); it is read again on the next load"
        )
    }

    @Test func aFIFOIsNotARegularFile() throws {
        let fifo = site.path + "/fifo"
        #expect(mkfifo(fifo, 0o644) == 0)
        let file = try PosixFileSystem().openFile(atPath: fifo)
        let error = #expect(throws: FileSystemError.self) { _ = try reader.read(file) }
        #expect(error?.code == .notARegularFile(.special("FIFO")))
    }
}

/// An open file that runs a closure after every read: the moment a writer
/// would have to hit by chance.
final class InterruptedFile: OpenFile {
    private let inner: any OpenFile
    private let afterRead: () -> Void

    init(_ inner: any OpenFile, afterRead: @escaping () -> Void) {
        self.inner = inner
        self.afterRead = afterRead
    }

    var path: String { inner.path }

    func status() throws(FileSystemError) -> FileStatus { try inner.status() }

    func read(upTo count: Int) throws(FileSystemError) -> [UInt8] {
        let bytes = try inner.read(upTo: count)
        afterRead()
        return bytes
    }
}
