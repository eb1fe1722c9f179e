import AASAKit
import Foundation

/// Findings as a SARIF 2.1.0 log, the format GitHub code scanning and other
/// static-analysis dashboards read: one run of the `aasa` tool, a rule per
/// finding code (the codes are stable, so a dashboard can track them across
/// releases), a result per finding with its file, line and column.
struct SARIFLog {
    var reports: [ValidationReport]
    /// Paths that could not be read: reported as tool notifications and an
    /// unsuccessful invocation, so a dashboard never shows a clean run for
    /// files that were not checked.
    var readFailures: [String]

    static let schemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    var json: JSONValue {
        let diagnostics = reports.flatMap(\.diagnostics)
        var codes: [String] = []
        for diagnostic in diagnostics where !codes.contains(diagnostic.code) {
            codes.append(diagnostic.code)
        }
        let driver: JSONValue = [
            "name": "aasa",
            "semanticVersion": .string(BuildInfo.version),
            "rules": .array(codes.map(Self.rule)),
        ]
        let invocation: JSONValue = [
            "executionSuccessful": .bool(readFailures.isEmpty),
            "toolExecutionNotifications": .array(
                readFailures.map { ["level": "error", "message": ["text": .string($0)]] }
            ),
        ]
        let run: JSONValue = [
            "tool": ["driver": driver],
            "invocations": [invocation],
            "columnKind": "unicodeCodePoints",
            "results": .array(diagnostics.map { Self.result($0, ruleIndex: codes.firstIndex(of: $0.code) ?? 0) }),
        ]
        return ["$schema": .string(Self.schemaURI), "version": "2.1.0", "runs": [run]]
    }

    /// A rule for a finding code. Its texts are derived from the code's
    /// family and name; the message of each result says what the system
    /// does with the file.
    static func rule(_ code: String) -> JSONValue {
        let title = ruleTitle(code)
        return [
            "id": .string(code),
            "shortDescription": ["text": .string(title)],
            "fullDescription": ["text": .string("\(title) (aasa finding code \(code)).")],
            "help": [
                "text": .string(
                    "Run `aasa validate` on the file to see every finding with its JSON path; "
                        + "each result's message says what Apple's or Google's system does with the file."
                )
            ],
        ]
    }

    /// `lint.unreachable-rule` → `Lint: unreachable rule`.
    static func ruleTitle(_ code: String) -> String {
        let families = [
            "schema": "JSON Schema", "json": "JSON", "lint": "Lint", "file": "File",
            "assetlinks": "Digital Asset Links",
        ]
        guard let dot = code.firstIndex(of: ".") else { return code }
        let family = String(code[..<dot])
        let name = code[code.index(after: dot)...].replacingOccurrences(of: "-", with: " ")
        return "\(families[family] ?? family): \(name)"
    }

    static func result(_ diagnostic: Diagnostic, ruleIndex: Int) -> JSONValue {
        var physical = JSONObject([("artifactLocation", artifactLocation(diagnostic.file ?? ""))])
        if let position = diagnostic.position {
            physical["region"] = [
                "startLine": .number(Double(position.line)), "startColumn": .number(Double(position.column)),
            ]
        }
        let location: JSONValue = [
            "physicalLocation": .object(physical),
            "logicalLocations": [["fullyQualifiedName": .string(diagnostic.path.description)]],
        ]
        return [
            "ruleId": .string(diagnostic.code),
            "ruleIndex": .number(Double(ruleIndex)),
            "level": .string(level(diagnostic.severity)),
            "message": ["text": .string("\(diagnostic.path): \(diagnostic.message)")],
            "locations": [location],
        ]
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }

    /// A relative path stays relative to the checkout (`%SRCROOT%`, which
    /// code scanning resolves against the repository); an absolute one
    /// becomes a `file:` URI. Both percent-encoded.
    static func artifactLocation(_ path: String) -> JSONValue {
        if path.hasPrefix("/") {
            return ["uri": .string(URL(fileURLWithPath: path).absoluteString)]
        }
        var relative = path
        while relative.hasPrefix("./") { relative.removeFirst(2) }
        let encoded = relative.addingPercentEncoding(withAllowedCharacters: uriPathAllowed) ?? relative
        return ["uri": .string(encoded), "uriBaseId": "%SRCROOT%"]
    }

    /// RFC 3986 unreserved characters, sub-delimiters that are safe in a
    /// relative reference's path, and `/`. Not `:` (a first segment with a
    /// colon would read as a scheme) nor `%`.
    private static let uriPathAllowed = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/!$&'()*+,;=@"
    )
}
