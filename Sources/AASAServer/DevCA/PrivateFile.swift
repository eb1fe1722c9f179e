import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file whole, under its final name only once complete, with its
/// mode set from the first byte: the bytes go to a new sibling opened with
/// `O_CREAT | O_EXCL` and the mode (a private key is never world-readable,
/// not even for an instant), then `rename(2)` replaces the target. An
/// existing target that is a symlink is replaced, never written through.
/// A server polling the directory sees the old file or the new one.
enum PrivateFile {
    /// `rw-------`: private keys.
    static let ownerOnly: FilePermissions = [.ownerReadWrite]
    /// `rw-r--r--` (less the umask): certificates and profiles.
    static let readable: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead]

    static func write(_ bytes: some Collection<UInt8>, to path: String, permissions: FilePermissions) throws(Errno) {
        let target = FilePath(path)
        let name = target.lastComponent?.string ?? "file"
        let temporary = target.removingLastComponent().appending(".\(name).\(UInt32.random(in: .min ... .max)).tmp")
        do {
            let descriptor = try FileDescriptor.open(
                temporary,
                .writeOnly,
                options: [.create, .exclusiveCreate, .noFollow],
                permissions: permissions
            )
            try descriptor.closeAfter {
                _ = try descriptor.writeAll(bytes)
            }
        } catch {
            _ = temporary.withPlatformString { unlink($0) }
            throw (error as? Errno) ?? .ioError
        }
        let renamed = temporary.withPlatformString { from in
            target.withPlatformString { to in rename(from, to) }
        }
        guard renamed == 0 else {
            let error = Errno(rawValue: errno)
            _ = temporary.withPlatformString { unlink($0) }
            throw error
        }
    }
}
