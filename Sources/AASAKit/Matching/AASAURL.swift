/// A URL as it reaches the system: parsed and percent-encoded the way a
/// browser's URL parser encodes what a human typed.
///
/// Follows the WHATWG URL standard where it matters for matching: tabs and
/// newlines are removed; `\` counts as `/`; user info is dropped; the host is
/// lowercased (no IDNA: a non-ASCII host stays as typed, lowercased); a
/// default port is dropped; `.`/`..` path segments are resolved; each
/// component is percent-encoded with its WHATWG set (non-ASCII as UTF-8
/// `%XX`, uppercase hex); existing escapes and `+` are kept as they are.
///
/// Stored as the WHATWG URL record lays a URL out: the part after the
/// authority (path, `?` query, `#` fragment, encoded) is one run of bytes
/// (``Tail``: a string, or the links file's own bytes) and the components
/// are ranges of it, so a parsed URL is one allocation at most beside its
/// host (which a list's URLs share), a copy retains two objects, and the
/// matcher reads the components from one buffer. The component properties
/// make their strings on demand.
public struct AASAURL: Sendable, Hashable, CustomStringConvertible {
    /// Lowercased; brackets kept for IPv6 literals.
    public var host: String
    /// The path, then `?` and the query, then `#` and the fragment, each
    /// present only when the URL has it.
    private(set) var tail: Tail
    /// ``scheme`` as one byte, in the padding after the 17-byte ``tail``:
    /// a string of its own made a URL 64 bytes, 48 now, and a list's items
    /// hold 100,000 of them.
    private(set) var schemeKind: Scheme
    /// The UTF-8 offsets in ``tail`` of the query's `?` and the fragment's
    /// `#`, ``noMark`` for none. Two `UInt32`s, where two `Int?` made a URL
    /// 96 bytes: a list's items hold 100,000 of them.
    private var marks: (query: UInt32, fragment: UInt32)
    /// ``port``, ``noPort`` for none: an `Int?` after the 17-byte ``tail``
    /// made the URL 80 bytes, this fits the padding before 64.
    private var storedPort: Int32

    /// `http` or `https`, lowercased: the only schemes a URL parses with.
    /// Set only inside the module: any other scheme has no place in the
    /// one byte that holds it (a programming error, not bad input).
    public internal(set) var scheme: String {
        get { schemeKind.rawValue }
        set { schemeKind = Scheme(newValue) }
    }

    /// The schemes a URL can have: a case is stored as one byte, its name
    /// is the raw value.
    enum Scheme: String, Sendable {
        case http
        case https

        /// `name`, either case; any other scheme is a programming error
        /// (the parser throws ``AASAURLError`` for it).
        init(_ name: String) {
            guard let scheme = Scheme(rawValue: name) ?? Scheme(rawValue: name.lowercased()) else {
                preconditionFailure("unsupported scheme \(name)")
            }
            self = scheme
        }
    }

    private static var noMark: UInt32 { .max }
    private static var noPort: Int32 { .min }

    /// The port when one is written and it is not the scheme's default.
    /// One that parses is at most 65,535; another must fit an `Int32`.
    public var port: Int? {
        get { storedPort == Self.noPort ? nil : Int(storedPort) }
        set { storedPort = Self.storedPort(newValue) }
    }

    /// The UTF-8 offset of the query's `?` in ``tail``; `nil` without a query.
    private var queryMark: Int? { marks.query == Self.noMark ? nil : Int(marks.query) }
    /// The UTF-8 offset of the fragment's `#` in ``tail``; `nil` without one.
    private var fragmentMark: Int? { marks.fragment == Self.noMark ? nil : Int(marks.fragment) }

    public init(_ string: String) throws(AASAURLError) {
        self = try URLByteParser.parse(string)
    }

    /// A URL from parts already parsed and encoded.
    init(scheme: String, host: String, port: Int? = nil, path: String, query: String? = nil, fragment: String? = nil) {
        var tail = path
        var queryMark: Int?
        var fragmentMark: Int?
        if let query {
            queryMark = tail.utf8.count
            tail += "?" + query
        }
        if let fragment {
            fragmentMark = tail.utf8.count
            tail += "#" + fragment
        }
        self.init(
            scheme: scheme,
            host: host,
            port: port,
            tail: .string(tail),
            queryMark: queryMark,
            fragmentMark: fragmentMark
        )
    }

    /// A URL from its ``tail`` and the offsets of its marks, as the parser
    /// writes them.
    init(scheme: String, host: String, port: Int?, tail: Tail, queryMark: Int?, fragmentMark: Int?) {
        self.init(
            scheme: Scheme(scheme),
            host: host,
            port: port,
            tail: tail,
            queryMark: queryMark,
            fragmentMark: fragmentMark
        )
    }

    /// The same, the scheme already known to be one of the two (the
    /// parser's: no string to compare).
    init(scheme: Scheme, host: String, port: Int?, tail: Tail, queryMark: Int?, fragmentMark: Int?) {
        schemeKind = scheme
        self.host = host
        self.tail = tail
        marks = (Self.mark(queryMark), Self.mark(fragmentMark))
        storedPort = Self.storedPort(port)
    }

    private static func storedPort(_ port: Int?) -> Int32 {
        guard let port else { return noPort }
        guard let stored = Int32(exactly: port), stored != noPort else { preconditionFailure("port \(port)") }
        return stored
    }

    private static func mark(_ offset: Int?) -> UInt32 {
        guard let offset else { return noMark }
        precondition(offset < noMark, "a URL's tail of 4 GiB")
        return UInt32(offset)
    }

    /// Encoded; `""` when the URL has no path.
    public var path: String {
        get { component(pathRange) }
        set { self = AASAURL(scheme: scheme, host: host, port: port, path: newValue, query: query, fragment: fragment) }
    }

    /// Encoded, without `?`; `nil` when there is no `?`.
    public var query: String? {
        get { queryRange.map(component) }
        set { self = AASAURL(scheme: scheme, host: host, port: port, path: path, query: newValue, fragment: fragment) }
    }

    /// Encoded, without `#`; `nil` when there is no `#`.
    public var fragment: String? {
        get { fragmentRange.map(component) }
        set { self = AASAURL(scheme: scheme, host: host, port: port, path: path, query: query, fragment: newValue) }
    }

    /// Where the path lies in ``tail``'s UTF-8.
    var pathRange: Range<Int> { 0..<(queryMark ?? fragmentMark ?? tail.count) }

    /// Where the query (without `?`) lies in ``tail``'s UTF-8.
    var queryRange: Range<Int>? {
        queryMark.map { ($0 + 1)..<(fragmentMark ?? tail.count) }
    }

    /// Where the fragment (without `#`) lies in ``tail``'s UTF-8.
    var fragmentRange: Range<Int>? {
        fragmentMark.map { ($0 + 1)..<tail.count }
    }

    /// The bytes in `range`, which begins and ends at a mark or an end of
    /// the valid UTF-8 ``tail``.
    private func component(_ range: Range<Int>) -> String {
        tail.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// The encoded URL.
    public var description: String {
        var text = "\(scheme)://\(host)"
        if let port { text += ":\(port)" }
        return text + tail.string
    }

    /// Equal bytes: the matcher compares by Unicode scalars, without
    /// normalisation (docs/SEMANTICS.md), so two URLs whose components are
    /// canonically equivalent but spelled differently (NFC `é` against NFD
    /// `e` + U+0301) can be decided differently and must not be equal. The
    /// marks are offsets into ``tail``, so equal marks and equal tail bytes
    /// are equal components, whether each tail is a string or a span.
    public static func == (lhs: AASAURL, rhs: AASAURL) -> Bool {
        lhs.port == rhs.port && lhs.queryMark == rhs.queryMark && lhs.fragmentMark == rhs.fragmentMark
            && Tail.equal(lhs.tail, rhs.tail) && lhs.host.utf8.elementsEqual(rhs.host.utf8)
            && lhs.schemeKind == rhs.schemeKind
    }

    /// Hashes the bytes ``==`` compares (`String`'s own hash normalises,
    /// which would be consistent too, but costs a pass on non-ASCII text).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(schemeKind)
        host.withLentUTF8 { Self.combine($0, into: &hasher) }
        hasher.combine(port)
        hasher.combine(queryMark)
        hasher.combine(fragmentMark)
        tail.withUTF8 { Self.combine($0, into: &hasher) }
    }

    /// Feeds the bytes, then their count (so `"ab" + "c"` and `"a" + "bc"`
    /// hash apart).
    private static func combine(_ bytes: UnsafeBufferPointer<UInt8>, into hasher: inout Hasher) {
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        hasher.combine(bytes.count)
    }

    /// Resolves `.` and `..` segments (also spelled `%2e`), as browsers do
    /// before a URL is ever handed to the system.
    static func removingDotSegments(_ path: String) -> String {
        guard path.hasPrefix("/") else { return path }
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        var output: [Substring] = []
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            switch segment.lowercased() {
            case "..", ".%2e", "%2e.", "%2e%2e":
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            case ".", "%2e":
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        return "/" + output.joined(separator: "/")
    }
}

/// Why a string is not a URL the matcher can evaluate.
public struct AASAURLError: Error, Sendable, Hashable, CustomStringConvertible {
    enum Reason: Sendable, Hashable {
        case notAURL(String)
        case unsupportedScheme(String)
        case invalidHost(String)
        case invalidPort(String)
    }

    let reason: Reason

    init(_ reason: Reason) {
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .notAURL(let input): "not a URL: \(input)"
        case .unsupportedScheme(let scheme): "unsupported scheme \(scheme)"
        case .invalidHost(let host): "invalid host \(host)"
        case .invalidPort(let port): "invalid port \(port)"
        }
    }
}
