import AASAKit
import Configuration

/// The three layers `aasa serve` takes settings from — flags over `AASA_*`
/// environment variables over the `--config` file — each checked against
/// the configuration schema before anything is read from it.
///
/// A misspelt key, an unknown variable, a value of the wrong type or out of
/// range is an error naming where it came from, the setting and the rule,
/// with a "did you mean" for near misses: never a silently used default.
public struct ConfigurationSources: Sendable {
    /// The `--config` file, if one was given.
    public var file: String?
    /// The process environment; only `AASA_*` variables are read.
    public var environment: [String: String]
    /// Settings given as flags.
    public var flags: [FlagSetting]

    /// One flag's value for one setting: `--poll-interval 2` is
    /// `FlagSetting(flag: "--poll-interval", key: "files.pollInterval", value: .number(2))`.
    public struct FlagSetting: Sendable {
        public var flag: String
        public var key: String
        public var value: JSONValue

        public init(flag: String, key: String, value: JSONValue) {
            self.flag = flag
            self.key = key
            self.value = value
        }
    }

    public init(file: String? = nil, environment: [String: String] = [:], flags: [FlagSetting] = []) {
        self.file = file
        self.environment = environment
        self.flags = flags
    }

    /// Every layer checked, then stacked and read; throws every issue found.
    public func load(schema: ConfigurationSchema = .bundled) throws(ConfigurationError) -> ServerConfiguration {
        var issues: [ConfigurationIssue] = []
        let check = LayerCheck(schema: schema)
        let fileLayer = file.map { check.file(at: $0, issues: &issues) } ?? [:]
        let environmentLayer = check.environment(environment, issues: &issues)
        let flagLayer = check.flags(flags, issues: &issues)
        guard issues.isEmpty else { throw ConfigurationError(issues: issues) }

        let reader = ConfigReader(providers: [
            InMemoryProvider(name: "flags", values: flagLayer),
            InMemoryProvider(name: "environment", values: environmentLayer),
            InMemoryProvider(name: "file", values: fileLayer),
        ])
        let configuration = ServerConfiguration(reader: reader)
        // A certificate without its key would silently serve plain HTTP.
        if (configuration.tls.certificatePath == nil) != (configuration.tls.keyPath == nil) {
            let missing = configuration.tls.certificatePath == nil ? "tls.certificate" : "tls.key"
            let present = missing == "tls.key" ? "tls.certificate" : "tls.key"
            throw ConfigurationError(issues: [
                ConfigurationIssue(
                    source: .combined,
                    path: JSONPath([.key("tls")]),
                    rule: .incompleteTLS,
                    message: "\(present) is set but \(missing) is not: HTTPS needs both (from the file, "
                        + "the environment or the flags), or neither for plain HTTP"
                )
            ])
        }
        return configuration
    }
}
