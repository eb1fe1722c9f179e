import Foundation

/// Every answer one served file can get, encoded once at load: for each
/// representation (identity, and gzip when it is smaller) a 200 and a 304,
/// each in the three connection variants. The request path only picks one.
struct FileResponses: Sendable {
    /// One representation of the file, with its own entity tag.
    struct Representation: Sendable {
        let etag: EntityTag
        let ok: EncodedResponseSet
        /// The 304 for a request whose precondition found this
        /// representation unchanged.
        let notModified: EncodedResponseSet
    }

    let identity: Representation
    /// The gzip representation, or `identity` again when gzip is not
    /// smaller: not an optional, so choosing one never copies a whole set.
    let gzip: Representation
    /// Size of the gzip body, `nil` when identity is served to everyone.
    let gzipSize: Int?
    /// `Last-Modified` as sent, in whole seconds since 1970: what
    /// `If-Modified-Since` is compared with.
    let lastModified: Int

    /// - Parameters:
    ///   - opaqueTag: the file's strong validator (a digest of `contents`),
    ///     without quotes.
    ///   - modified: the file's modification time; a time in the future is
    ///     sent as `now` (RFC 9110 §8.8.2.1).
    ///   - gzip: the load's compressors (a load passes one pool for all its files).
    init(
        contents: [UInt8],
        opaqueTag: String,
        modified: Date,
        cacheControl: String,
        now: Date = Date(),
        gzip: GzipPool = GzipPool()
    ) {
        let lastModified = Int(min(modified, now).timeIntervalSince1970.rounded(.down))
        self.lastModified = lastModified
        let identityTag = EntityTag(opaque: opaqueTag, isWeak: false)
        // Formatted once for both representations.
        let lastModifiedField = HTTPDate.format(epochSeconds: lastModified)
        var parts = Self.parts(
            etag: identityTag,
            body: contents,
            contentEncoding: nil,
            lastModified: lastModifiedField,
            cacheControl: cacheControl
        )
        // Compressed once here; served only when it is actually smaller.
        let compressed = gzip.compress(contents).flatMap { $0.count < contents.count ? $0 : nil }
        self.gzipSize = compressed?.count
        // RFC 9110 §8.8.3.3: a content-coded representation must not
        // share the identity's strong tag. Like nginx, it gets the same
        // opaque tag, weak: the two are semantically equivalent, so
        // If-None-Match (weak comparison) revalidates either copy with a
        // 304 whatever the client now accepts, while If-Match and ranges
        // (strong comparison) never take one for the other. Weak also
        // because the compressed bytes depend on the zlib build.
        let gzipTag = EntityTag(opaque: opaqueTag, isWeak: true)
        if let compressed {
            parts += Self.parts(
                etag: gzipTag,
                body: compressed,
                contentEncoding: "gzip",
                lastModified: lastModifiedField,
                cacheControl: cacheControl
            )
        }
        // All of the file's responses in one buffer (see
        // `EncodedResponseSet.packed`): what a host costs stays close to the
        // bytes it serves.
        let sets = EncodedResponseSet.packed(parts)
        let identity = Representation(etag: identityTag, ok: sets[0], notModified: sets[1])
        self.identity = identity
        self.gzip = compressed == nil ? identity : Representation(etag: gzipTag, ok: sets[2], notModified: sets[3])
    }

    /// The representation the request's `Accept-Encoding` selects.
    @inline(__always)
    func representation(acceptsGzip: Bool) -> Representation {
        acceptsGzip ? gzip : identity
    }

    /// What to encode for one representation: its 200, then its 304.
    private static func parts(
        etag: EntityTag,
        body: [UInt8],
        contentEncoding: String?,
        lastModified: String,
        cacheControl: String
    ) -> [EncodedResponseSet.Part] {
        // Every file response varies on Accept-Encoding, also when gzip is not
        // smaller: the next version of the file may compress, and a cache
        // must not learn otherwise from this one.
        let etagField = ("ETag", etag.headerValue)
        let caching = [("Cache-Control", cacheControl), ("Vary", "Accept-Encoding")]
        let security = [("X-Content-Type-Options", "nosniff")]
        var okFields = [
            ("Content-Type", "application/json"),
            etagField,
            ("Last-Modified", lastModified),
        ]
        okFields += caching
        if let contentEncoding { okFields.append(("Content-Encoding", contentEncoding)) }
        okFields += security
        return [
            EncodedResponseSet.Part(status: .ok, headers: okFields, body: body),
            // RFC 9110 §15.4.5: a 304 carries the caching fields a 200 would
            // (Cache-Control, ETag, Vary; Date is added per connection) and no
            // representation metadata: with an ETag present, Last-Modified
            // would only be noise.
            EncodedResponseSet.Part(
                status: .notModified,
                headers: [etagField] + caching + security,
                body: [],
                sendsLength: false
            ),
        ]
    }
}
