#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file-system call that failed: the path and the system's reason.
public struct FileSystemError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}

/// The few POSIX calls the loader needs, wrapped so every failure carries the
/// path and the system's reason. Foundation's `FileManager` is avoided here
/// because it follows symlinks silently, would block on a FIFO, and hides
/// inode and nanosecond mtime, which decide whether a file changed.
enum FileSystem {
    enum EntryType: Sendable, Equatable {
        case regular
        case directory
        case symlink
        case other(String)
    }

    /// Identity of a file version: a poll skips re-reading a file whose stamp
    /// is unchanged.
    struct Stamp: Sendable, Hashable {
        var device: UInt64
        var inode: UInt64
        var size: Int
        var modifiedNanoseconds: Int64
        var changedNanoseconds: Int64
    }

    struct Info: Sendable {
        var type: EntryType
        var stamp: Stamp
    }

    /// `lstat`: describes a symlink itself, never its target.
    static func linkInfo(_ path: String) throws(FileSystemError) -> Info {
        var status = stat()
        guard lstat(path, &status) == 0 else { throw failure(path) }
        return Info(type: entryType(status.st_mode), stamp: stamp(status))
    }

    /// `stat`: follows symlinks.
    static func info(_ path: String) throws(FileSystemError) -> Info {
        var status = stat()
        guard stat(path, &status) == 0 else { throw failure(path) }
        return Info(type: entryType(status.st_mode), stamp: stamp(status))
    }

    /// The canonical absolute path (symlinks resolved); fails on loops.
    static func canonicalPath(_ path: String) throws(FileSystemError) -> String {
        guard let resolved = realpath(path, nil) else { throw failure(path) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Names in a directory, without `.` and `..`, sorted for stable reports.
    static func directoryEntries(_ path: String) throws(FileSystemError) -> [String] {
        guard let directory = opendir(path) else { throw failure(path) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Reads at most `limit + 1` bytes of a regular file, so an oversize file
    /// is detected without reading it whole. Opened non-blocking and checked
    /// to be regular *after* opening (no FIFO can stall the loader, and a
    /// swap between check and open is caught).
    ///
    /// A file rewritten in place while it is read (its stamp differs after
    /// the read) is read again, up to `readAttempts` times, so a torn mix of two
    /// versions is never returned. A file replaced by rename needs nothing:
    /// the open descriptor keeps reading the old version, whole, and the next
    /// load sees the new one's stamp. `afterRead` runs between the read and
    /// that check; tests rewrite the file there.
    static func readRegularFile(
        _ path: String,
        limit: Int,
        afterRead: () -> Void = {}
    ) throws(FileSystemError) -> (bytes: [UInt8], info: Info) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw failure(path) }
        defer { close(descriptor) }
        var info = try Self.info(descriptor: descriptor, path: path)
        guard info.type == .regular else {
            throw FileSystemError(path: path, reason: "not a regular file (\(describe(info.type)))")
        }
        for _ in 0..<readAttempts {
            let bytes = try read(descriptor: descriptor, path: path, limit: limit)
            afterRead()
            let after = try Self.info(descriptor: descriptor, path: path)
            if after.stamp == info.stamp { return (bytes, info) }
            info = after
        }
        throw FileSystemError(
            path: path,
            reason:
                "the file changed while it was being read (\(readAttempts) attempts); it is read again on the next load"
        )
    }

    /// Reads of a file that keeps changing before it is left to the next load.
    static let readAttempts = 3

    private static func info(descriptor: Int32, path: String) throws(FileSystemError) -> Info {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(path) }
        return Info(type: entryType(status.st_mode), stamp: stamp(status))
    }

    /// Reads from the start of the file up to `limit + 1` bytes.
    private static func read(descriptor: Int32, path: String, limit: Int) throws(FileSystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return pread(descriptor, base + count, buffer.count - count, off_t(count))
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw failure(path)
            }
            if got == 0 { break }
            count += got
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    static func describe(_ type: EntryType) -> String {
        switch type {
        case .regular: "regular file"
        case .directory: "directory"
        case .symlink: "symbolic link"
        case .other(let kind): kind
        }
    }

    private static func failure(_ path: String) -> FileSystemError {
        FileSystemError(path: path, reason: String(cString: strerror(errno)))
    }

    private static func entryType(_ mode: mode_t) -> EntryType {
        switch mode & S_IFMT {
        case S_IFREG: .regular
        case S_IFDIR: .directory
        case S_IFLNK: .symlink
        case S_IFIFO: .other("FIFO")
        case S_IFCHR: .other("character device")
        case S_IFBLK: .other("block device")
        case S_IFSOCK: .other("socket")
        default: .other("special file")
        }
    }

    private static func stamp(_ status: stat) -> Stamp {
        Stamp(
            device: UInt64(status.st_dev),
            inode: UInt64(status.st_ino),
            size: Int(status.st_size),
            modifiedNanoseconds: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec),
            changedNanoseconds: Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
        )
    }
}
