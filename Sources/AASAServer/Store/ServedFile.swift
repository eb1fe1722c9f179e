import AASAKit
import Crypto
import Foundation
import NIOCore

/// One validated file, encoded for every way it can be asked for: identity or
/// gzip, 200 or 304, each in the three connection variants. Built once per
/// load; the request path only picks one.
public final class ServedFile: Sendable {
    /// Which of the layout's files this is.
    public typealias Kind = SiteFile

    public let kind: Kind
    /// The host directory it was read from (`brand.example`).
    let host: String
    /// Where it was read from, relative to the served directory
    /// (`brand.example/apple-app-site-association`). Built when asked (for
    /// `/status`), not stored: the host's name is kept anyway, and a path
    /// per file was one more heap string per host.
    public var path: String { host + "/" + kind.fileName }
    /// Uncompressed size: the one Apple's 128 KB cap applies to.
    public let size: Int
    public var gzipSize: Int? { responses.gzipSize }
    /// Strong validator: a digest of the bytes served, as sent in `ETag`.
    /// Derived from the identity representation's tag rather than stored a
    /// second time: at 10,000 hosts every copy kept per file is memory.
    public var etag: String { responses.identity.etag.headerValue }
    /// SHA-256 of the contents: a re-read with the same bytes reuses this
    /// file instead of validating and encoding it again.
    let digest: SHA256.Digest
    public let lastModified: Date
    /// The file version it was read from; an unchanged stamp skips re-reading.
    let stamp: FileStamp
    /// App IDs the file lists (applinks, then other services), for `/status`.
    public var appIDs: [String] { packedAppIDs.strings }
    private let packedAppIDs: PackedStrings
    /// Lint warnings the file was served with.
    public let warnings: [String]

    /// Its pre-encoded responses: identity and gzip, 200 and 304.
    let responses: FileResponses

    init(
        kind: Kind,
        host: String,
        contents: [UInt8],
        stamp: FileStamp,
        lastModified: Date,
        appIDs: [String],
        warnings: [String],
        cacheControl: String,
        gzip: GzipPool
    ) {
        self.kind = kind
        self.host = host
        self.stamp = stamp
        self.size = contents.count
        self.lastModified = lastModified
        self.packedAppIDs = PackedStrings(appIDs)
        self.warnings = warnings

        let digest = SHA256.hash(data: contents)
        self.digest = digest
        let opaqueTag = Self.hex(digest.prefix(16))

        self.responses = FileResponses(
            contents: contents,
            opaqueTag: opaqueTag,
            modified: lastModified,
            cacheControl: cacheControl,
            gzip: gzip
        )
    }

    /// Lowercase hex, two digits a byte, built in one string (one small
    /// string per byte, joined, cost more than the digest itself).
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The same file seen under a new stamp (touched, or copied over with
    /// identical bytes): nothing to validate or encode again.
    func restamped(_ stamp: FileStamp) -> ServedFile {
        stamp == self.stamp ? self : ServedFile(copying: self, stamp: stamp)
    }

    private init(copying file: ServedFile, stamp: FileStamp) {
        self.kind = file.kind
        self.host = file.host
        self.stamp = stamp
        self.size = file.size
        self.digest = file.digest
        self.lastModified = file.lastModified
        self.packedAppIDs = file.packedAppIDs
        self.warnings = file.warnings
        self.responses = file.responses
    }
}
