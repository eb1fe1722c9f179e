extension LinkExpectations {
    /// One URL to test.
    ///
    /// An entry read from a links file by ``LinkListScanner`` keeps its URL
    /// as the bytes of that file and its place as a list and an index: a
    /// 100,000-URL list made a `String` and a ``JSONPath`` array per entry,
    /// which a run then copied, retained and released. ``url`` and ``path``
    /// make them on demand; the link test reads the bytes and the place.
    public struct Entry: Sendable, Hashable {
        /// The URL as written in the file, usually unencoded.
        public var url: String {
            get { written.string }
            set { written = .string(newValue) }
        }
        public var expectation: Expectation
        /// The app this entry is for, when it names one (Apple entries).
        public var app: LinkTestApp?
        /// The platform whose file judges the entry: `apple` unless the
        /// entry says `"platform": "android"`.
        public var platform: LinkPlatform
        /// The Android package this entry is for, when it names one
        /// (Android entries).
        public var package: String?
        /// Where the entry sits in the expectations file.
        public var path: JSONPath {
            get { place.path }
            set { place = LinkEntryPlace(newValue) }
        }
        /// The expectations file the entry comes from, when known.
        public var file: String?

        var written: WrittenURL
        var place: LinkEntryPlace

        public init(
            url: String,
            expectation: Expectation,
            app: LinkTestApp? = nil,
            platform: LinkPlatform = .apple,
            package: String? = nil,
            path: JSONPath = .root,
            file: String? = nil
        ) {
            self.written = .string(url)
            self.expectation = expectation
            self.app = app
            self.platform = platform
            self.package = package
            self.place = LinkEntryPlace(path)
            self.file = file
        }

        /// An Apple entry of a list of plain URLs, its URL left in the
        /// file's bytes.
        init(written: WrittenURL, expectation: Expectation, place: LinkEntryPlace, file: String?) {
            self.written = written
            self.expectation = expectation
            self.app = nil
            self.platform = .apple
            self.package = nil
            self.place = place
            self.file = file
        }

        // By the URL's UTF-8, kept as bytes or as a string alike. Not by
        // Swift's canonical `==`: `é` and `e` + U+0301 are two URLs to the
        // matcher and to the duplicate check, so two entries here too.
        public static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.expectation == rhs.expectation && lhs.app == rhs.app && lhs.platform == rhs.platform
                && lhs.package == rhs.package && lhs.place == rhs.place && lhs.file == rhs.file
                && lhs.written.withUTF8 { left in rhs.written.withUTF8 { left.elementsEqual($0) } }
        }

        public func hash(into hasher: inout Hasher) {
            written.withUTF8 { url in
                hasher.combine(url.count)
                hasher.combine(bytes: UnsafeRawBufferPointer(url))
            }
            hasher.combine(expectation)
            hasher.combine(app)
            hasher.combine(platform)
            hasher.combine(package)
            hasher.combine(place)
            hasher.combine(file)
        }
    }
}

/// An entry's URL: a string, or a span of the links file's bytes that the
/// scanner found valid UTF-8 without escapes or control characters, so the
/// span is the string's UTF-8 and its JSON as written.
enum WrittenURL: Sendable {
    case string(String)
    case bytes([UInt8], start: Int32, count: Int32)

    var string: String {
        switch self {
        case .string(let text): text
        case .bytes: withUTF8 { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Calls `body` with the URL's UTF-8, without copying a span.
    func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch self {
        case .string(var text):
            return text.withUTF8(body)
        case .bytes(let bytes, let start, let count):
            return bytes.withUnsafeBufferPointer { buffer in
                body(UnsafeBufferPointer(rebasing: buffer[Int(start)..<Int(start) + Int(count)]))
            }
        }
    }
}

/// Where an entry sits: an element of one of a links file's lists (kept as
/// the list and the index, the usual case), or any other path. A path of the
/// first kind is always stored as one, so equal places compare equal.
enum LinkEntryPlace: Sendable, Hashable {
    case listed(LinkListKey, Int)
    case other(JSONPath)

    init(_ path: JSONPath) {
        if path.components.count == 2, case .key(let name) = path.components[0],
            let key = LinkListKey(rawValue: name), case .index(let index) = path.components[1]
        {
            self = .listed(key, index)
        } else {
            self = .other(path)
        }
    }

    var path: JSONPath {
        switch self {
        case .listed(let key, let index): JSONPath([.key(key.rawValue), .index(index)])
        case .other(let path): path
        }
    }
}

/// The keys of a links file's lists.
enum LinkListKey: String, Sendable, Hashable, CaseIterable {
    case deepLinkable = "deep_linkable_urls"
    case nonDeepLinkable = "non_deep_linkable_urls"
    case links
}
