/// The common URL in one pass: `http://` or `https://` as written, a host
/// of lowercase ASCII with no user or port, and a path, query and fragment
/// with nothing to remove, encode or resolve. Such a URL is its own bytes:
/// its tail is those bytes, a span of the links file they lie in or else
/// copied whole, where the general parse trimmed, looked for tabs, measured
/// each component and then wrote it byte by byte.
extension URLByteParser {
    /// The URL of `input` when it is of the common kind; `nil` for any
    /// other input (the general parse reads it). What it returns is what
    /// the general parse returns for the same bytes, `host` included: when
    /// it holds this URL's host it is used, else it is left holding it.
    /// `file`, when `input` lies in a links file's bytes, is that file and
    /// where `input` starts in it: the tail is then a span of the file.
    static func parseCommon(
        _ input: UnsafeBufferPointer<UInt8>,
        host cached: inout String?,
        in file: URLByteParser.FileSpan? = nil
    ) -> AASAURL? {
        let count = input.count
        let scheme: AASAURL.Scheme
        var index: Int
        if hasPrefix(input, "https://") {
            (scheme, index) = (.https, 8)
        } else if hasPrefix(input, "http://") {
            (scheme, index) = (.http, 7)
        } else {
            return nil
        }
        let hostStart = index
        while index < count, CommonURLBytes.has(CommonURLBytes.host, input[index]) { index += 1 }
        let hostEnd = index
        // The host ends the authority only at `/`, `?`, `#` or the end:
        // a `\`, `:`, `@`, uppercase or non-ASCII byte is the general parse's.
        guard hostEnd > hostStart,
            hostEnd == count || ASCII.pathEnds.contains(input[hostEnd]) || input[hostEnd] == ASCII.slash
        else { return nil }

        // The path, to the first `?` or `#`: a segment with a `.` or a `%`
        // is looked at when it ends, the only place it can be `.` or `..`.
        var segmentStart = index
        var mayBeDot = false
        while index < count {
            let byte = input[index]
            if CommonURLBytes.has(CommonURLBytes.path, byte) {
                index += 1
                continue
            }
            if ASCII.pathEnds.contains(byte) { break }
            if byte == ASCII.slash {
                if mayBeDot, isDotSegment(input[segmentStart..<index]) { return nil }
                (segmentStart, mayBeDot) = (index + 1, false)
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "%") {
                mayBeDot = true
            } else {
                return nil
            }
            index += 1
        }
        if mayBeDot, isDotSegment(input[segmentStart..<index]) { return nil }
        let pathCount = index - hostEnd

        var queryMark: Int?
        if index < count, input[index] == UInt8(ascii: "?") {
            queryMark = pathCount
            index += 1
            while index < count, input[index] != UInt8(ascii: "#") {
                guard CommonURLBytes.has(CommonURLBytes.query, input[index]) else { return nil }
                index += 1
            }
        }
        var fragmentMark: Int?
        if index < count {  // at a `#`
            fragmentMark = index - hostEnd
            index += 1
            while index < count {
                guard CommonURLBytes.has(CommonURLBytes.fragment, input[index]) else { return nil }
                index += 1
            }
        }

        let hostBytes = UnsafeBufferPointer(rebasing: input[hostStart..<hostEnd])
        let host: String
        if let known = cached, known.withLentUTF8({ equal($0, hostBytes) }) {
            host = known
        } else {
            host = String(decoding: hostBytes, as: UTF8.self)
            cached = host
        }
        let tail: AASAURL.Tail
        if let file {
            // Fits: the URL lies in the file, whose offsets are `Int32`s.
            tail = .span(file.source, start: file.start + Int32(hostEnd), count: Int32(count - hostEnd))
        } else {
            let tailBytes = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: input[hostEnd...]))
            tail = .string(
                String(unsafeUninitializedCapacity: tailBytes.count) { buffer in
                    UnsafeMutableRawBufferPointer(buffer).copyMemory(from: tailBytes)
                    return tailBytes.count
                }
            )
        }
        return AASAURL(
            scheme: scheme,
            host: host,
            port: nil,
            tail: tail,
            queryMark: queryMark,
            fragmentMark: fragmentMark
        )
    }

    private static func hasPrefix(_ input: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard input.count >= count else { return false }
        let expected = prefix.utf8Start
        for offset in 0..<count where input[offset] != expected[offset] { return false }
        return true
    }

    /// Byte by byte by index: `elementsEqual` walked both through their
    /// iterators, a tenth of the parse.
    private static func equal(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        guard left.count == right.count else { return false }
        for index in left.indices where left[index] != right[index] { return false }
        return true
    }

    /// Whether a segment is `.` or `..` in any spelling (`%2e` for a dot,
    /// either case): the segments ``AASAURL/removingDotSegments(_:)``
    /// resolves, which leaves every other path as it is.
    private static func isDotSegment(_ segment: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var dots = 0
        var index = segment.startIndex
        while index < segment.endIndex {
            if segment[index] == UInt8(ascii: ".") {
                index += 1
            } else if segment.endIndex - index >= 3, segment[index] == UInt8(ascii: "%"),
                segment[index + 1] == UInt8(ascii: "2"), segment[index + 2] | 0x20 == UInt8(ascii: "e")
            {
                index += 3
            } else {
                return false
            }
            dots += 1
        }
        return dots == 1 || dots == 2
    }
}

/// The byte classes of ``URLByteParser/parseCommon(_:host:in:)``, each a
/// byte the general parse keeps as it is where the class is used, as
/// masks (members in the comments; `URLParserCommonPathTests` rebuilds
/// them from ``ASCII``'s sets). One test per byte in the usual case, where
/// the loops tested the ends, then the marks, then the set.
enum CommonURLBytes {
    /// In a host: printable ASCII, not uppercase, not forbidden (which
    /// also rules out `:`, `@`, `[` and every byte that ends the authority).
    static var host: ASCII.Set { ASCII.Set(low: 0x2BFF_7FD6_0000_0000, high: 0x6FFF_FFFF_8000_0000) }
    /// In the path, and needs no second look: kept with the path set, not
    /// `\` (a `/` to the general parse), nor `/`, `.` or `%` (segments and
    /// dot segments), nor `?` or `#` (the path's end).
    static var path: ASCII.Set { ASCII.Set(low: 0x2FFF_3FD2_0000_0000, high: 0x57FF_FFFE_AFFF_FFFF) }
    /// Kept with the query set (which holds `#`, the query's end).
    static var query: ASCII.Set { ASCII.Set(low: 0xAFFF_FF72_0000_0000, high: 0x7FFF_FFFF_FFFF_FFFF) }
    /// Kept with the fragment set.
    static var fragment: ASCII.Set { ASCII.Set(low: 0xAFFF_FFFA_0000_0000, high: 0x7FFF_FFFE_FFFF_FFFF) }

    /// Whether `set` holds `byte`, with one branch (bytes from 128 are in
    /// no set).
    @inline(__always)
    static func has(_ set: ASCII.Set, _ byte: UInt8) -> Bool {
        byte < 128 && ((byte < 64 ? set.low : set.high) >> UInt64(byte & 63)) & 1 != 0
    }
}
