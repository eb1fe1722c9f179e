import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A directory opened by ``PosixFileSystem``: every call names one entry
/// relative to this descriptor and none follows a symlink.
final class PosixDirectory: DirectoryHandle {
    let descriptor: FileDescriptor
    let path: String
    /// Prefix of the paths shown for entries: empty for the served root, so
    /// messages name `brand.example/…` rather than absolute paths.
    private let childPrefix: String

    init(descriptor: FileDescriptor, path: String, childPrefix: String) {
        self.descriptor = descriptor
        self.path = path
        self.childPrefix = childPrefix
    }

    deinit {
        try? descriptor.close()
    }

    private func shown(_ name: String) -> String {
        childPrefix + name
    }

    func entries() throws(FileSystemError) -> [String] {
        // A descriptor of its own for the stream: `fdopendir` takes ownership
        // of it, and this handle's offset stays untouched.
        let own = try PosixFileSystem.open(
            ".",
            at: descriptor.rawValue,
            flags: O_RDONLY | O_DIRECTORY,
            shown: path,
            follows: false
        )
        guard let stream = fdopendir(own.rawValue) else {
            let failure = PosixFileSystem.failure(path, errno)
            try? own.close()
            throw failure
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            // `d_name` is a fixed array (256 bytes on Linux, 1024 on Darwin), NUL-terminated.
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    func status(of name: String) throws(FileSystemError) -> FileStatus {
        // From the name's C string: a `FilePath` made of it was an
        // allocation at every lookup, and a load looks up several names per host.
        let looked = name.withCString { path in
            Result { () throws(Errno) in try Stat(path, relativeTo: descriptor, flags: .symlinkNoFollow) }
        }
        switch looked {
        case .success(let status): return PosixFileSystem.status(status)
        case .failure(let error): throw PosixFileSystem.failure(shown(name), error)
        }
    }

    func destination(ofLink name: String) throws(FileSystemError) -> String {
        // Longer than any PATH_MAX (4096 on Linux, 1024 on Darwin).
        var buffer = [CChar](repeating: 0, count: 4097)
        let count = readlinkat(descriptor.rawValue, name, &buffer, buffer.count)
        guard count >= 0 else { throw PosixFileSystem.failure(shown(name), errno) }
        guard count < buffer.count else {
            throw FileSystemError(path: shown(name), code: .system(errno: ENAMETOOLONG, reason: "symlink too long"))
        }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func openDirectory(_ name: String) throws(FileSystemError) -> any DirectoryHandle {
        let child = try PosixFileSystem.open(
            name,
            at: descriptor.rawValue,
            flags: O_RDONLY | O_DIRECTORY,
            shown: shown(name),
            follows: false
        )
        return PosixDirectory(descriptor: child, path: shown(name), childPrefix: shown(name) + "/")
    }

    func openFile(_ name: String) throws(FileSystemError) -> any OpenFile {
        let file = try PosixFileSystem.open(
            name,
            at: descriptor.rawValue,
            flags: PosixFileSystem.readFlags,
            shown: shown(name),
            follows: false
        )
        return PosixFile(descriptor: file, prefix: childPrefix, name: name)
    }
}
