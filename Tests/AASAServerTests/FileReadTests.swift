import Foundation
import Testing

@testable import AASAServer

/// A served file written while the loader reads it: the loader returns one
/// whole version or an error, never a torn mix of two.
@Suite("Reading a file that changes")
struct FileReadTests {
    let site: TemporarySite
    let path: String

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

    @Test func fileRewrittenInPlaceDuringTheReadIsReadAgainWhole() throws {
        var rewrites = 0
        let read = try FileSystem.readRegularFile(path, limit: 131_072) {
            guard rewrites == 0 else { return }
            rewrites += 1
            try? Self.rewriteInPlace(path, with: Self.version(2))
        }
        #expect(rewrites == 1)
        #expect(String(decoding: read.bytes, as: UTF8.self) == Self.version(2))
        #expect(read.info.stamp == (try FileSystem.info(path)).stamp)
    }

    @Test func fileReplacedByRenameDuringTheReadIsReadInItsOldVersionWhole() throws {
        let before = try FileSystem.info(path).stamp
        let read = try FileSystem.readRegularFile(path, limit: 131_072) {
            try? Self.version(3).write(toFile: path, atomically: true, encoding: .utf8)
        }
        // The rename changes the old inode's ctime (one link fewer), so it is
        // read once more: the same inode, the same whole old version.
        #expect(String(decoding: read.bytes, as: UTF8.self) == Self.version(1))
        #expect(read.info.stamp.inode == before.inode)
        // The next load sees the new inode and reads version 3.
        #expect((try FileSystem.info(path)).stamp != before)
    }

    @Test func fileThatKeepsChangingIsAnErrorNotATornRead() throws {
        var rewrites = 0
        let error = #expect(throws: FileSystemError.self) {
            _ = try FileSystem.readRegularFile(path, limit: 131_072) {
                rewrites += 1
                try? Self.rewriteInPlace(path, with: Self.version(rewrites % 2 == 0 ? 4 : 5))
            }
        }
        #expect(rewrites == FileSystem.readAttempts)
        #expect(
            error?.description
                == "\(path): the file changed while it was being read (3 attempts); it is read again on the next load"
        )
    }
}
