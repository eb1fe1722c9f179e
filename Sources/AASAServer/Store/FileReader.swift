/// Reads one whole version of an open file, or says why it cannot.
///
/// The size cap is checked twice: on the stamp (a file over it is not read
/// at all, and is reported with its real size), and on what is read (it may
/// be growing, a copy in progress), reading at most `limit + 1` bytes.
///
/// A file rewritten in place while it is read (its stamp differs after the
/// read) is read again, up to ``readAttempts`` times, so a torn mix of two
/// versions is never returned. A file replaced by rename needs nothing: the
/// open descriptor keeps reading the old version, whole, and the next load
/// sees the new one's stamp.
struct FileReader: Sendable {
    /// What was read.
    enum Contents: Sendable, Equatable {
        case complete([UInt8])
        /// Over the cap: the size from the file's stamp (or, for a file that
        /// grew while it was read, at least what was read).
        case tooLarge(size: Int)
    }

    struct Version: Sendable {
        var contents: Contents
        var stamp: FileStamp
    }

    /// Reads of a file that keeps changing before it is left to the next load.
    static let readAttempts = 3

    /// The largest file read whole.
    let limit: Int

    /// The stamp of `file`, if it is a regular file.
    func stamp(of file: any OpenFile) throws(FileSystemError) -> FileStamp {
        let status = try file.status()
        guard status.kind == .regular else {
            throw FileSystemError(path: file.path, code: .notARegularFile(status.kind))
        }
        return status.stamp
    }

    /// Reads `file`, whose stamp was `stamp` when it was opened.
    func read(_ file: any OpenFile, stamp: FileStamp) throws(FileSystemError) -> Version {
        var stamp = stamp
        for _ in 0..<Self.readAttempts {
            guard stamp.size <= limit else { return Version(contents: .tooLarge(size: stamp.size), stamp: stamp) }
            let bytes = try file.read(upTo: limit + 1)
            let after = try self.stamp(of: file)
            guard after == stamp else {
                stamp = after
                continue
            }
            let contents: Contents = bytes.count > limit ? .tooLarge(size: bytes.count) : .complete(bytes)
            return Version(contents: contents, stamp: stamp)
        }
        throw FileSystemError(path: file.path, code: .changedWhileReading(attempts: Self.readAttempts))
    }

    /// Reads `file` as it is now.
    func read(_ file: any OpenFile) throws(FileSystemError) -> Version {
        try read(file, stamp: try stamp(of: file))
    }
}
