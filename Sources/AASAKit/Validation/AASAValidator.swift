/// Validates an apple-app-site-association file: size, JSON syntax, the JSON
/// Schema, then the lints, in one pass that reports every finding.
///
/// The origin server runs this on every load and reload, so it is total: any
/// byte string yields a report, in time linear in the input (the size cap
/// comes first, so a 10 MB file is rejected without being parsed).
public struct AASAValidator: Sendable {
    /// The largest body, uncompressed, that the system accepts: past
    /// 131,072 bytes (128 KiB) it aborts the download (§7).
    public static let maximumFileSize = 131_072

    /// The schema files are checked against.
    public var schema: JSONSchema
    private let linter = Linter()

    /// - Parameter schema: replaces the bundled AASA schema (`--schema`).
    public init(schema: JSONSchema = .appleAppSiteAssociation) {
        self.schema = schema
    }

    /// Checks `bytes`, the file as served.
    ///
    /// - Parameter file: a name for the report and its diagnostics, such as
    ///   `aasa/example.com/apple-app-site-association`.
    public func validate(bytes: [UInt8], file: String? = nil) -> ValidationReport {
        let parsed: JSONDocument
        switch Self.parse(bytes) {
        case .rejected(let diagnostic):
            return ValidationReport(file: file, diagnostics: [diagnostic])
        case .parsed(let document):
            parsed = document
        }
        var diagnostics = Self.duplicateKeyDiagnostics(parsed)
        let json = parsed.value
        guard json.objectValue != nil else {
            diagnostics.append(
                .error(
                    "schema.type",
                    at: .root,
                    """
                    expected object, got \(json.typeName); the root must be an object of services (applinks, \
                    webcredentials, …) and the system ignores a file whose root is not
                    """
                )
            )
            return ValidationReport(file: file, diagnostics: diagnostics, json: json)
        }
        diagnostics += schema.validate(json).map(Self.diagnostic(for:))
        let document = AASAFile(json: json)
        diagnostics += linter.lint(json, document: document, byteCount: bytes.count)
        return ValidationReport(file: file, diagnostics: diagnostics, json: json, document: document)
    }

    /// A schema violation as a finding. A wrong type on a structural key
    /// gains what the system does with it; wrong types inside rules are
    /// explained by the lints, unknown keys by the schema's own message.
    static func diagnostic(for violation: SchemaViolation) -> Diagnostic {
        var message = violation.message
        if violation.keyword == "type", let consequence = consequenceOfWrongType(at: violation.path) {
            message += "; \(consequence)"
        }
        return .error("schema.\(violation.keyword)", at: violation.path, message)
    }

    /// What the lenient reading (the model, §1–§2) makes of a wrongly typed
    /// structural value.
    static func consequenceOfWrongType(at path: JSONPath) -> String? {
        // Indices collapse to "[]" so one spelling covers every entry.
        let shape = path.components.map { component -> String in
            if case .key(let key) = component { return key }
            return "[]"
        }
        let services = ["webcredentials", "appclips", "activitycontinuation", "authsrv"]
        if shape == ["applinks"] {
            return "the system ignores it, so no link opens an app"
        } else if shape == ["applinks", "details"] {
            return "the system ignores it, so no app is associated"
        } else if shape.count == 2, services.contains(shape[0]), shape[1] == "apps" {
            return "the system then lists no app for this service"
        } else if shape.count == 3, shape.starts(with: ["applinks", "substitutionVariables"]) {
            return "the variable is then undefined, and rules using it never match"
        } else if shape == ["applinks", "details", "[]", "appIDs"] {
            return "the system ignores it and uses appID, if there is one"
        } else if shape == ["applinks", "details", "[]", "components"] {
            return "the system ignores it and uses paths, if there are any"
        }
        return nil
    }

    // MARK: - Shared with AssetLinksValidator

    /// What the first two steps of every validator, the size cap and the
    /// JSON parse, make of a file: a rejection is the one finding for it.
    enum Intake {
        case parsed(JSONDocument)
        case rejected(Diagnostic)
    }

    static func parse(_ bytes: [UInt8]) -> Intake {
        guard bytes.count <= maximumFileSize else {
            return .rejected(tooLarge(byteCount: bytes.count))
        }
        do {
            return .parsed(try JSONParser().parse(bytes))
        } catch {
            return .rejected(
                .error(
                    ValidationReport.syntaxCode,
                    at: .root,
                    "\(error.description); the system ignores the whole file"
                )
            )
        }
    }

    /// The finding for a file of `byteCount` bytes, over the cap. Public for
    /// readers that stop reading at the cap and know the real size from the
    /// file system (the origin's loader).
    public static func tooLarge(byteCount: Int) -> Diagnostic {
        .error(
            "file.too-large",
            at: .root,
            """
            the file is \(groupedDigits(byteCount)) bytes; the system accepts at most \
            \(groupedDigits(maximumFileSize)) bytes (128 KiB, uncompressed) and aborts past that, so none of \
            the file is used
            """
        )
    }

    /// Keys written twice: legal JSON, but only the last value counts.
    static func duplicateKeyDiagnostics(_ document: JSONDocument) -> [Diagnostic] {
        document.duplicateKeys.map { path in
            .warning(
                "json.duplicate-key",
                at: path,
                "this key is written more than once; the last value is used and the earlier ones are ignored"
            )
        }
    }

    /// `131072` as `131,072`, for messages.
    static func groupedDigits(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var text = number < 0 ? "-" : ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }
}
