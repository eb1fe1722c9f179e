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
///
/// An entry with `"platform": "android"` is judged by the dynamic App Link
/// rules of the host's `assetlinks.json` instead, for the app its
/// `"package"` names (or the run's package); Apple's keys are errors there,
/// and `"package"` is an error on an Apple entry.
///
/// The file is the tool's own input, so it is read strictly: it must pass
/// the bundled ``JSONSchema/links`` schema (`schema/links.schema.json`), and
/// a key written twice is an error. A typo must never shrink the list.
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

        /// Whether the app opens when the entry passes.
        public var opensApp: Bool { self == .matched }
    }

    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Reads an expectations file.
    ///
    /// - Parameter file: the file's name, carried by the error and the entries.
    public init(bytes: [UInt8], file: String? = nil) throws(LinkExpectationsError) {
        // The common shape without a tree; anything else, errors included,
        // is read (and explained) by the parser and the schema.
        if let entries = LinkListScanner.entries(of: bytes, file: file) {
            self.init(entries: entries)
            return
        }
        try self.init(parsing: bytes, file: file)
    }

    /// Reads an expectations file through the JSON parser and the schema,
    /// whatever its shape: the reference the scanner is tested against.
    init(parsing bytes: [UInt8], file: String?) throws(LinkExpectationsError) {
        let document: JSONDocument
        do {
            document = try JSONParser().parse(bytes)
        } catch {
            throw LinkExpectationsError(file: file, problems: [.error("json.syntax", at: .root, error.description)])
        }
        let duplicates = document.duplicateKeys.map { path in
            Diagnostic.error(
                "json.duplicate-key",
                at: path,
                "this key is written more than once; only the last value would be read, so the earlier ones would be lost"
            )
        }
        try self.init(json: document.value, file: file, problems: duplicates)
    }

    /// Reads an already parsed expectations document.
    public init(json: JSONValue, file: String? = nil) throws(LinkExpectationsError) {
        try self.init(json: json, file: file, problems: [])
    }

    private init(json: JSONValue, file: String?, problems: [Diagnostic]) throws(LinkExpectationsError) {
        var problems = problems + JSONSchema.links.validate(json).map(Self.diagnostic(for:))
        if let hint = Self.associationFileHint(json) { problems.insert(hint, at: 0) }
        guard problems.isEmpty else { throw LinkExpectationsError(file: file, problems: problems) }
        self.entries = try LinkExpectationsReader(file: file).entries(of: json)
    }

    /// A schema violation as a finding. The root's `anyOf` would explain
    /// itself by its first alternative alone ("missing deep_linkable_urls"),
    /// which is not the whole rule.
    private static func diagnostic(for violation: SchemaViolation) -> Diagnostic {
        if violation.keyword == "additionalProperties", case .key(let key)? = violation.path.components.last,
            let known = JSONSchema.links.declaredKeys(atSchemaPath: violation.schemaPath)
        {
            return .error("schema.additionalProperties", at: violation.path, unknownKey(key, known: known))
        }
        if let platformProblem = platformDiagnostic(for: violation) { return platformProblem }
        guard violation.path.isRoot, violation.schemaPath.hasPrefix("#/anyOf/") else {
            return .error("schema.\(violation.keyword)", at: violation.path, violation.message)
        }
        return .error(
            "schema.anyOf",
            at: .root,
            #"no list of URLs: give at least one of "deep_linkable_urls", "non_deep_linkable_urls" or "links""#
        )
    }

    /// A key of one platform in an entry of the other: the schema can only
    /// say "not allowed" or "required"; say which key the entry needs.
    private static func platformDiagnostic(for violation: SchemaViolation) -> Diagnostic? {
        let schemaPath = violation.schemaPath
        if schemaPath.contains("/then/properties/appID") || schemaPath.contains("/then/properties/bundleID") {
            guard case .key(let key)? = violation.path.components.last else { return nil }
            return .error(
                "links.platform-key",
                at: violation.path,
                #"\#(JSONValue.string(key).serialized()) names an iOS app, but this entry is "platform": "android"; did you mean "package" (the Android application ID)?"#
            )
        }
        guard schemaPath.contains("/dependentSchemas/package") else { return nil }
        return .error(
            "links.platform-key",
            at: violation.path,
            #""package" names an Android app, but this entry is for apple (the default); add "platform": "android", or name the iOS app with "bundleID""#
        )
    }

    /// The evaluator's wording speaks of what Apple's system ignores; here
    /// it is aasa that would read nothing under the key.
    private static func unknownKey(_ key: String, known: [String]) -> String {
        let quoted = { (text: String) in JSONValue.string(text).serialized() }
        if let suggestion = SchemaMessages.closest(to: key, among: known) {
            return "unknown key \(quoted(key)); did you mean \(quoted(suggestion))?"
        }
        return "unknown key \(quoted(key)) (allowed: \(known.map(quoted).joined(separator: ", ")))"
    }

    /// An association file passed where the links file belongs fails the
    /// schema with a list of unknown keys; say what happened instead.
    private static func associationFileHint(_ json: JSONValue) -> Diagnostic? {
        let services = ["applinks", "webcredentials", "appclips", "activitycontinuation"]
        guard let keys = json.objectValue?.keys, keys.contains(where: services.contains) else { return nil }
        return .error(
            "links.association-file",
            at: .root,
            "this is an apple-app-site-association file, not a links file (it has \(keys.filter(services.contains).joined(separator: ", ")))"
        )
    }
}

/// Turns a schema-valid document into entries. The schema has already
/// checked every shape; the reader still refuses anything else rather than
/// skipping it, so a drift between the two can never drop entries silently.
private struct LinkExpectationsReader {
    var file: String?

    func entries(of json: JSONValue) throws(LinkExpectationsError) -> [LinkExpectations.Entry] {
        let lists: [(key: String, expectation: LinkExpectations.Expectation?)] = [
            ("deep_linkable_urls", .matched),
            ("non_deep_linkable_urls", .notMatched),
            ("links", nil),
        ]
        var entries: [LinkExpectations.Entry] = []
        for (key, expectation) in lists {
            guard let list = json[key] else { continue }
            let listPath = JSONPath.root.appending(key)
            guard let elements = list.arrayValue else { throw unreadable(listPath) }
            entries.reserveCapacity(entries.count + elements.count)
            for (index, element) in elements.enumerated() {
                entries.append(try entry(element, defaultExpectation: expectation, path: listPath.appending(index)))
            }
        }
        return entries
    }

    private func entry(
        _ element: JSONValue,
        defaultExpectation: LinkExpectations.Expectation?,
        path: JSONPath
    ) throws(LinkExpectationsError) -> LinkExpectations.Entry {
        if let url = element.stringValue, let defaultExpectation {
            return .init(url: url, expectation: defaultExpectation, path: path, file: file)
        }
        guard let object = element.objectValue, let url = object["url"]?.stringValue else {
            throw unreadable(path)
        }
        let written = object["expect"].map { $0.stringValue.flatMap(LinkExpectations.Expectation.init(rawValue:)) }
        guard let expectation = written ?? defaultExpectation else { throw unreadable(path) }
        let app: LinkTestApp?
        switch (object["appID"]?.stringValue, object["bundleID"]?.stringValue) {
        case (let appID?, nil): app = .appID(appID)
        case (nil, let bundleID?): app = .bundleID(bundleID)
        default: app = nil
        }
        var platform = LinkPlatform.apple
        if let written = object["platform"] {
            guard let value = written.stringValue.flatMap(LinkPlatform.init(rawValue:)) else { throw unreadable(path) }
            platform = value
        }
        return .init(
            url: url,
            expectation: expectation,
            app: app,
            platform: platform,
            package: object["package"]?.stringValue,
            path: path,
            file: file
        )
    }

    private func unreadable(_ path: JSONPath) -> LinkExpectationsError {
        LinkExpectationsError(
            file: file,
            problems: [.error("links.unreadable", at: path, "this value does not have the shape of a links entry")]
        )
    }
}
