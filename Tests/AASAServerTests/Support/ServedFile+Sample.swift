import Foundation

@testable import AASAServer

extension ServedFile {
    /// An AASA file of `a.example` built from `body`, as the loader would
    /// build it: inode 1, modified at the epoch, `max-age=300`, no warnings.
    static func sample(body: [UInt8], appIDs: [String] = []) -> ServedFile {
        ServedFile(
            kind: .appleAppSiteAssociation,
            host: "a.example",
            contents: body,
            stamp: FileStamp(device: 1, inode: 1, size: body.count, modifiedNanoseconds: 0, changedNanoseconds: 0),
            lastModified: .init(timeIntervalSince1970: 0),
            appIDs: appIDs,
            warnings: [],
            cacheControl: "max-age=300",
            gzip: GzipPool()
        )
    }
}
