/// Wrongly typed rules and keys. The schema rejects them; these lints say
/// what the system does instead, which is never an error on its side (§2):
/// a non-object component matches every URL, a non-string pattern is
/// ignored, a non-boolean flag is coerced.
struct ComponentLints: LintRule {
    static let flagKeys = ["exclude", "caseSensitive", "percentEncoded"]

    func diagnostics(in context: LintContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        if let defaults = context.applinks?["defaults"]?.objectValue {
            diagnostics += keyDiagnostics(
                defaults,
                at: LintContext.applinksPath.appending("defaults"),
                isDefaults: true
            )
        }
        for (itemPath, item) in context.detailItems {
            if let defaults = item["defaults"]?.objectValue {
                diagnostics += keyDiagnostics(defaults, at: itemPath.appending("defaults"), isDefaults: true)
            }
            if case .array(let components) = item["components"] {
                let componentsPath = itemPath.appending("components")
                for (offset, component) in components.enumerated() {
                    guard let object = component.objectValue else {
                        diagnostics.append(nonObjectComponent(component, at: componentsPath.appending(offset)))
                        continue
                    }
                    diagnostics += keyDiagnostics(object, at: componentsPath.appending(offset), isDefaults: false)
                }
            }
            if case .array(let paths) = item["paths"] {
                for (offset, entry) in paths.enumerated() where entry.stringValue == nil {
                    diagnostics.append(
                        .error(
                            "lint.legacy-path-not-string",
                            at: itemPath.appending("paths").appending(offset),
                            """
                            this paths entry is \(article(entry.typeName)), not a string; the system treats it as a rule \
                            that matches every URL
                            """
                        )
                    )
                }
            }
        }
        return diagnostics
    }

    private func nonObjectComponent(_ value: JSONValue, at path: JSONPath) -> Diagnostic {
        .error(
            "lint.component-not-object",
            at: path,
            """
            this component is \(article(value.typeName)), not an object; the system treats it as a rule that matches \
            every URL, so the app opens for every link that reaches it
            """
        )
    }

    /// The pattern and flag keys of a component or defaults object.
    private func keyDiagnostics(
        _ object: JSONObject,
        at objectPath: @autoclosure () -> JSONPath,
        isDefaults: Bool
    ) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let scope = isDefaults ? "rule that inherits these defaults" : "rule"
        // The paths of the object and of its keys are built only for a
        // finding: this runs for every component of every file on load,
        // and most keys are fine.
        for key in object.keys {
            guard let value = object[key] else { continue }
            switch (key, value) {
            case ("/", .string), ("#", .string), ("?", .string):
                continue
            case ("/", _), ("#", _):
                let part = key == "/" ? "path" : "fragment"
                diagnostics.append(
                    .error(
                        "lint.ignored-pattern",
                        at: objectPath().appending(key),
                        """
                        \(quoted(key)) is \(article(value.typeName)), not a string; the system ignores the key, \
                        so the \(scope) does not check the \(part) and matches more URLs than written
                        """
                    )
                )
            case ("?", .object(let items)):
                diagnostics += queryDictionaryDiagnostics(items, at: objectPath().appending(key), scope: scope)
            case ("?", _):
                diagnostics.append(
                    .error(
                        "lint.ignored-pattern",
                        at: objectPath().appending(key),
                        """
                        "?" is \(article(value.typeName)), neither a string nor an object; the system ignores the key, \
                        so the \(scope) matches any query
                        """
                    )
                )
            case _ where value.boolValue == nil && Self.flagKeys.contains(key):
                diagnostics.append(nonBooleanFlag(key, value, at: objectPath().appending(key)))
            default:
                continue
            }
        }
        return diagnostics
    }

    /// A dictionary `?` with any non-string value is ignored whole (§3.2.4).
    /// JSON object keys are always strings, so only values can be wrong.
    private func queryDictionaryDiagnostics(
        _ items: JSONObject,
        at path: @autoclosure () -> JSONPath,
        scope: String
    ) -> [Diagnostic] {
        items.keys.compactMap { name in
            guard let value = items[name], value.stringValue == nil else { return nil }
            return .error(
                "lint.query-dictionary-not-string",
                at: path().appending(name),
                """
                the value for query item \(quoted(name)) is \(article(value.typeName)), not a string; \
                the system then ignores the whole "?" dictionary, so the \(scope) matches any query
                """
            )
        }
    }

    private func nonBooleanFlag(_ key: String, _ value: JSONValue, at path: JSONPath) -> Diagnostic {
        let effective = ComponentKeys.flag(value, default: false)
        let reading: String
        switch value {
        case .number:
            reading = "the system reads a number as true when it is non-zero"
        case .string(let text) where ["true", "false"].contains(text.lowercased()):
            reading = "the system reads the string \(quoted(text)) as its boolean"
        default:
            reading =
                "the system converts only numbers and the strings \"true\"/\"false\", and reads \(article(value.typeName)) as false"
        }
        return .warning(
            "lint.non-boolean-flag",
            at: path,
            "\(key) should be a boolean; \(reading), so it is \(effective)"
        )
    }
}

/// `a string`, `an object`, `an integer`, for messages.
func article(_ typeName: String) -> String {
    let vowels: Set<Character> = ["a", "e", "i", "o", "u"]
    guard let first = typeName.first else { return typeName }
    return (vowels.contains(first) ? "an " : "a ") + typeName
}
