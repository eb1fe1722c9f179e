import AASAKit
import CompressNIO
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
    /// Where it was read from, relative to the served directory
    /// (`brand.example/apple-app-site-association`).
    public let path: String
    /// Uncompressed size: the one Apple's 128 KB cap applies to.
    public let size: Int
    public let gzipSize: Int?
    /// Strong validator: a digest of the bytes served.
    public let etag: String
    /// SHA-256 of the contents: a re-read with the same bytes reuses this
    /// file instead of validating and encoding it again.
    let digest: SHA256.Digest
    public let lastModified: Date
    /// The file version it was read from; an unchanged stamp skips re-reading.
    let stamp: FileStamp
    /// App IDs the file lists (applinks, then other services), for `/status`.
    public let appIDs: [String]
    /// Lint warnings the file was served with.
    public let warnings: [String]

    let identity: EncodedResponseSet
    /// The gzip encoding, or `identity` again when gzip is not smaller: not
    /// an optional, so choosing a response never copies a whole set.
    let gzip: EncodedResponseSet
    let notModified: EncodedResponseSet

    init(
        kind: Kind,
        path: String,
        contents: [UInt8],
        stamp: FileStamp,
        lastModified: Date,
        appIDs: [String],
        warnings: [String],
        cacheControl: String
    ) {
        self.kind = kind
        self.path = path
        self.stamp = stamp
        self.size = contents.count
        self.lastModified = lastModified
        self.appIDs = appIDs
        self.warnings = warnings

        let digest = SHA256.hash(data: contents)
        self.digest = digest
        let etag = "\"" + digest.prefix(16).map { String($0, radix: 16).leftPadded(to: 2) }.joined() + "\""
        self.etag = etag

        let common: [(String, String)] = [
            ("Content-Type", "application/json"),
            ("ETag", etag),
            ("Last-Modified", HTTPDate.format(lastModified)),
            ("Cache-Control", cacheControl),
            ("Vary", "Accept-Encoding"),
            ("X-Content-Type-Options", "nosniff"),
        ]
        // Compressed once here; served only when it is actually smaller.
        let compressed = Self.gzip(contents).flatMap { $0.count < contents.count ? $0 : nil }
        self.gzipSize = compressed?.count
        var parts = [
            EncodedResponseSet.Part(status: .ok, headers: common, body: contents),
            EncodedResponseSet.Part(
                status: .notModified,
                headers: common.filter { $0.0 != "Content-Type" },
                body: [],
                sendsLength: false
            ),
        ]
        if let compressed {
            parts.append(.init(status: .ok, headers: common + [("Content-Encoding", "gzip")], body: compressed))
        }
        // One buffer for the file's responses (see `EncodedResponseSet.packed`).
        let sets = EncodedResponseSet.packed(parts)
        self.identity = sets[0]
        self.notModified = sets[1]
        self.gzip = compressed == nil ? sets[0] : sets[2]
    }

    /// The same file seen under a new stamp (touched, or copied over with
    /// identical bytes): nothing to validate or encode again.
    func restamped(_ stamp: FileStamp) -> ServedFile {
        stamp == self.stamp ? self : ServedFile(copying: self, stamp: stamp)
    }

    private init(copying file: ServedFile, stamp: FileStamp) {
        self.kind = file.kind
        self.path = file.path
        self.stamp = stamp
        self.size = file.size
        self.gzipSize = file.gzipSize
        self.etag = file.etag
        self.digest = file.digest
        self.lastModified = file.lastModified
        self.appIDs = file.appIDs
        self.warnings = file.warnings
        self.identity = file.identity
        self.gzip = file.gzip
        self.notModified = file.notModified
    }

    /// The response for a request that has passed routing.
    @inline(__always)
    func response(ifNoneMatch: Bool, acceptsGzip: Bool, connection: EncodedResponse.Connection) -> EncodedResponse {
        if ifNoneMatch { return notModified[connection] }
        if acceptsGzip { return gzip[connection] }
        return identity[connection]
    }

    private static func gzip(_ bytes: [UInt8]) -> [UInt8]? {
        var buffer = ByteBuffer(bytes: bytes)
        guard let compressed = try? buffer.compress(with: .gzip()) else { return nil }
        return Array(buffer: compressed)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
