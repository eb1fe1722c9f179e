import AASAKit

/// Why `aasa serve` refuses the configuration it was given: every problem
/// found in the file, the environment and the flags, reported together.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public var issues: [ConfigurationIssue]

    public init(issues: [ConfigurationIssue]) {
        self.issues = issues
    }

    /// One issue per line.
    public var description: String {
        issues.map(\.description).joined(separator: "\n")
    }
}

/// One problem with one setting: where it came from, which setting, which
/// rule it breaks, and what to do.
public struct ConfigurationIssue: Sendable, Hashable, CustomStringConvertible {
    /// Where the offending value was given.
    public enum Source: Sendable, Hashable {
        /// The `--config` file, by the path given.
        case file(String)
        /// An environment variable, by name.
        case environment(String)
        /// A command-line flag (`--poll-interval`).
        case flag(String)
        /// The settings taken together, whichever layer each came from.
        case combined
    }

    /// The rule broken, for callers to switch on.
    public enum Rule: Sendable, Hashable, CustomStringConvertible {
        /// The file cannot be read.
        case unreadableFile
        /// The file is not JSON.
        case invalidJSON
        /// The file gives a key twice.
        case duplicateKey
        /// A key or variable that is no setting.
        case unknownKey
        /// A variable's text is not of the setting's type.
        case type
        /// A schema keyword (`minimum`, `enum`, `pattern`, …) fails.
        case schema(keyword: String)
        /// `tls.certificate` without `tls.key`, or the other way round.
        case incompleteTLS

        /// The stable name messages show: `config.unknown-key`, `schema.minimum`.
        public var description: String {
            switch self {
            case .unreadableFile: "config.unreadable"
            case .invalidJSON: "json.syntax"
            case .duplicateKey: "json.duplicate-key"
            case .unknownKey: "config.unknown-key"
            case .type: "config.type"
            case .schema(let keyword): "schema.\(keyword)"
            case .incompleteTLS: "config.tls-pair"
            }
        }
    }

    public var source: Source
    /// The setting, or the place in the file, concerned; the root for a
    /// problem with the whole file.
    public var path: JSONPath
    public var rule: Rule
    public var message: String
    /// For an unknown key: the key or variable most likely meant.
    public var suggestion: String?

    public init(source: Source, path: JSONPath, rule: Rule, message: String, suggestion: String? = nil) {
        self.source = source
        self.path = path
        self.rule = rule
        self.message = message
        self.suggestion = suggestion
    }

    /// `config/aasa.json: files.pollIntervall: unknown key …`,
    /// `AASA_FILES_POLL_INTERVAL (files.pollInterval): expected a number, got "abc"`.
    public var description: String {
        let place: String
        switch source {
        case .file(let file): place = path.isRoot ? file : "\(file): \(path)"
        case .environment(let name): place = path.isRoot ? "environment variable \(name)" : "\(name) (\(path))"
        case .flag(let flag): place = "\(flag) (\(path))"
        case .combined: place = "\(path)"
        }
        return "\(place): \(message) [\(rule)]"
    }
}
