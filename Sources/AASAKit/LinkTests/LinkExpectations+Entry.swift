extension LinkExpectations {
    /// One URL to test.
    ///
    /// An entry read from a links file by ``LinkListScanner`` keeps its URL
    /// as a span of that file's bytes (held, with the file's name, once for
    /// the whole list) and its place as a list and an index, and nothing
    /// else: 32 bytes and one reference. A 100,000-URL list made a `String`
    /// and a ``JSONPath`` array per entry, and then 104-byte entries that
    /// each retained the bytes and the name; a run faulted in their pages
    /// and retained both at every copy. The rarely set fields (an app, a
    /// package, another platform, a file or place of their own) live in
    /// ``Particulars``, absent for such an entry. The public properties
    /// make their values on demand.
    public struct Entry: Sendable, Hashable {
        var written: WrittenURL
        public var expectation: Expectation
        /// The list of a ``LinkEntryPlace/listed(_:_:)`` place, with
        /// ``index``; `nil` for any other place (then in ``particulars``,
        /// or the root).
        private var list: LinkListKey?
        private var index: Int32
        /// Everything else; `nil` when it is all the default (no app or
        /// package, `apple`, the file the URL's bytes come from).
        private var particulars: ParticularsBox?

        /// The URL as written in the file, usually unencoded.
        public var url: String {
            get { written.string }
            set {
                let kept = self.kept
                written = .string(newValue)
                store(kept)
            }
        }
        /// The app this entry is for, when it names one (Apple entries).
        public var app: LinkTestApp? {
            get { particulars?.value.app }
            set { update { $0.app = newValue } }
        }
        /// The platform whose file judges the entry: `apple` unless the
        /// entry says `"platform": "android"`.
        public var platform: LinkPlatform {
            get { particulars?.value.platform ?? .apple }
            set { update { $0.platform = newValue } }
        }
        /// The Android package this entry is for, when it names one
        /// (Android entries).
        public var package: String? {
            get { particulars?.value.package }
            set { update { $0.package = newValue } }
        }
        /// Where the entry sits in the expectations file.
        public var path: JSONPath {
            get { place.path }
            set { update { $0.place = LinkEntryPlace(newValue) } }
        }
        /// The expectations file the entry comes from, when known.
        public var file: String? {
            get {
                guard let particulars else { return written.source?.file }
                return particulars.value.file
            }
            set { update { $0.file = newValue } }
        }

        var place: LinkEntryPlace {
            if let particulars { return particulars.value.place }
            guard let list else { return .other(.root) }
            return .listed(list, Int(index))
        }

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
            self.list = nil
            self.index = 0
            self.particulars = nil
            store(
                Particulars(app: app, platform: platform, package: package, file: file, place: LinkEntryPlace(path))
            )
        }

        /// An Apple entry of a list of plain URLs, its URL left in the
        /// file's bytes (which name the file).
        init(written: WrittenURL, expectation: Expectation, list: LinkListKey, index: Int32) {
            self.written = written
            self.expectation = expectation
            self.list = list
            self.index = index
            self.particulars = nil
        }

        /// The fields besides the URL and the expectation, as a whole.
        struct Particulars: Sendable, Equatable {
            var app: LinkTestApp?
            var platform: LinkPlatform
            var package: String?
            var file: String?
            var place: LinkEntryPlace
        }

        /// Shared by the copies of an entry; replaced, never changed.
        final class ParticularsBox: Sendable {
            let value: Particulars

            init(_ value: Particulars) {
                self.value = value
            }
        }

        private var kept: Particulars {
            Particulars(app: app, platform: platform, package: package, file: file, place: place)
        }

        private mutating func update(_ change: (inout Particulars) -> Void) {
            var value = kept
            change(&value)
            store(value)
        }

        /// Stores `value` the compact way when it allows: a listed place as
        /// the list and the index, and no box when the rest is the default.
        private mutating func store(_ value: Particulars) {
            if case .listed(let key, let index) = value.place, let small = Int32(exactly: index) {
                (list, self.index) = (key, small)
            } else {
                (list, index) = (nil, 0)
            }
            let placeKept = list != nil || value.place == .other(.root)
            let plain =
                value.app == nil && value.platform == .apple && value.package == nil
                && value.file == written.source?.file && placeKept
            particulars = plain ? nil : ParticularsBox(value)
        }

        // By the URL's UTF-8, kept as bytes or as a string alike. Not by
        // Swift's canonical `==`: `é` and `e` + U+0301 are two URLs to the
        // matcher and to the duplicate check, so two entries here too.
        public static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.expectation == rhs.expectation && lhs.kept == rhs.kept
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

/// A links file's bytes and name, held once for all the entries the
/// scanner reads from it.
final class LinkListSource: Sendable {
    let bytes: [UInt8]
    let file: String?

    init(bytes: [UInt8], file: String?) {
        self.bytes = bytes
        self.file = file
    }

    /// Calls `body` with `count` bytes from `start`, lent in place.
    func withBytes<Result>(start: Int32, count: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { buffer in
            body(UnsafeBufferPointer(rebasing: buffer[Int(start)..<Int(start) + Int(count)]))
        }
    }
}

/// An entry's URL: a string, or a span of a links file's bytes that the
/// scanner found valid UTF-8 without escapes or control characters, so the
/// span is the string's UTF-8 and its JSON as written.
enum WrittenURL: Sendable {
    case string(String)
    case bytes(LinkListSource, start: Int32, count: Int32)

    var string: String {
        switch self {
        case .string(let text): text
        case .bytes: withUTF8 { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// The file whose bytes hold the URL; `nil` for a string.
    var source: LinkListSource? {
        if case .bytes(let source, _, _) = self { return source }
        return nil
    }

    /// Calls `body` with the URL's UTF-8, without copying a span.
    func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch self {
        case .string(var text):
            return text.withUTF8(body)
        case .bytes(let source, let start, let count):
            return source.withBytes(start: start, count: count, body)
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

    /// Appends the path's ``JSONPath/description`` without making the
    /// path: a list's key is an identifier, written bare.
    func appendDescription(to bytes: inout [UInt8]) {
        switch self {
        case .listed(let key, let index):
            bytes += key.rawValue.utf8
            bytes.append(UInt8(ascii: "["))
            bytes += String(index).utf8
            bytes.append(UInt8(ascii: "]"))
        case .other(let path):
            bytes += path.description.utf8
        }
    }
}

/// The keys of a links file's lists.
enum LinkListKey: String, Sendable, Hashable, CaseIterable {
    case deepLinkable = "deep_linkable_urls"
    case nonDeepLinkable = "non_deep_linkable_urls"
    case links
}
