import AASAKit
import Configuration
import SystemPackage

/// Reads one layer of settings into a JSON object, checks it against the
/// configuration schema, and returns it as swift-configuration values.
/// Problems are appended to `issues`, all of them, not just the first.
struct LayerCheck {
    let schema: ConfigurationSchema

    /// A configuration file larger than this is refused unread.
    static let maximumFileBytes = 1 << 20

    /// Variables the repository's own scripts and tests read (`.ci/`,
    /// `deploy/`, the test suite): they reach `aasa serve` when a developer
    /// exports them, and are not settings.
    static let toolingVariables: Set<String> = [
        "AASA_CI_TOOLS", "AASA_FUZZ_SECONDS", "AASA_NGINX_SYNTAX_ONLY", "AASA_TEST_EXECUTABLE_DIR",
    ]

    func file(at path: String, issues: inout [ConfigurationIssue]) -> [AbsoluteConfigKey: ConfigValue] {
        func fail(_ rule: ConfigurationIssue.Rule, _ message: String) -> [AbsoluteConfigKey: ConfigValue] {
            issues.append(ConfigurationIssue(source: .file(path), path: .root, rule: rule, message: message))
            return [:]
        }
        let bytes: [UInt8]
        do {
            bytes = try Self.read(path)
        } catch let error as Errno {
            return fail(.unreadableFile, "cannot read the configuration file: \(error.description)")
        } catch {
            return fail(.unreadableFile, "larger than \(Self.maximumFileBytes) bytes: not a configuration file")
        }
        let document: JSONDocument
        do {
            document = try JSONParser().parse(bytes)
        } catch {
            return fail(.invalidJSON, error.description)
        }
        for duplicate in document.duplicateKeys {
            issues.append(
                ConfigurationIssue(
                    source: .file(path),
                    path: duplicate,
                    rule: .duplicateKey,
                    message: "key given twice: only the last would count"
                )
            )
        }
        return checked(document.value, source: { _ in .file(path) }, issues: &issues)
    }

    func environment(
        _ environment: [String: String],
        issues: inout [ConfigurationIssue]
    ) -> [AbsoluteConfigKey:
        ConfigValue]
    {
        var layer = JSONValue.object(JSONObject())
        var variables: [String: String] = [:]
        for (name, text) in environment.sorted(by: { $0.key < $1.key }) where name.hasPrefix("AASA_") {
            if Self.toolingVariables.contains(name) || Self.isKubernetesServiceLink(name, text) { continue }
            guard let key = schema.keys.first(where: { $0.environmentName == name }) else {
                let suggestion = suggestedVariable(for: name)
                let hint = suggestion.map { "; did you mean \($0)?" } ?? " (see config/README.md for the variables)"
                issues.append(
                    ConfigurationIssue(
                        source: .environment(name),
                        path: .root,
                        rule: .unknownKey,
                        message: "not a setting of aasa serve" + hint,
                        suggestion: suggestion
                    )
                )
                continue
            }
            guard let value = key.value(fromEnvironment: text) else {
                issues.append(
                    ConfigurationIssue(
                        source: .environment(name),
                        path: key.path,
                        rule: .type,
                        message: "expected \(key.expectation), got \(JSONValue.string(text).serialized())"
                    )
                )
                continue
            }
            layer.set(value, at: key.components)
            variables[key.description] = name
        }
        return checked(layer, source: { .environment(variables[$0.description] ?? "AASA_*") }, issues: &issues)
    }

    func flags(
        _ flags: [ConfigurationSources.FlagSetting],
        issues: inout [ConfigurationIssue]
    ) -> [AbsoluteConfigKey:
        ConfigValue]
    {
        var layer = JSONValue.object(JSONObject())
        var names: [String: String] = [:]
        for flag in flags {
            let components = flag.key.split(separator: ".").map(String.init)
            // A flag names a setting in code: a wrong name is a bug, caught by the tests.
            precondition(schema.key(at: components) != nil, "\(flag.flag) names no setting: \(flag.key)")
            layer.set(flag.value, at: components)
            names[flag.key] = flag.flag
        }
        return checked(layer, source: { .flag(names[$0.description] ?? "a flag") }, issues: &issues)
    }

    /// Validates `layer` and converts it; `source` names where the setting
    /// at a key came from.
    private func checked(
        _ layer: JSONValue,
        source: (ConfigurationKey) -> ConfigurationIssue.Source,
        issues: inout [ConfigurationIssue]
    ) -> [AbsoluteConfigKey: ConfigValue] {
        let violations = schema.schema.validate(layer)
        for violation in violations {
            issues.append(issue(for: violation, source: source))
        }
        guard violations.isEmpty else { return [:] }
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        for key in schema.keys {
            guard let value = layer.value(at: key.path), let content = Self.content(value, as: key.type) else {
                continue
            }
            values[AbsoluteConfigKey(key.components)] = ConfigValue(content, isSecret: false)
        }
        return values
    }

    private func issue(
        for violation: SchemaViolation,
        source: (ConfigurationKey) -> ConfigurationIssue.Source
    ) -> ConfigurationIssue {
        let components = violation.path.components.compactMap { component -> String? in
            if case .key(let key) = component { return key }
            return nil
        }
        // The setting the violation is in (for an array item, the array).
        let key = (0...components.count).reversed().lazy.compactMap {
            schema.key(at: Array(components.prefix($0)))
        }.first
        let origin = key.map(source) ?? source(ConfigurationKey(components: components, type: .string))
        if violation.keyword == "additionalProperties", let unknown = components.last {
            // The evaluator's wording is about keys Apple's system ignores;
            // here it is a key aasa serve would not read.
            let known = schema.names(under: Array(components.dropLast()))
            let suggestion = Suggestion.closest(to: unknown, in: known)
            let quoted = JSONValue.string(unknown).serialized()
            let hint =
                suggestion.map { "; did you mean \(JSONValue.string($0).serialized())?" }
                ?? " (allowed here: \(known.joined(separator: ", ")))"
            return ConfigurationIssue(
                source: origin,
                path: violation.path,
                rule: .unknownKey,
                message: "unknown key \(quoted)" + hint,
                suggestion: suggestion
            )
        }
        var message = violation.message
        if ["not", "pattern"].contains(violation.keyword), let summary = key?.summary {
            message += " (\(summary))"
        }
        return ConfigurationIssue(
            source: origin,
            path: violation.path,
            rule: .schema(keyword: violation.keyword),
            message: message
        )
    }

    /// The setting an unknown `AASA_*` name most likely meant: a near miss
    /// (`AASA_FILES_POLL_INTERVALL`), or the setting it is the tail of
    /// (`AASA_POLL_INTERVAL`, `AASA_PORT`).
    func suggestedVariable(for name: String) -> String? {
        let names = schema.keys.map(\.environmentName)
        if let close = Suggestion.closest(to: name, in: names) { return close }
        let tail = "_" + name.dropFirst("AASA_".count)
        return names.first { $0.hasSuffix(tail) }
    }

    /// Kubernetes gives every pod `<SERVICE>_SERVICE_HOST`, `<SERVICE>_PORT`,
    /// `<SERVICE>_PORT_8080_TCP_ADDR`, … for each Service in its namespace
    /// (unless `enableServiceLinks: false`): a Service named `aasa` must not
    /// stop the origin. No setting is in a `service` or `port` section, and
    /// `AASA_PORT` counts only with a link's value (`tcp://10.0.0.1:8080`),
    /// so a person guessing the port's name still hears of `AASA_HTTP_PORT`.
    static func isKubernetesServiceLink(_ name: String, _ value: String) -> Bool {
        if name == "AASA_PORT" {
            return ["tcp://", "udp://", "sctp://"].contains { value.hasPrefix($0) }
        }
        return name.hasPrefix("AASA_PORT_") || name.hasPrefix("AASA_SERVICE_")
    }

    private static func content(_ value: JSONValue, as type: ConfigurationKey.ValueType) -> ConfigContent? {
        switch (type, value) {
        case (.string, .string(let text)): .string(text)
        case (.integer, .number(let number)): Int(exactly: number).map { .int($0) }
        case (.number, .number(let number)): .double(number)
        case (.boolean, .bool(let flag)): .bool(flag)
        case (.stringArray, .array(let items)): .stringArray(items.compactMap(\.stringValue))
        default: nil
        }
    }

    private static func read(_ path: String) throws -> [UInt8] {
        let descriptor = try FileDescriptor.open(FilePath(path), .readOnly)
        return try descriptor.closeAfter {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = try chunk.withUnsafeMutableBytes { try descriptor.read(into: $0) }
                if count == 0 { return bytes }
                bytes += chunk.prefix(count)
                if bytes.count > maximumFileBytes { throw FileTooLarge() }
            }
        }
    }

    private struct FileTooLarge: Error {}
}

extension JSONValue {
    /// Sets `value` at the object path `components`, creating objects on the way.
    fileprivate mutating func set(_ value: JSONValue, at components: [String]) {
        guard let first = components.first, case .object(var object) = self else { return }
        if components.count == 1 {
            object[first] = value
        } else {
            var child = object[first] ?? .object(JSONObject())
            child.set(value, at: Array(components.dropFirst()))
            object[first] = child
        }
        self = .object(object)
    }
}
