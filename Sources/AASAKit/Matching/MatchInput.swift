/// The components of one URL as the rules compare them, computed on first
/// use and shared by every rule of an evaluation: encoded or decoded
/// (`percentEncoded`), the path normalised (§3.1). A component that is all
/// ASCII (an encoded one always is, from the URL parser) is handed out as
/// bytes, anything else as scalars (``LentText``).
///
/// The URL's components are copied as UTF-8 bytes at ``reset(url:)`` from
/// its one run of bytes (``AASAURL/tail``), so the input keeps no reference to
/// the URL: nothing per URL but those copies into buffers that keep their
/// capacity.
struct MatchInput {
    /// A URL component that rules compare.
    enum Component: String, CaseIterable {
        case path, query, fragment
    }

    /// A component's UTF-8 as the URL holds it, and its spellings computed
    /// on first use.
    private struct Spellings {
        var raw: [UInt8] = []
        var isASCII = true
        var encoded = Spelling()
        var decoded = Spelling()

        mutating func reset(_ source: UnsafeBufferPointer<UInt8>?) {
            isASCII = true
            encoded.state = nil
            decoded.state = nil
            guard let source else {
                // Most URLs have no query or no fragment: the buffer is
                // mostly empty already, and emptying it was a call.
                if !raw.isEmpty { raw.removeAll(keepingCapacity: true) }
                return
            }
            // One call in place: emptying the array first was a call of
            // its own (`removeAll(keepingCapacity:)` replaces its range).
            raw.replaceSubrange(raw.indices, with: source)
            isASCII = Self.isASCII(raw)
        }

        /// `body` of the spelling, computed first when it is not yet;
        /// `nil` when `decoded` and the component cannot be decoded.
        mutating func withValue<Result>(
            decoded isDecoded: Bool,
            normalizingPath: Bool,
            _ body: (LentText) -> Result
        ) -> Result? {
            // Without an escape the decoded text is the encoded one.
            if !isDecoded || !raw.contains(UInt8(ascii: "%")) {
                if encoded.state == nil {
                    if isASCII && !normalizingPath { return raw.withUnsafeBufferPointer { body(.ascii($0)) } }
                    encoded.fill(raw, isASCII: isASCII, normalizingPath: normalizingPath)
                }
                return encoded.withText(body)
            }
            if decoded.state == nil {
                // Taken out of the spelling while it fills, so that its
                // buffer is not copied on write.
                var bytes: [UInt8] = []
                swap(&bytes, &decoded.scratch)
                bytes.removeAll(keepingCapacity: true)
                if PercentEncoding.decode(raw, appendingTo: &bytes) {
                    decoded.fill(bytes, isASCII: Self.isASCII(bytes), normalizingPath: normalizingPath)
                } else {
                    decoded.state = .undecodable
                }
                swap(&bytes, &decoded.scratch)
            }
            return decoded.withText(body)
        }

        static func isASCII(_ bytes: [UInt8]) -> Bool {
            bytes.withUnsafeBufferPointer { buffer in
                var bits: UInt8 = 0
                for byte in buffer { bits |= byte }
                return bits < 0x80
            }
        }
    }

    /// One spelling of a component, in the buffers it keeps from one URL
    /// to the next.
    private struct Spelling {
        enum State { case ascii, scalars, undecodable }

        var bytes: [UInt8] = []
        var scalars: [Unicode.Scalar] = []
        /// Decoded bytes before normalisation.
        var scratch: [UInt8] = []
        /// `nil` until computed.
        var state: State?

        /// `body` of the spelling's buffer; `nil` when undecodable or not
        /// computed.
        func withText<Result>(_ body: (LentText) -> Result) -> Result? {
            switch state {
            case .ascii?: bytes.withUnsafeBufferPointer { body(.ascii($0)) }
            case .scalars?: scalars.withUnsafeBufferPointer { body(.scalars($0)) }
            case .undecodable?, nil: nil
            }
        }

        /// Sets the spelling to `source` (normalised when a path); UTF-8
        /// that is not well-formed makes it undecodable.
        mutating func fill(_ source: [UInt8], isASCII: Bool, normalizingPath: Bool) {
            if isASCII {
                if normalizingPath {
                    PathNormalization.normalize(bytes: source, into: &bytes)
                } else {
                    bytes.removeAll(keepingCapacity: true)
                    bytes.append(contentsOf: source)
                }
                state = .ascii
                return
            }
            guard let text = UTF8Text.decode(source) else {
                state = .undecodable
                return
            }
            if normalizingPath {
                PathNormalization.normalize(text.unicodeScalars, into: &scalars)
            } else {
                scalars.removeAll(keepingCapacity: true)
                scalars.append(contentsOf: text.unicodeScalars)
            }
            state = .scalars
        }
    }

    private var path = Spellings()
    private var query = Spellings()
    private var fragment = Spellings()
    private var items = QueryItemList.Cache()

    init(url: AASAURL) {
        reset(url: url)
    }

    /// Starts over for another URL, keeping the buffers.
    mutating func reset(url: AASAURL) {
        switch url.tail {
        case .string(let text):
            // Lent by `withCString` in place from the URL (a native string;
            // a small one is copied to the stack):
            // `utf8.withContiguousStorageIfAvailable` first copied the
            // view, a retain and a release of the tail a URL. The ranges
            // never reach the terminating NUL.
            let count = text.utf8.count
            text.withCString { start in
                start.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
                    reset(url: url, tail: UnsafeBufferPointer(start: bytes, count: count))
                }
            }
        case .span:
            reset(url: url, span: url.tail)
        }
        items.reset()
    }

    /// A span's bytes, read where they lie: a borrowed enum's payload is
    /// bound without a retain (bound in ``reset(url:)``, the links file's
    /// source was retained and released per URL). Not inlined: inlined,
    /// it was retained again.
    @inline(never)
    private mutating func reset(url: AASAURL, span: borrowing AASAURL.Tail) {
        switch span {
        case .span(let source, let start, let count):
            source.withBytes(start: start, count: count) { reset(url: url, tail: $0) }
        case .string:
            preconditionFailure("a span")
        }
    }

    private mutating func reset(url: AASAURL, tail: UnsafeBufferPointer<UInt8>) {
        path.reset(UnsafeBufferPointer(rebasing: tail[url.pathRange]))
        query.reset(url.queryRange.map { UnsafeBufferPointer(rebasing: tail[$0]) })
        fragment.reset(url.fragmentRange.map { UnsafeBufferPointer(rebasing: tail[$0]) })
    }

    /// `body` of the normalised path; `nil` when `decoded` and it cannot be
    /// decoded. The text is lent for the call, not returned: an owned text
    /// retained and released its buffer for every candidate rule of a URL.
    mutating func withPath<Result>(decoded: Bool, _ body: (LentText) -> Result) -> Result? {
        path.withValue(decoded: decoded, normalizingPath: true, body)
    }

    /// `body` of the whole query without `?` (`""` when absent).
    mutating func withQuery<Result>(decoded: Bool, _ body: (LentText) -> Result) -> Result? {
        query.withValue(decoded: decoded, normalizingPath: false, body)
    }

    /// `body` of the fragment without `#` (`""` when absent).
    mutating func withFragment<Result>(decoded: Bool, _ body: (LentText) -> Result) -> Result? {
        fragment.withValue(decoded: decoded, normalizingPath: false, body)
    }

    /// The query split on `&` and the first `=` (a valueless item has value
    /// `""`; `+` stays `+`); each name and value decoded on its own.
    mutating func queryItems(decoded: Bool) -> QueryItemList? {
        items.list(decoded: decoded, raw: query.raw, isASCII: query.isASCII)
    }
}

/// The buffers of one evaluation, kept from one URL to the next when a
/// list is evaluated, so that matching a URL allocates nothing once they
/// have grown.
struct MatchScratch {
    var input = MatchInput(url: AASAURL(scheme: "https", host: "", path: ""))
    var candidates: [Int32] = []
    var automaton = AutomatonScratch()
}
