import AASAKit
import Testing

/// The `platform` and `package` keys of a links entry, read as strictly as
/// the rest of the file.
@Suite struct LinkExpectationsPlatformTests {
    func read(_ json: String) throws(LinkExpectationsError) -> LinkExpectations {
        try LinkExpectations(bytes: Array(json.utf8), file: "links.json")
    }

    func problems(_ json: String) -> [String] {
        do {
            _ = try read(json)
            return []
        } catch {
            return error.problems.map { "\($0.path) \($0.code): \($0.message)" }
        }
    }

    @Test func androidEntriesAreRead() throws {
        let list = try read(
            #"""
            {"links":[
              {"url":"https://example.com/a","expect":"matched","platform":"android","package":"com.example.app"},
              {"url":"https://example.com/b","expect":"none","platform":"android"},
              {"url":"https://example.com/c","expect":"none","platform":"apple","bundleID":"com.example.app"}]}
            """#
        )
        #expect(list.entries.map(\.platform) == [.android, .android, .apple])
        #expect(list.entries.map(\.package) == ["com.example.app", nil, nil])
        #expect(list.entries.map(\.app) == [nil, nil, .bundleID("com.example.app")])
    }

    @Test(arguments: [
        (
            #"{"links":[{"url":"https://e.com/","expect":"none","platform":"android","bundleID":"com.e.app"}]}"#,
            #"links[0].bundleID links.platform-key: "bundleID" names an iOS app, but this entry is "platform": "android"; did you mean "package" (the Android application ID)?"#
        ),
        (
            #"{"links":[{"url":"https://e.com/","expect":"none","platform":"android","appID":"A.com.e.app"}]}"#,
            #"links[0].appID links.platform-key: "appID" names an iOS app, but this entry is "platform": "android"; did you mean "package" (the Android application ID)?"#
        ),
    ])
    func appleKeysInAnAndroidEntryAreErrors(json: String, expected: String) {
        #expect(problems(json) == [expected])
    }

    @Test func aPackageOnAnAppleEntryIsAnError() {
        let found = problems(#"{"deep_linkable_urls":[{"url":"https://e.com/","package":"com.e.app"}]}"#)
        #expect(!found.isEmpty)
        #expect(found.allSatisfy { $0.contains(#"add "platform": "android""#) })
        #expect(
            !problems(#"{"links":[{"url":"https://e.com/","expect":"none","platform":"apple","package":"com.e.app"}]}"#)
                .isEmpty
        )
    }

    @Test(arguments: [
        #"{"links":[{"url":"https://e.com/","expect":"none","platform":"Android"}]}"#,
        #"{"links":[{"url":"https://e.com/","expect":"none","platform":"ios"}]}"#,
        #"{"links":[{"url":"https://e.com/","expect":"none","platform":"android","package":"com example"}]}"#,
        #"{"links":[{"url":"https://e.com/","expect":"none","platform":"android","package":"app"}]}"#,
        #"{"links":[{"url":"https://e.com/","expect":"none","platfrom":"android"}]}"#,
    ])
    func badPlatformOrPackageValuesAreErrors(json: String) {
        #expect(!problems(json).isEmpty)
    }

    @Test func aMisspeltPlatformKeyGetsADidYouMean() {
        let found = problems(#"{"links":[{"url":"https://e.com/","expect":"none","platfrom":"android"}]}"#)
        #expect(found.contains { $0.contains(#"did you mean "platform"?"#) })
    }
}
