import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The real file system: descriptors and the `*at` calls, one name at a
/// time, `O_NOFOLLOW` on every name below the root. swift-system supplies
/// `stat` (its `Stat` reads `st_mtim` on Linux and `st_mtimespec` on
/// Darwin), `pread` and `close`; `openat`, `readlinkat` and `fdopendir`,
/// which it lacks, are POSIX calls with the same signature on both.
///
/// Foundation's `FileManager` is avoided: it follows symlinks silently, would
/// block on a FIFO, and hides the inode and nanosecond times a stamp needs.
struct PosixFileSystem: FileSystem {
    func openDirectory(atPath path: String) throws(FileSystemError) -> any DirectoryHandle {
        let descriptor = try Self.open(path, at: AT_FDCWD, flags: O_RDONLY | O_DIRECTORY, shown: path, follows: true)
        return PosixDirectory(descriptor: descriptor, path: path, childPrefix: "")
    }

    func openFile(atPath path: String) throws(FileSystemError) -> any OpenFile {
        let descriptor = try Self.open(path, at: AT_FDCWD, flags: Self.readFlags, shown: path, follows: true)
        return PosixFile(descriptor: descriptor, name: path)
    }

    func canonicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Non-blocking (a FIFO opens at once instead of waiting for a writer)
    /// and never the controlling terminal.
    static let readFlags = O_RDONLY | O_NONBLOCK | O_NOCTTY

    /// `openat`, retried on EINTR, always close-on-exec.
    static func open(
        _ name: String,
        at directory: Int32,
        flags: Int32,
        shown path: String,
        follows: Bool
    ) throws(FileSystemError) -> FileDescriptor {
        while true {
            let descriptor = openat(directory, name, flags | O_CLOEXEC | (follows ? 0 : O_NOFOLLOW))
            if descriptor >= 0 { return FileDescriptor(rawValue: descriptor) }
            let number = errno
            if number == EINTR { continue }
            throw failure(path, number, followed: follows)
        }
    }

    /// The error for `errno`. `ELOOP` on a call that does not follow links
    /// means the name is a symlink (it was swapped in since it was looked
    /// at); on one that does, a loop.
    static func failure(_ path: String, _ number: Int32, followed: Bool = false) -> FileSystemError {
        let code: FileSystemError.Code =
            switch number {
            case ENOENT: .notFound
            case EACCES, EPERM: .permissionDenied
            case ENOTDIR: .notADirectory
            case ELOOP: followed ? .tooManyLinks : .symbolicLink
            default: .system(errno: number, reason: String(cString: strerror(number)))
            }
        return FileSystemError(path: path, code: code)
    }

    static func failure(_ path: String, _ error: Errno) -> FileSystemError {
        failure(path, error.rawValue)
    }

    /// A `stat` result as the loader's status.
    static func status(_ status: Stat) -> FileStatus {
        let kind: EntryKind =
            switch status.type {
            case .regular: .regular
            case .directory: .directory
            case .symbolicLink: .symbolicLink
            case .fifo: .special("FIFO")
            case .characterSpecial: .special("character device")
            case .blockSpecial: .special("block device")
            case .socket: .special("socket")
            default: .special("special file")
            }
        // portable: swift-system's `Stat.st_mtim`/`st_ctim` read `st_mtimespec`/`st_ctimespec` on Darwin.
        let modified = status.st_mtim
        let changed = status.st_ctim  // portable: as above.
        return FileStatus(
            kind: kind,
            stamp: FileStamp(
                device: UInt64(truncatingIfNeeded: status.deviceID.rawValue),
                inode: UInt64(truncatingIfNeeded: status.inode.rawValue),
                size: Int(status.size),
                modifiedNanoseconds: Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec),
                changedNanoseconds: Int64(changed.tv_sec) * 1_000_000_000 + Int64(changed.tv_nsec)
            )
        )
    }
}

/// A file opened by ``PosixFileSystem``.
final class PosixFile: OpenFile {
    let descriptor: FileDescriptor
    /// The directory's prefix for the paths shown, and the name in it: the
    /// path is joined only for a message, not for every file a load opens.
    private let prefix: String
    private let name: String
    var path: String { prefix + name }

    init(descriptor: FileDescriptor, prefix: String = "", name: String) {
        self.descriptor = descriptor
        self.prefix = prefix
        self.name = name
    }

    deinit {
        try? descriptor.close()
    }

    func status() throws(FileSystemError) -> FileStatus {
        do {
            return PosixFileSystem.status(try descriptor.stat())
        } catch {
            throw PosixFileSystem.failure(path, error)
        }
    }

    func read(upTo count: Int) throws(FileSystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got: Int
            do {
                got = try bytes.withUnsafeMutableBytes { buffer in
                    try descriptor.read(
                        fromAbsoluteOffset: Int64(filled),
                        into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])
                    )
                }
            } catch let error as Errno {
                throw PosixFileSystem.failure(path, error)
            } catch {
                throw FileSystemError(path: path, code: .system(errno: 0, reason: "\(error)"))
            }
            if got == 0 { break }
            filled += got
        }
        bytes.removeSubrange(filled...)
        return bytes
    }
}
