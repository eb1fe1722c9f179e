/// A regression list of URLs and what the association file must do with
/// each: the `links.json` a team keeps next to its AASA file and runs in CI.
///
/// Two forms are read, and can be mixed in one file:
///
/// ```json
/// {
///   "deep_linkable_urls": ["https://example.com/menu", ...],
///   "non_deep_linkable_urls": ["https://example.com/account", ...]
/// }
/// ```
///
/// is the seed validator's format: a deep-linkable URL must open the app (be
/// *matched* by a rule that is not an exclusion); a non-deep-linkable URL
/// must not (be *blocked* by an exclusion, or matched by no rule). Any entry
/// may instead be an object that names the exact decision or the app:
///
/// ```json
/// {"url": "https://example.com/help", "expect": "blocked", "bundleID": "com.example.app"}
/// ```
///
/// and a top-level `"links"` array holds such objects only, each with its
/// `expect`. `appID` (with the team prefix) or `bundleID` (without) on an
/// entry overrides the app the whole run is for.
public struct LinkExpectations: Sendable, Hashable {
    /// The outcome an entry asks for.
    public enum Expectation: String, Sendable, Hashable, CaseIterable {
        /// A rule that is not an exclusion matched: the app opens.
        case matched
        /// An exclusion rule matched first: the browser opens.
        case blocked
        /// No rule matched: the browser opens.
        case none
        /// Blocked or no rule matched, either will do: the seed's
        /// `non_deep_linkable_urls`.
        case notMatched = "not-matched"

        /// `deep_linkable_urls`.
        public static let deepLinkable = Expectation.matched
    }

    /// One URL to test.
    public struct Entry: Sendable, Hashable {
        /// The URL as written in the file, usually unencoded.
        public var url: String
        public var expectation: Expectation
        /// The app this entry is for, when it names one.
        public var app: LinkTestApp?
        /// Where the entry sits in the expectations file.
        public var path: JSONPath

        public init(url: String, expectation: Expectation, app: LinkTestApp? = nil, path: JSONPath = .root) {
            self.url = url
            self.expectation = expectation
            self.app = app
            self.path = path
        }
    }

    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Reads an expectations file.
    ///
    /// - Parameter file: the file's name, carried by the error.
    public init(bytes: [UInt8], file: String? = nil) throws(LinkExpectationsError) {
        let value: JSONValue
        do {
            value = try JSONParser().parse(bytes).value
        } catch {
            throw LinkExpectationsError(file: file, path: .root, message: error.description)
        }
        try self.init(json: value, file: file)
    }

    /// Reads an already parsed expectations document.
    public init(json: JSONValue, file: String? = nil) throws(LinkExpectationsError) {
        guard let root = json.objectValue else {
            throw LinkExpectationsError(
                file: file,
                path: .root,
                message:
                    "expected an object with \"deep_linkable_urls\" and \"non_deep_linkable_urls\", found \(json.typeName)"
            )
        }
        let lists: [(key: String, expectation: Expectation?)] = [
            ("deep_linkable_urls", .matched),
            ("non_deep_linkable_urls", .notMatched),
            ("links", nil),
        ]
        guard lists.contains(where: { root[$0.key] != nil }) else {
            throw LinkExpectationsError(
                file: file,
                path: .root,
                message: "no \"deep_linkable_urls\", \"non_deep_linkable_urls\" or \"links\" list found"
            )
        }
        var entries: [Entry] = []
        for (key, expectation) in lists {
            guard let list = root[key] else { continue }
            let listPath = JSONPath.root.appending(key)
            guard let elements = list.arrayValue else {
                throw LinkExpectationsError(
                    file: file,
                    path: listPath,
                    message: "expected an array, found \(list.typeName)"
                )
            }
            for (index, element) in elements.enumerated() {
                entries.append(
                    try Self.entry(
                        element,
                        defaultExpectation: expectation,
                        path: listPath.appending(index),
                        file: file
                    )
                )
            }
        }
        self.entries = entries
    }

    private static func entry(
        _ element: JSONValue,
        defaultExpectation: Expectation?,
        path: JSONPath,
        file: String?
    ) throws(LinkExpectationsError) -> Entry {
        if let url = element.stringValue, let defaultExpectation {
            return Entry(url: url, expectation: defaultExpectation, path: path)
        }
        guard let object = element.objectValue else {
            let wanted = defaultExpectation == nil ? "an object" : "a URL string or an object"
            throw LinkExpectationsError(
                file: file,
                path: path,
                message: "expected \(wanted), found \(element.typeName)"
            )
        }
        guard let url = object["url"]?.stringValue else {
            throw LinkExpectationsError(file: file, path: path, message: "the entry has no \"url\" string")
        }
        let expectation: Expectation
        if let written = object["expect"] {
            guard let name = written.stringValue, let parsed = Expectation(rawValue: name) else {
                let allowed = Expectation.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                throw LinkExpectationsError(
                    file: file,
                    path: path.appending("expect"),
                    message: "\"expect\" must be one of \(allowed), found \(written.serialized())"
                )
            }
            expectation = parsed
        } else if let defaultExpectation {
            expectation = defaultExpectation
        } else {
            throw LinkExpectationsError(file: file, path: path, message: "an entry of \"links\" needs \"expect\"")
        }
        return Entry(url: url, expectation: expectation, app: try app(of: object, path: path, file: file), path: path)
    }

    private static func app(
        of object: JSONObject,
        path: JSONPath,
        file: String?
    ) throws(LinkExpectationsError) -> LinkTestApp? {
        switch (object["appID"], object["bundleID"]) {
        case (nil, nil):
            return nil
        case (let appID?, nil):
            guard let text = appID.stringValue else {
                throw LinkExpectationsError(
                    file: file,
                    path: path.appending("appID"),
                    message: "\"appID\" must be a string"
                )
            }
            return .appID(text)
        case (nil, let bundleID?):
            guard let text = bundleID.stringValue else {
                throw LinkExpectationsError(
                    file: file,
                    path: path.appending("bundleID"),
                    message: "\"bundleID\" must be a string"
                )
            }
            return .bundleID(text)
        case (_?, _?):
            throw LinkExpectationsError(file: file, path: path, message: "give \"appID\" or \"bundleID\", not both")
        }
    }
}
