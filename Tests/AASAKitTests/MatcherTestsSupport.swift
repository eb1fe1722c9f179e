@testable import AASAKit

/// Builds files and runs the matcher for the table tests.
enum MatcherFixture {
    static let appID = "ABCDE12345.com.example.app"

    /// A file whose single entry lists `appID` with `components` (JSON text).
    static func file(components: String, defaults: String? = nil, variables: String? = nil) throws -> AASAFile {
        var applinks = #""details": [{"appIDs": ["\#(appID)"], "components": \#(components)}]"#
        if let defaults { applinks += #", "defaults": \#(defaults)"# }
        if let variables { applinks += #", "substitutionVariables": \#(variables)"# }
        return try parse(#"{"applinks": {\#(applinks)}}"#)
    }

    static func parse(_ text: String) throws -> AASAFile {
        AASAFile(json: try JSONParser().parse(text).value)
    }

    /// The full result for `url` and `app` against `file`.
    static func evaluate(
        _ file: AASAFile,
        _ url: String,
        app: String = appID,
        domain: String? = nil
    ) throws -> MatchResult {
        AASAMatcher(file: file, domain: domain).evaluate(try AASAURL(url), appID: app)
    }

    /// The decision of a single-component file (`component` is JSON text).
    static func decide(_ component: String, _ url: String, variables: String? = nil) throws -> MatchDecision {
        try evaluate(file(components: "[\(component)]", variables: variables), url).decision
    }

    /// Whether the path pattern `pattern` matches the URL path `path`.
    static func pathMatches(_ pattern: String, _ path: String, flags: String = "") throws -> Bool {
        let component = #"{"/": \#(JSONValue.string(pattern).serialized())\#(flags)}"#
        return try decide(component, "https://example.com" + path) == .matched
    }
}
