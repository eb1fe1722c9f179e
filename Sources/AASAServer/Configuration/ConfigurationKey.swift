import AASAKit

/// One setting of `aasa serve`, as the configuration schema declares it:
/// where it sits in the `--config` file, its type, and its environment
/// variable.
public struct ConfigurationKey: Sendable, Hashable, CustomStringConvertible {
    /// The JSON types a setting can have.
    public enum ValueType: Sendable, Hashable {
        case string
        case integer
        case number
        case boolean
        case stringArray
    }

    /// `["files", "pollInterval"]`.
    public let components: [String]
    public let type: ValueType
    /// The schema's `description` of the setting: why a value is refused,
    /// where a keyword alone (`must not match the pattern …`) does not say.
    public let summary: String?

    public init(components: [String], type: ValueType, summary: String? = nil) {
        self.components = components
        self.type = type
        self.summary = summary
    }

    /// `files.pollInterval`.
    public var description: String { components.joined(separator: ".") }

    /// Where the setting sits in the `--config` file.
    public var path: JSONPath { JSONPath(components.map { .key($0) }) }

    /// `AASA_FILES_POLL_INTERVAL`: `AASA_`, then each component with its
    /// camelCase words split by `_`, uppercased, joined by `_`.
    public var environmentName: String {
        var name = "AASA"
        for component in components {
            name += "_"
            var previousIsLower = false
            for character in component {
                if previousIsLower, character.isUppercase { name += "_" }
                name += character.isLetter || character.isNumber ? character.uppercased() : "_"
                previousIsLower = character.isLowercase
            }
        }
        return name
    }

    /// An environment variable's text as this setting's JSON value, `nil`
    /// when it is not of the type. The text is taken exactly as given:
    /// `8080 ` is not a port, `1` is not a boolean.
    func value(fromEnvironment text: String) -> JSONValue? {
        switch type {
        case .string:
            return .string(text)
        case .integer:
            return Int(text).map { .number(Double($0)) }
        case .number:
            // Decimal notation only: Swift's `Double("0x1p3")`, `inf` and `nan`
            // are not numbers a person means for a timeout.
            guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }),
                let number = Double(text), number.isFinite
            else { return nil }
            return .number(number)
        case .boolean:
            switch text {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: return nil
            }
        case .stringArray:
            // Comma-separated; an empty variable is an empty list.
            guard !text.isEmpty else { return .array([]) }
            return .array(
                text.split(separator: ",", omittingEmptySubsequences: false).map {
                    .string(String($0.trimmingCharacters(in: .whitespaces)))
                }
            )
        }
    }

    /// How messages name what was expected.
    var expectation: String {
        switch type {
        case .string: "a string"
        case .integer: "an integer"
        case .number: "a number"
        case .boolean: "true or false"
        case .stringArray: "a comma-separated list"
        }
    }
}
