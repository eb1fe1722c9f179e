/// ``AASAURL/init(_:)`` over the UTF-8 bytes of the string: every
/// delimiter the WHATWG steps look for is ASCII, and so is every byte that
/// is kept unescaped, so the parse never decodes a scalar and allocates only
/// the component strings it returns.
///
/// A list of 100,000 URLs spent most of `test-links` in the parse written
/// over `Character`s (grapheme breaking on every step), Foundation's
/// `replacingOccurrences` and a `Set` of forbidden host scalars built per
/// call. Working on code units also follows the standard more closely: a
/// delimiter followed by a combining mark is still a delimiter.
enum URLByteParser {
    static func parse(_ string: String) throws(AASAURLError) -> AASAURL {
        var host: String?
        let result = string.utf8.withContiguousStorageIfAvailable { bytes in
            Result { () throws(AASAURLError) in try parse(bytes, original: { string }, host: &host) }
        }
        if let result { return try result.get() }
        let bytes = Array(string.utf8)
        return try bytes.withUnsafeBufferPointer { bytes in
            Result { () throws(AASAURLError) in try parse(bytes, original: { string }, host: &host) }
        }.get()
    }

    /// Where a URL's bytes lie in a links file: its ``LinkListSource`` and
    /// the offset of the URL's first byte, for the one parse call it is
    /// made for.
    ///
    /// The source is held unretained: the caller of the parse holds it (the
    /// bytes parsed are its bytes), and the URL's tail retains it once when
    /// it keeps a span. Held strongly, making the span retained the source
    /// and ending the call released it, a pair per URL on a count the
    /// other core's URLs of the same source write too.
    struct FileSpan {
        private let unretained: Unmanaged<LinkListSource>
        let start: Int32

        init(source: LinkListSource, start: Int32) {
            unretained = .passUnretained(source)
            self.start = start
        }

        /// The source, retained by whoever keeps it.
        var source: LinkListSource { unretained.takeUnretainedValue() }
    }

    /// The URL of `raw`, valid UTF-8: what ``parse(_:)`` returns for its
    /// string. `host`, when it holds the host this URL has, is used instead
    /// of a new string (a list's URLs are mostly of one host), and is left
    /// holding this URL's host. `original` makes the string for an error.
    /// `file` says where `raw` lies when it is a links file's bytes, which a
    /// common URL's tail then keeps instead of a copy.
    static func parse(
        _ raw: UnsafeBufferPointer<UInt8>,
        original: () -> String,
        host: inout String?,
        in file: FileSpan? = nil
    ) throws(AASAURLError) -> AASAURL {
        if let url = parseCommon(raw, host: &host, in: file) { return url }
        return try parseGeneral(raw, original: original, host: &host)
    }

    /// ``parse(_:original:host:in:)`` of any input, without the common URL's
    /// shortcut (``parseCommon(_:host:in:)``, which its tests hold to this).
    static func parseGeneral(
        _ raw: UnsafeBufferPointer<UInt8>,
        original: () -> String,
        host: inout String?
    ) throws(AASAURLError) -> AASAURL {
        // Leading and trailing C0 controls and spaces go; tabs and newlines
        // go everywhere (rare: the filtered copy is only made for them).
        var start = 0
        var end = raw.count
        while start < end, raw[start] <= 0x20 { start += 1 }
        while end > start, raw[end - 1] <= 0x20 { end -= 1 }
        let trimmed = UnsafeBufferPointer(rebasing: raw[start..<end])
        guard trimmed.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
            return try parseCleaned(trimmed, original: original, host: &host)
        }
        let cleaned = trimmed.filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        return try cleaned.withUnsafeBufferPointer { bytes in
            Result { () throws(AASAURLError) in try parseCleaned(bytes, original: original, host: &host) }
        }.get()
    }

    private static func parseCleaned(
        _ input: UnsafeBufferPointer<UInt8>,
        original: () -> String,
        host cachedHost: inout String?
    ) throws(AASAURLError) -> AASAURL {
        guard let colon = input.firstIndex(of: UInt8(ascii: ":")), isScheme(input[..<colon]) else {
            throw AASAURLError(.notAURL(original()))
        }
        // A byte: a scheme string per URL (and its lowercasing) cost more
        // than the rest of the authority.
        let scheme: AASAURL.Scheme
        if equalsLowercased(input[..<colon], "https") {
            scheme = .https
        } else if equalsLowercased(input[..<colon], "http") {
            scheme = .http
        } else {
            throw AASAURLError(.unsupportedScheme(string(input[..<colon]).lowercased()))
        }
        var index = colon + 1
        while index < input.count, input[index] == ASCII.slash || input[index] == ASCII.backslash { index += 1 }
        var authorityEnd = index
        while authorityEnd < input.count, !ASCII.endsAuthority(input[authorityEnd]) { authorityEnd += 1 }
        var hostStart = index
        if let at = input[index..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) { hostStart = at + 1 }
        let (host, port) = try hostAndPort(
            input[hostStart..<authorityEnd],
            scheme: scheme,
            original: original,
            cached: &cachedHost
        )

        // One pass per component finds where it ends (the first `?` or
        // `#` ends the path, the first `#` the query) and how long it is
        // encoded.
        let path = measure(input, from: authorityEnd, upTo: ASCII.pathEnds, escaping: ASCII.pathSet)
        var query: (range: Range<Int>, count: Int)?
        var next = path.end
        if next < input.count, input[next] == UInt8(ascii: "?") {
            let measured = measure(input, from: next + 1, upTo: ASCII.queryEnds, escaping: ASCII.querySet)
            query = ((next + 1)..<measured.end, measured.count)
            next = measured.end
        }
        var fragment: (range: Range<Int>, count: Int)?
        if next < input.count {  // at a `#`
            let measured = measure(input, from: next + 1, upTo: ASCII.Set(low: 0, high: 0), escaping: ASCII.fragmentSet)
            fragment = ((next + 1)..<measured.end, measured.count)
        }
        let pathBytes = input[authorityEnd..<path.end]
        guard !mayHaveDotSegment(pathBytes) else {
            // Rare: the path resolved as a string, the URL assembled from parts.
            return AASAURL(
                scheme: scheme.rawValue,
                host: host,
                port: port,
                path: AASAURL.removingDotSegments(encode(pathBytes, escaping: ASCII.pathSet, backslashIsSlash: true)),
                query: query.map { encode(input[$0.range], escaping: ASCII.querySet) },
                fragment: fragment.map { encode(input[$0.range], escaping: ASCII.fragmentSet) }
            )
        }
        // The usual URL: its path, query and fragment encoded into one
        // string, the marks at their offsets.
        let queryCount = query.map { 1 + $0.count } ?? 0
        let fragmentCount = fragment.map { 1 + $0.count } ?? 0
        let tail = String(unsafeUninitializedCapacity: path.count + queryCount + fragmentCount) { buffer in
            var count = write(pathBytes, escaping: ASCII.pathSet, backslashIsSlash: true, into: buffer, at: 0)
            if let query {
                buffer[count] = UInt8(ascii: "?")
                count = write(input[query.range], escaping: ASCII.querySet, into: buffer, at: count + 1)
            }
            if let fragment {
                buffer[count] = UInt8(ascii: "#")
                count = write(input[fragment.range], escaping: ASCII.fragmentSet, into: buffer, at: count + 1)
            }
            return count
        }
        return AASAURL(
            scheme: scheme,
            host: host,
            port: port,
            tail: .string(tail),
            queryMark: query == nil ? nil : path.count,
            fragmentMark: fragment == nil ? nil : path.count + queryCount
        )
    }

    /// From `start` to the first byte of `ends` or the end of `input`:
    /// where the component ends, and its length encoded with `set`.
    @inline(__always)
    private static func measure(
        _ input: UnsafeBufferPointer<UInt8>,
        from start: Int,
        upTo ends: ASCII.Set,
        escaping set: ASCII.Set
    ) -> (end: Int, count: Int) {
        var index = start
        var count = 0
        while index < input.count {
            let byte = input[index]
            if ends.contains(byte) { break }
            count += ASCII.isKept(byte, set) ? 1 : 3
            index += 1
        }
        return (index, count)
    }

    /// Whether `bytes`, ASCII-lowercased, are `lowercase`'s UTF-8.
    private static func equalsLowercased(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ lowercase: StaticString) -> Bool
    {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = lowercase.utf8Start
        for (offset, byte) in bytes.enumerated() where (ASCII.isUpper(byte) ? byte | 0x20 : byte) != expected[offset] {
            return false
        }
        return true
    }

    private static func isScheme(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard let first = text.first, ASCII.isLetter(first) else { return false }
        return text.allSatisfy { byte in
            ASCII.isLetter(byte) || ASCII.isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".")
        }
    }

    private static func hostAndPort(
        _ text: Slice<UnsafeBufferPointer<UInt8>>,
        scheme: AASAURL.Scheme,
        original: () -> String,
        cached: inout String?
    ) throws(AASAURLError) -> (String, Int?) {
        var searchFrom = text.startIndex
        if text.first == UInt8(ascii: "[") { searchFrom = text.firstIndex(of: UInt8(ascii: "]")) ?? text.endIndex }
        var hostBytes = text
        var portBytes = text[text.endIndex...]
        if let colon = text[searchFrom...].firstIndex(of: UInt8(ascii: ":")) {
            hostBytes = text[..<colon]
            portBytes = text[(colon + 1)...]
        }
        guard !hostBytes.isEmpty else { throw AASAURLError(.notAURL(original())) }
        let isIPv6 = hostBytes.first == UInt8(ascii: "[") && hostBytes.last == UInt8(ascii: "]")
        if !isIPv6, hostBytes.contains(where: ASCII.isForbiddenInHost) {
            throw AASAURLError(.invalidHost(string(hostBytes)))
        }
        let host: String
        if let cached, isLowercased(hostBytes, equalTo: cached) {
            host = cached
        } else {
            host = lowercased(hostBytes)
            cached = host
        }
        guard !portBytes.isEmpty else { return (host, nil) }
        var port = 0
        for byte in portBytes {
            guard ASCII.isDigit(byte), port <= 65_535 else { throw AASAURLError(.invalidPort(string(portBytes))) }
            port = port * 10 + Int(byte - UInt8(ascii: "0"))
        }
        guard port <= 65_535 else { throw AASAURLError(.invalidPort(string(portBytes))) }
        let isDefault = (scheme == .https && port == 443) || (scheme == .http && port == 80)
        return (host, isDefault ? nil : port)
    }

    /// ASCII lowercased in one pass; anything else through the standard
    /// library's Unicode lowercasing, as before.
    private static func lowercased(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return string(bytes).lowercased() }
        return String(unsafeUninitializedCapacity: bytes.count) { buffer in
            for (offset, byte) in bytes.enumerated() {
                buffer[offset] = ASCII.isUpper(byte) ? byte | 0x20 : byte
            }
            return bytes.count
        }
    }

    /// Percent-encodes C0 controls, DEL, every non-ASCII byte (UTF-8 of a
    /// non-ASCII scalar) and `set`; everything else, `%` included, is kept.
    private static func encode(
        _ bytes: Slice<UnsafeBufferPointer<UInt8>>,
        escaping set: ASCII.Set,
        backslashIsSlash: Bool = false
    ) -> String {
        let count = bytes.reduce(0) { count, byte in count + (ASCII.isKept(byte, set) ? 1 : 3) }
        return String(unsafeUninitializedCapacity: count) { buffer in
            write(bytes, escaping: set, backslashIsSlash: backslashIsSlash, into: buffer, at: 0)
        }
    }

    /// Writes `bytes` encoded into `buffer` from `start`; returns where the
    /// writing ended.
    @inline(__always)
    private static func write(
        _ bytes: Slice<UnsafeBufferPointer<UInt8>>,
        escaping set: ASCII.Set,
        backslashIsSlash: Bool = false,
        into buffer: UnsafeMutableBufferPointer<UInt8>,
        at start: Int
    ) -> Int {
        var count = start
        for byte in bytes {
            if ASCII.isKept(byte, set) {
                buffer[count] = backslashIsSlash && byte == ASCII.backslash ? ASCII.slash : byte
                count += 1
            } else {
                buffer[count] = UInt8(ascii: "%")
                buffer[count + 1] = ASCII.hexDigit(byte >> 4)
                buffer[count + 2] = ASCII.hexDigit(byte & 0x0F)
                count += 3
            }
        }
        return count
    }

    /// Whether `bytes`, ASCII, lowercased equal `text`'s UTF-8 (a host
    /// with another byte is never taken for the cached one).
    private static func isLowercased(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, equalTo text: String) -> Bool {
        let equal = text.utf8.withContiguousStorageIfAvailable { cached in
            guard cached.count == bytes.count else { return false }
            for (offset, byte) in bytes.enumerated() {
                guard byte < 0x80, (ASCII.isUpper(byte) ? byte | 0x20 : byte) == cached[offset] else { return false }
            }
            return true
        }
        return equal ?? false
    }

    /// Whether a segment of the path written as `bytes` may be `.`/`..` in
    /// any spelling: a `.` or a `%2e`. Without one, removing dot segments
    /// leaves the path as it is. Encoding never makes either: `.`, `%`, `2`
    /// and `e` are kept as they are, and an escape it writes for a byte
    /// (`%XY`) is never `%2E`, the escape of `.`, which is kept.
    private static func mayHaveDotSegment(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in bytes {
            if byte == UInt8(ascii: ".") { return true }
            if previous == (UInt8(ascii: "%"), UInt8(ascii: "2")), byte | 0x20 == UInt8(ascii: "e") { return true }
            previous = (previous.1, byte)
        }
        return false
    }

    private static func string(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes), as: UTF8.self)
    }
}
