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
    /// matching a list of URLs reuses one buffer.
    /// Generic over the unit: bytes of an ASCII path or scalars
    /// (``MatchUnit``), the same steps either way.
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
}
