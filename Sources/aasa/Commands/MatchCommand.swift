import AASAKit
import ArgumentParser

/// `aasa match`: which rule of a file decides a URL, for each app.
struct MatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Show what the system does with a URL, for every app in an association file.",
        discussion: """
            The URL is encoded the way a URL parser encodes what a person types \
            (https://example.com/fr#cartes-épargne becomes …#cartes-%C3%A9pargne) and then \
            evaluated like `swcutil verify`: the first rule whose keys all match decides, \
            an exclusion blocks the link.

            Examples:
              aasa match 'https://example.com/buy/42' --file aasa/example.com/apple-app-site-association
              aasa match 'https://example.com/help?article=7' --file f.json --app-id ABCDE12345.com.example.app --format json

            Exit status: 0 evaluated (whatever the decision), 2 the file is not JSON or the URL \
            cannot be parsed.
            """
    )

    @Argument(help: ArgumentHelp("The URL, as a person would type it.", valueName: "url"))
    var url: String

    @Option(help: ArgumentHelp("The apple-app-site-association file.", valueName: "path"))
    var file: String

    @Option(help: ArgumentHelp("The host serving the file (default: the URL's host).", valueName: "host"))
    var domain: String?

    @Option(
        name: .customLong("app-id"),
        help: ArgumentHelp("Evaluate for this app ID only (TEAMID.bundle.id).", valueName: "id")
    )
    var appID: String?

    @OptionGroup var formatting: OutputOptions

    func run() async throws {
        try run(output: .standard)
    }

    /// Evaluates and prints through `output`; bad input throws exit code 2.
    func run(output: CommandOutput) throws {
        let evaluation: MatchEvaluation
        do {
            evaluation = try evaluate()
        } catch {
            output.errorLine("error: \(error.description)")
            throw ExitCode(2)
        }
        switch formatting.format {
        case .text: evaluation.textLines().forEach(output.line)
        case .json: output.line(evaluation.json().serialized(pretty: true))
        }
    }

    func evaluate() throws(InputError) -> MatchEvaluation {
        let json = try InputFiles.json(file, what: "association file")
        guard json.objectValue != nil else {
            throw InputError("\(file): not an association file: the root is \(json.typeName), not an object")
        }
        let parsedURL: AASAURL
        do {
            parsedURL = try AASAURL(url)
        } catch {
            throw InputError("cannot evaluate \(url): \(error.description)")
        }
        let domain = (self.domain ?? parsedURL.host).lowercased()
        let matcher = AASAMatcher(file: AASAFile(json: json), domain: domain)
        let appIDs = appID.map { [$0] } ?? matcher.appIDs
        return MatchEvaluation(
            url: parsedURL,
            domain: domain,
            results: appIDs.map { ($0, matcher.evaluate(parsedURL, appID: $0)) }
        )
    }
}

/// The outcome of `aasa match`, rendered for people or machines.
struct MatchEvaluation {
    var url: AASAURL
    var domain: String
    var results: [(appID: String, result: MatchResult)]

    /// `swcutil verify`-style lines:
    /// `ABCDE12345.com.example.app: Pattern "/buy/*" matched. (rule 3, applinks.details[0].components[3])`.
    func textLines() -> [String] {
        var lines = ["URL: \(url)", "Domain: \(domain)"]
        if results.isEmpty {
            lines.append("The file lists no app IDs under applinks.details.")
        }
        for (appID, result) in results {
            lines.append("\(appID): \(Self.sentence(result))")
            for note in result.notes where result.decision != .none {
                lines.append("  note: \(note)")
            }
        }
        return lines
    }

    static func sentence(_ result: MatchResult) -> String {
        guard let rule = result.rule else {
            return "did not match (\(result.reason))."
        }
        var details = ["rule \(rule.ruleIndex)", rule.path.description]
        if rule.viaDefaults { details.append("with keys from defaults") }
        if !rule.variables.isEmpty {
            details.append("variables " + rule.variables.map { "$(\($0))" }.joined(separator: ", "))
        }
        return "\(result.reason) (\(details.joined(separator: ", ")))"
    }

    /// `{"url","domain","results":[{"appID","decision","rule","reason"}]}`;
    /// `rule` is `null` when no rule decided.
    func json() -> JSONValue {
        let entries = results.map { appID, result -> JSONValue in
            [
                "appID": .string(appID),
                "decision": .string(result.decision.rawValue),
                "rule": result.rule?.json ?? .null,
                "reason": .string(result.reason),
            ]
        }
        return [
            "url": .string(url.description),
            "domain": .string(domain),
            "results": .array(entries),
        ]
    }
}
