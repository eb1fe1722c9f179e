/// The path normalisation of docs/SEMANTICS.md §3.1, applied to `/`
/// patterns once at compile time and to URL paths at match time (never to
/// `?` or `#`). It makes the trailing slash insignificant and the leading
/// slash optional.
enum PathNormalization {
    static func normalize(_ path: String) -> String {
        let input = path.unicodeScalars
        if input.isEmpty { return "/" }
        if input.count == 1 { return path }
        // Collapsing runs in one pass is the fixpoint of replacing `**` and `//`.
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(input.count + 2)
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
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }
}
