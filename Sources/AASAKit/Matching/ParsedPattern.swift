/// A pattern string split into tokens with its variables resolved.
struct ParsedPattern: Sendable {
    /// Apple's matcher recurses once per non-trailing `*` and per variable
    /// and gives up past this depth ("pattern too complex").
    static let maximumDepth = 64

    var tokens: [PatternToken]
    /// Variable names in order of first use (user-defined and built-in).
    var variables: [String]
    /// Set when the pattern can never match.
    var failure: PatternFailure?
    /// The recursion depth Apple's matcher needs to match the pattern.
    var depth: Int

    init(_ pattern: String, variables table: VariableTable) {
        tokens = []
        variables = []
        failure = nil
        let scalars = Array(pattern.unicodeScalars)
        // At most one token per scalar: one allocation, not a growing array.
        tokens.reserveCapacity(scalars.count)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "$", index + 1 < scalars.count, scalars[index + 1] == "(" {
                guard let close = scalars[(index + 2)...].firstIndex(of: ")") else {
                    failure = failure ?? .unterminatedVariable
                    break
                }
                var name = ""
                name.unicodeScalars.append(contentsOf: scalars[(index + 2)..<close])
                if !variables.contains(name) { variables.append(name) }
                if let token = table.token(for: name) {
                    tokens.append(token)
                } else {
                    failure = failure ?? .undefinedVariable(name)
                }
                index = close + 1
                continue
            }
            Self.append(Self.plainToken(scalar), to: &tokens)
            index += 1
        }
        depth = Self.depth(of: tokens)
        if failure == nil, depth > Self.maximumDepth {
            failure = .tooComplex(depth: depth)
        }
    }

    /// Tokens of a variable value: `*` and `?` are special, the rest literal.
    /// A value containing `$(` yields `nil` (*open*: we do not expand nested
    /// variables; that alternative never matches).
    static func valueTokens(_ value: String) -> [PatternToken]? {
        guard !value.contains("$(") else { return nil }
        var tokens: [PatternToken] = []
        for scalar in value.unicodeScalars {
            append(plainToken(scalar), to: &tokens)
        }
        return tokens
    }

    /// Whether the pattern is `*` (after collapsing): it matches anything,
    /// an absent component included.
    var isMatchAll: Bool { failure == nil && tokens == [.star] }

    private static func plainToken(_ scalar: Unicode.Scalar) -> PatternToken {
        switch scalar {
        case "*": .star
        case "?": .any
        default: .literal(scalar)
        }
    }

    private static func append(_ token: PatternToken, to tokens: inout [PatternToken]) {
        // Consecutive `*` collapse.
        if token == .star, tokens.last == .star { return }
        tokens.append(token)
    }

    private static func depth(of tokens: [PatternToken]) -> Int {
        var depth = 0
        for (offset, token) in tokens.enumerated() {
            switch token {
            case .star where offset < tokens.count - 1: depth += 1
            case .builtin: depth += 1
            case .variable(_, let alternatives):
                depth += 1 + (alternatives.map { $0.filter { $0 == .star }.count }.max() ?? 0)
            default: break
            }
        }
        return depth
    }
}

/// Resolves `$(name)`: user-defined variables first, then the built-ins
/// (a user `digit` shadows the built-in, docs/SEMANTICS.md §5).
struct VariableTable: Sendable {
    private var user: [String: PatternToken]
    private var region: PatternToken
    private var language: PatternToken

    /// The built-in `$(region)` and `$(lang)` of the bundled snapshot, built
    /// once: 876 alternatives that every matcher and every unreachable-rule
    /// check of every loaded file would otherwise rebuild (a tenth of the
    /// lints' time on a 15-rule file).
    private static let snapshotBuiltins = (
        region: builtin("region", ISOCodes.snapshot.regions),
        language: builtin("lang", ISOCodes.snapshot.languages)
    )

    /// A table over the bundled ISO code snapshot.
    init(userVariables: [String: [String]]) {
        self.init(
            userVariables: userVariables,
            region: Self.snapshotBuiltins.region,
            language: Self.snapshotBuiltins.language
        )
    }

    init(userVariables: [String: [String]], codes: ISOCodes) {
        self.init(
            userVariables: userVariables,
            region: Self.builtin("region", codes.regions),
            language: Self.builtin("lang", codes.languages)
        )
    }

    private init(userVariables: [String: [String]], region: PatternToken, language: PatternToken) {
        user = userVariables.reduce(into: [:]) { table, entry in
            table[entry.key] = .variable(
                name: entry.key,
                alternatives: entry.value.compactMap(ParsedPattern.valueTokens)
            )
        }
        self.region = region
        self.language = language
    }

    private static func builtin(_ name: String, _ codes: [String]) -> PatternToken {
        .variable(name: name, alternatives: codes.map { $0.unicodeScalars.map(PatternToken.literal) })
    }

    func token(for name: String) -> PatternToken? {
        if let token = user[name] { return token }
        if let builtin = BuiltinClass(rawValue: name) { return .builtin(builtin) }
        switch name {
        case "region": return region
        case "lang": return language
        default: return nil
        }
    }
}
