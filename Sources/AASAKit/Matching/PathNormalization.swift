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
    static func normalize<Path: Collection<Unicode.Scalar>>(_ input: Path, into scalars: inout [Unicode.Scalar]) {
        scalars.removeAll(keepingCapacity: true)
        guard let first = input.first else {
            scalars.append("/")
            return
        }
        if input.index(after: input.startIndex) == input.endIndex {
            scalars.append(first)
            return
        }
        // Collapsing runs in one pass is the fixpoint of replacing `**` and `//`.
        for scalar in input {
            if scalar == "*" || scalar == "/", scalars.last == scalar { continue }
            scalars.append(scalar)
        }
        let lead = scalars.first == "*"
        if lead { scalars.removeFirst() }
        let trail = scalars.last == "*"
        if trail { scalars.removeLast() }
        if !lead, scalars.first != "/" { scalars.insert("/", at: 0) }
        if !trail, scalars.last != "/" { scalars.append("/") }
        if lead { scalars.insert("*", at: 0) }
        if trail { scalars.append("*") }
    }
}
