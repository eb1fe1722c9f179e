/// The components of one URL as the rules compare them, computed on first
/// use and shared by every rule of an evaluation: encoded or decoded
/// (`percentEncoded`), the path normalised (§3.1).
struct MatchInput {
    /// A URL component that rules compare.
    enum Component: String, CaseIterable {
        case path, query, fragment
    }

    /// One `name=value` query item.
    struct QueryItem {
        var name: [Unicode.Scalar]
        var value: [Unicode.Scalar]
    }

    /// A component in one spelling; `nil` content means it cannot be
    /// percent-decoded.
    private struct Cache<Value> {
        var encoded: Value?
        var decoded: Value??
    }

    let url: AASAURL
    private var path = Cache<[Unicode.Scalar]>()
    private var query = Cache<[Unicode.Scalar]>()
    private var fragment = Cache<[Unicode.Scalar]>()
    private var items = Cache<[QueryItem]>()

    init(url: AASAURL) {
        self.url = url
    }

    /// The normalised path; `nil` when `decoded` and it cannot be decoded.
    mutating func path(decoded: Bool) -> [Unicode.Scalar]? {
        Self.cached(&path, decoded: decoded) { text in
            Array(PathNormalization.normalize(text).unicodeScalars)
        } source: {
            url.path
        }
    }

    /// The whole query without `?` (`""` when absent).
    mutating func query(decoded: Bool) -> [Unicode.Scalar]? {
        Self.cached(&query, decoded: decoded) {
            Array($0.unicodeScalars)
        } source: {
            url.query ?? ""
        }
    }

    /// The fragment without `#` (`""` when absent).
    mutating func fragment(decoded: Bool) -> [Unicode.Scalar]? {
        Self.cached(&fragment, decoded: decoded) {
            Array($0.unicodeScalars)
        } source: {
            url.fragment ?? ""
        }
    }

    /// The query split on `&` and the first `=` (a valueless item has value
    /// `""`; `+` stays `+`); each name and value decoded on its own.
    mutating func queryItems(decoded: Bool) -> [QueryItem]? {
        if decoded, let cached = items.decoded { return cached }
        if !decoded, let cached = items.encoded { return cached }
        let raw = url.query ?? ""
        var result: [QueryItem]? = []
        if !raw.isEmpty {
            for item in raw.split(separator: "&", omittingEmptySubsequences: false) {
                let equals = item.firstIndex(of: "=")
                let name = equals.map { item[..<$0] } ?? item
                let value = equals.map { item[item.index(after: $0)...] } ?? ""
                guard let name = decoded ? PercentEncoding.decode(name) : String(name),
                    let value = decoded ? PercentEncoding.decode(value) : String(value)
                else {
                    result = nil
                    break
                }
                result?.append(QueryItem(name: Array(name.unicodeScalars), value: Array(value.unicodeScalars)))
            }
        }
        if decoded { items.decoded = .some(result) } else { items.encoded = result }
        return result
    }

    private static func cached(
        _ cache: inout Cache<[Unicode.Scalar]>,
        decoded: Bool,
        _ transform: (String) -> [Unicode.Scalar],
        source: () -> String
    ) -> [Unicode.Scalar]? {
        if decoded {
            if let cached = cache.decoded { return cached }
            let value = PercentEncoding.decode(Substring(source())).map(transform)
            cache.decoded = .some(value)
            return value
        }
        if let cached = cache.encoded { return cached }
        let value = transform(source())
        cache.encoded = value
        return value
    }
}
