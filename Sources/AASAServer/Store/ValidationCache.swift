import Crypto

/// What the previous load learnt about file versions, so a poll reads and
/// validates only what changed: a file whose stamp is unchanged is served
/// as it was, a rejected one stays rejected (and is not logged again) until
/// it changes, and a file rewritten with the same bytes keeps its encoded
/// responses. SIGHUP (`force`) bypasses the stamps and reads everything.
struct ValidationCache {
    /// Files rejected by the previous load, by path.
    let rejected: [String: RejectedFile]
    let force: Bool

    enum Decision {
        /// Unchanged since the previous load, which served it.
        case unchanged(ServedFile)
        /// Unchanged since the previous load, which rejected it.
        case stillRejected(RejectedFile)
        /// New or changed (or SIGHUP): read and validate.
        case read
    }

    /// What to do with the version of `path` stamped `stamp`; `previous` is
    /// the version the previous load served for it.
    func decide(path: String, stamp: FileStamp, previous: ServedFile?) -> Decision {
        guard !force else { return .read }
        if let previous, previous.stamp == stamp { return .unchanged(previous) }
        if let known = rejected[path], known.stamp == stamp { return .stillRejected(known) }
        return .read
    }

    /// The previous version under the new stamp, when the bytes read are
    /// the ones it was built from (touched, or copied over unchanged).
    func sameBytes(as previous: ServedFile?, contents: FileReader.Contents, stamp: FileStamp) -> ServedFile? {
        guard let previous, case .complete(let bytes) = contents, bytes.count == previous.size,
            previous.digest == SHA256.hash(data: bytes)
        else { return nil }
        return previous.restamped(stamp)
    }
}

/// A file version that failed validation, and what was wrong with it.
struct RejectedFile: Sendable, Equatable {
    let stamp: FileStamp
    let issues: [LoadIssue]
}
