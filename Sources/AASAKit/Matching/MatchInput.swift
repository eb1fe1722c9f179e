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

    /// A component's scalars in both spellings, computed on first use into
    /// buffers that keep their capacity from one URL to the next.
    private struct Spellings {
        var encoded: [Unicode.Scalar] = []
        var decoded: [Unicode.Scalar] = []
        var hasEncoded = false
        /// `nil` until computed; `false` when the component cannot be decoded.
        var isDecodable: Bool?

        mutating func reset() {
            hasEncoded = false
            isDecodable = nil
        }

        mutating func value(decoded: Bool, normalizingPath: Bool, source: String) -> [Unicode.Scalar]? {
            if decoded {
                if let isDecodable { return isDecodable ? self.decoded : nil }
                guard let text = PercentEncoding.decode(Substring(source)) else {
                    isDecodable = false
                    return nil
                }
                Self.fill(&self.decoded, text.unicodeScalars, normalizingPath: normalizingPath)
                isDecodable = true
                return self.decoded
            }
            if !hasEncoded {
                Self.fill(&encoded, source.unicodeScalars, normalizingPath: normalizingPath)
                hasEncoded = true
            }
            return encoded
        }

        private static func fill(
            _ buffer: inout [Unicode.Scalar],
            _ scalars: String.UnicodeScalarView,
            normalizingPath: Bool
        ) {
            if normalizingPath {
                PathNormalization.normalize(scalars, into: &buffer)
            } else {
                buffer.removeAll(keepingCapacity: true)
                buffer.append(contentsOf: scalars)
            }
        }
    }

    private(set) var url: AASAURL
    private var path = Spellings()
    private var query = Spellings()
    private var fragment = Spellings()
    private var items = Cache<[QueryItem]>()

    init(url: AASAURL) {
        self.url = url
    }

    /// Starts over for another URL, keeping the buffers.
    mutating func reset(url: AASAURL) {
        self.url = url
        path.reset()
        query.reset()
        fragment.reset()
        items = Cache()
    }

    /// The normalised path; `nil` when `decoded` and it cannot be decoded.
    mutating func path(decoded: Bool) -> [Unicode.Scalar]? {
        path.value(decoded: decoded, normalizingPath: true, source: url.path)
    }

    /// The whole query without `?` (`""` when absent).
    mutating func query(decoded: Bool) -> [Unicode.Scalar]? {
        query.value(decoded: decoded, normalizingPath: false, source: url.query ?? "")
    }

    /// The fragment without `#` (`""` when absent).
    mutating func fragment(decoded: Bool) -> [Unicode.Scalar]? {
        fragment.value(decoded: decoded, normalizingPath: false, source: url.fragment ?? "")
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
}

/// The buffers of one evaluation, kept from one URL to the next when a
/// list is evaluated, so that matching a URL allocates nothing once they
/// have grown.
struct MatchScratch {
    var input = MatchInput(url: AASAURL(scheme: "https", host: "", path: ""))
    var candidates: [Int32] = []
    var automaton = AutomatonScratch()
}
