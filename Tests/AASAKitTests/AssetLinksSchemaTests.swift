import Foundation
import Testing

@testable import AASAKit

/// The published assetlinks.json schema: the same bytes as the bundled one,
/// a valid 2020-12 document, and in agreement with the validator's model.
@Suite("assetlinks.json schema")
struct AssetLinksSchemaTests {
    static let repository = URL(filePath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The schema users point their editors at is the one the package ships.
    @Test func repositoryCopyIsIdenticalToTheBundledResource() throws {
        let bundled = try Data(
            contentsOf: Self.repository.appending(path: "Sources/AASAKit/Resources/assetlinks.schema.json")
        )
        let published = try Data(contentsOf: Self.repository.appending(path: "schema/assetlinks.schema.json"))
        #expect(bundled == published)
        let schema = try JSONParser().parse(Array(published)).value
        #expect(schema["$schema"]?.stringValue == "https://json-schema.org/draft/2020-12/schema")
        #expect(schema["$id"]?.stringValue == "https://swift-aasa.invalid/schema/assetlinks.schema.json")
        _ = try JSONSchema(bytes: Array(published))
    }

    /// The shared corpus: AASAKit's evaluator and validator agree with its
    /// labels, as python-jsonschema must in CI (.ci/check-recipes.sh).
    @Test func corpusVerdictsAgree() throws {
        let corpus = try JSONParser().parse(try validateFixture("assetlinks-corpus.json")).value
        let cases = try #require(corpus["cases"]?.arrayValue)
        #expect(cases.count > 60)
        for entry in cases {
            let name = entry["name"]?.stringValue ?? "?"
            let file = try #require(entry["file"])
            let valid = try #require(entry["valid"]?.boolValue)
            #expect(JSONSchema.assetLinks.validate(file).isEmpty == valid, "\(name)")
            let report = AssetLinksValidator().validate(bytes: Array(file.serialized().utf8))
            #expect(report.hasErrors == !valid, "\(name)")
        }
    }

    /// `$` would let a trailing newline through in the evaluator's regex
    /// engine; the patterns end with a lookahead instead.
    @Test func patternsRejectATrailingNewline() throws {
        let relation = AssetLinksSample.file(relation: #"["delegate_permission/common.handle_all_urls\n"]"#)
        #expect(try !AssetLinksSample.schemaAccepts(relation))
        let site = AssetLinksSample.file(target: #"{"namespace":"web","site":"https://example.com\n"}"#)
        #expect(try !AssetLinksSample.schemaAccepts(site))
    }

    /// What the matcher reads as a malformed rule set is what the schema
    /// rejects under `relation_extensions`, and nothing else is.
    @Test(arguments: [
        (##"[{"/": "/a", "?": {"b": "c"}, "#": "d", "exclude": true, "comments": "e"}]"##, false),
        (#"[{"/": "/a", "comment": "e"}]"#, true),
        (#"[{"?": "b=c"}]"#, true),
        (#"[{"exclude": 1}]"#, true),
        (#"[3]"#, true),
        (#""x""#, true),
    ])
    func ruleSetMalformation(_ components: String, _ malformed: Bool) throws {
        let json = AssetLinksSample.rules(components)
        let violations = JSONSchema.assetLinks.validate(try JSONParser().parse(Array(json.utf8)).value)
        #expect(violations.allSatisfy(AssetLinksViolationReader.isInRuleSet))
        #expect(!violations.isEmpty == malformed)
        let result = try AssetLinksMatcherTests.evaluate("https://h/a", in: json)
        #expect((result.decision == .intentFilters) == malformed, "\(result.reason)")
    }
}
