import AASAKit
import Foundation
import Testing

/// The links file is the tool's own input: read as strictly as the AASA
/// file, so a typo can never shrink the list or change the app tested.
@Suite struct LinkExpectationsTests {
    private func problems(_ text: String) -> [Diagnostic] {
        do {
            _ = try LinkExpectations(bytes: Array(text.utf8), file: "links.json")
            return []
        } catch {
            return error.problems
        }
    }

    /// The issue's cases: each used to drop the list or test the default
    /// app, and report a pass.
    @Test(arguments: [
        (
            #"{"deep_linkable_url": ["https://x/a"], "non_deep_linkable_urls": ["https://x/b"]}"#,
            "deep_linkable_url", #"did you mean "deep_linkable_urls"?"#
        ),
        (
            #"{"deep_linkable_urls": [{"url": "https://x/a", "bundleId": "com.x"}]}"#,
            "deep_linkable_urls[0].bundleId", #"did you mean "bundleID"?"#
        ),
        (
            #"{"links": [{"url": "https://x/a", "expect": "Matched"}]}"#,
            "links[0].expect", #"did you mean "matched"?"#
        ),
        (
            #"{"links": [{"url": "https://x/a", "expected": "matched"}]}"#, "links[0].expected",
            #"did you mean "expect"?"#
        ),
    ])
    func typosAreErrorsWithPathAndSuggestion(text: String, path: String, suggestion: String) throws {
        let problems = problems(text)
        let problem = try #require(problems.first { $0.path.description == path }, "\(problems)")
        #expect(problem.message.contains(suggestion), "\(problem.message)")
        #expect(problem.severity == .error)
        #expect(problem.file == "links.json")
        #expect(problem.code.hasPrefix("schema."))
    }

    @Test(arguments: [
        (#"[]"#, "(root)", "schema.type"),
        (#"{}"#, "(root)", "schema.anyOf"),
        (#"{"$schema": "https://swift-aasa.invalid/schema/links.schema.json"}"#, "(root)", "schema.anyOf"),
        (#"{"deep_linkable_urls": []}"#, "deep_linkable_urls", "schema.minItems"),
        (#"{"non_deep_linkable_urls": []}"#, "non_deep_linkable_urls", "schema.minItems"),
        (#"{"links": []}"#, "links", "schema.minItems"),
        (#"{"deep_linkable_urls": "https://x"}"#, "deep_linkable_urls", "schema.type"),
        (#"{"deep_linkable_urls": [1]}"#, "deep_linkable_urls[0]", "schema.anyOf"),
        (#"{"deep_linkable_urls": [""]}"#, "deep_linkable_urls[0]", "schema.minLength"),
        (#"{"deep_linkable_urls": [{"url": 7}]}"#, "deep_linkable_urls[0].url", "schema.type"),
        (#"{"deep_linkable_urls": [{"expect": "matched"}]}"#, "deep_linkable_urls[0]", "schema.required"),
        (#"{"links": ["https://x"]}"#, "links[0]", "schema.type"),
        (#"{"links": [{"url": "https://x"}]}"#, "links[0]", "schema.required"),
        (#"{"links": [{"url": "https://x", "expect": "yes"}]}"#, "links[0].expect", "schema.enum"),
        (#"{"links": [{"url": "https://x", "expect": "none", "appID": 5}]}"#, "links[0].appID", "schema.type"),
        (
            #"{"deep_linkable_urls": [{"url": "https://x", "appID": "A.b", "bundleID": "b"}]}"#,
            "deep_linkable_urls[0]", "schema.not"
        ),
        (#"{"deep_linkable_urls": [}"#, "(root)", "json.syntax"),
        (
            #"{"deep_linkable_urls": ["https://x/a"], "deep_linkable_urls": ["https://x/b"]}"#, "deep_linkable_urls",
            "json.duplicate-key"
        ),
        (
            #"{"links": [{"url": "https://x/a", "url": "https://x/b", "expect": "none"}]}"#, "links[0].url",
            "json.duplicate-key"
        ),
    ])
    func badFilesAreErrorsWithAPathAndACode(text: String, path: String, code: String) {
        let problems = problems(text)
        #expect(problems.contains { $0.path.description == path && $0.code == code }, "\(problems)")
        #expect(!problems.isEmpty)
    }

    @Test func anUnknownKeyWithoutALikelyMeaningListsTheAllowedOnes() throws {
        let problem = try #require(
            problems(#"{"links": [{"url": "https://x", "expect": "none", "platform": "ios"}]}"#).first
        )
        #expect(problem.message == #"unknown key "platform" (allowed: "url", "expect", "appID", "bundleID")"#)
    }

    @Test func anAssociationFileByMistakeSaysSo() throws {
        let problems = problems(#"{"applinks": {"details": []}, "webcredentials": {"apps": []}}"#)
        let first = try #require(problems.first)
        #expect(first.code == "links.association-file")
        #expect(first.message.contains("apple-app-site-association"))
    }

    @Test func everyProblemIsReportedNotJustTheFirst() {
        let codes = problems(#"{"deep_linkable_urls": [], "links": [{"url": 1, "expect": "x"}], "extra": true}"#)
            .map(\.code)
        #expect(codes.count >= 4, "\(codes)")
        #expect(codes.contains("schema.additionalProperties"))
        #expect(codes.contains("schema.minItems"))
    }

    @Test func errorsPrintLikeCompilerDiagnostics() throws {
        #expect {
            try LinkExpectations(bytes: Array(#"{"deep_linkable_url": ["https://x"]}"#.utf8), file: "links.json")
        } throws: { error in
            let lines = (error as? LinkExpectationsError)?.description.split(separator: "\n") ?? []
            return lines.contains { $0.hasPrefix("links.json: deep_linkable_url: error: unknown key") }
                && lines.contains { $0.hasPrefix("links.json: (root): error: no list of URLs") }
        }
    }

    @Test func objectEntriesInTheSeedListsDefaultTheirExpectation() throws {
        let list = try LinkExpectations(
            bytes: Array(
                #"{"deep_linkable_urls": [{"url": "https://x/a", "bundleID": "b"}], "non_deep_linkable_urls": [{"url": "https://x/b"}]}"#
                    .utf8
            ),
            file: "links.json"
        )
        #expect(list.entries.map(\.expectation) == [.matched, .notMatched])
        #expect(list.entries.first?.app == .bundleID("b"))
        #expect(list.entries.last?.path.description == "non_deep_linkable_urls[0]")
        #expect(list.entries.allSatisfy { $0.file == "links.json" })
    }

    @Test func everyFormReadsEveryEntry() throws {
        let list = try LinkExpectations(
            bytes: Array(
                #"""
                {"$schema": "https://swift-aasa.invalid/schema/links.schema.json",
                 "deep_linkable_urls": ["https://x/a", {"url": "https://x/b", "expect": "blocked", "appID": "T.b"}],
                 "non_deep_linkable_urls": ["https://x/c"],
                 "links": [{"url": "https://x/d", "expect": "none"}, {"url": "https://x/e", "expect": "not-matched"}]}
                """#.utf8
            )
        )
        #expect(list.entries.map(\.url) == ["https://x/a", "https://x/b", "https://x/c", "https://x/d", "https://x/e"])
        #expect(list.entries.map(\.expectation) == [.matched, .blocked, .notMatched, .none, .notMatched])
        #expect(list.entries[1].app == .appID("T.b"))
    }

    /// The schema users point their editors at is the one the package ships.
    @Test func repositoryCopyIsIdenticalToTheBundledResource() throws {
        let bundled = try Data(
            contentsOf: Self.repository.appending(path: "Sources/AASAKit/Resources/links.schema.json")
        )
        let published = try Data(contentsOf: Self.repository.appending(path: "schema/links.schema.json"))
        #expect(bundled == published)
        let schema = try JSONParser().parse(Array(published)).value
        #expect(schema["$schema"]?.stringValue == "https://json-schema.org/draft/2020-12/schema")
        #expect(schema["$id"]?.stringValue?.hasPrefix("https://swift-aasa.invalid/") == true)
        _ = try JSONSchema(bytes: Array(published))
    }

    /// The demo's own lists stay valid under the schema.
    @Test(arguments: ["pastaio.example", "www.pastaio.example", "pastaio-de.example", "accounts.pastaio.example"])
    func demoListsAreValid(host: String) throws {
        let bytes = try Data(contentsOf: Self.repository.appending(path: "aasa/\(host)/links.json"))
        let list = try LinkExpectations(bytes: Array(bytes), file: host)
        #expect(!list.entries.isEmpty)
    }

    private static let repository = URL(filePath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
