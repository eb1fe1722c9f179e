/// The path normalisation of docs/SEMANTICS.md §3.1, applied to `/`
/// patterns once at compile time and to URL paths at match time (never to
/// `?` or `#`). It makes the trailing slash insignificant and the leading
/// slash optional.
enum PathNormalization {
    static func normalize(_ path: String) -> String {
        var scalars: [Unicode.Scalar] = []
        normalize(path.unicodeScalars, into: &scalars)
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }

    /// ``normalize(_:)`` into a caller's buffer (emptied first), so that
    /// matching a list of URLs reuses one buffer. Generic over the unit:
    /// bytes of an ASCII path or scalars (``MatchUnit``), the same steps
    /// either way.
    static func normalize<Path: Collection>(_ input: Path, into scalars: inout [Path.Element])
    where Path.Element: MatchUnit {
        let slash = Path.Element.slash
        let star = Path.Element.star
        scalars.removeAll(keepingCapacity: true)
        guard let first = input.first else {
            scalars.append(slash)
            return
        }
        if input.index(after: input.startIndex) == input.endIndex {
            scalars.append(first)
            return
        }
        // Collapsing runs in one pass is the fixpoint of replacing `**` and `//`.
        for scalar in input {
            if scalar == star || scalar == slash, scalars.last == scalar { continue }
            scalars.append(scalar)
        }
        let lead = scalars.first == star
        if lead { scalars.removeFirst() }
        let trail = scalars.last == star
        if trail { scalars.removeLast() }
        if !lead, scalars.first != slash { scalars.insert(slash, at: 0) }
        if !trail, scalars.last != slash { scalars.append(slash) }
        if lead { scalars.insert(star, at: 0) }
        if trail { scalars.append(star) }
    }

    /// ``normalize(_:into:)`` for the bytes of an ASCII path. The usual URL
    /// path (a leading `/`, no `//` or `**`, not ending in `*`) only gains
    /// the trailing `/`: it is copied whole instead of byte by byte.
    static func normalize(bytes input: [UInt8], into output: inout [UInt8]) {
        let isPlain = input.withUnsafeBufferPointer { buffer in
            guard buffer.count > 1, buffer[0] == UInt8.slash, buffer[buffer.count - 1] != UInt8.star else {
                return false
            }
            var previous = buffer[0]
            for byte in buffer[1...] {
                if byte == previous, byte == UInt8.slash || byte == UInt8.star { return false }
                previous = byte
            }
            return true
        }
        guard isPlain else {
            normalize(input, into: &output)
            return
        }
        // From the buffer: an array argument is taken owned (a retain and a
        // release of the URL's path per evaluation). One call, as
        // ``MatchInput``'s copy of the path.
        input.withUnsafeBufferPointer { output.replaceSubrange(output.indices, with: $0) }
        if input[input.count - 1] != UInt8.slash { output.append(UInt8.slash) }
    }
}
