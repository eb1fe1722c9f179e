import Foundation
import NIOCore
import Testing

@testable import AASAServer

/// Entity tags and the pre-encoded responses built around them.
@Suite("Entity tags")
struct EntityTagTests {
    static let strong = EntityTag(opaque: "abc", isWeak: false)
    static let weak = EntityTag(opaque: "abc", isWeak: true)

    @Test func headerValues() {
        #expect(Self.strong.headerValue == "\"abc\"")
        #expect(Self.weak.headerValue == "W/\"abc\"")
    }

    /// (field, named under weak comparison, named under strong comparison by
    /// the strong tag).
    @Test(arguments: [
        ("\"abc\"", true, true),
        ("W/\"abc\"", true, false),
        ("\"x\", \"abc\"", true, true),
        ("\"x\",W/\"abc\"", true, false),
        ("\"a,b\",  \"abc\"", true, true),
        ("*", true, true),
        (" * ", true, true),
        ("\"abcd\"", false, false),
        ("\"ab\"", false, false),
        ("abc", false, false),
        ("w/\"abc\"", false, false),
        ("W \"abc\"", false, false),
        ("\"abc\" \"x\"", false, false),
        ("\"abc", false, false),
        ("*, \"abc\"", false, false),
        ("\"abc\", *", false, false),
        ("\"a\u{1}bc\"", false, false),
        ("", false, false),
        (",", false, false),
    ])
    func lists(field: String, weakly: Bool, strongly: Bool) {
        #expect(Self.strong.isNamed(by: field, comparison: .weak) == weakly)
        #expect(Self.strong.isNamed(by: field, comparison: .strong) == strongly)
        // A weak tag is never named under strong comparison (but `*` is).
        #expect(Self.weak.isNamed(by: field, comparison: .strong) == (strongly && field.contains("*")))
    }

    @Test func gzipRepresentationIsWeakAndIdentityStrong() throws {
        let body = Array(String(repeating: "{\"applinks\":{}}", count: 50).utf8)
        let responses = FileResponses(contents: body, opaqueTag: "abc", modified: Date(), cacheControl: "no-cache")
        #expect(responses.identity.etag == Self.strong)
        #expect(responses.gzip.etag == Self.weak)
        let gzipSize = try #require(responses.gzipSize)
        #expect(gzipSize < body.count)
        let ok = String(
            buffer: responses.gzip.ok[.keepAlive].bytes.getSlice(
                at: 0,
                length: responses.gzip.ok[.keepAlive].headLength
            )!
        )
        #expect(ok.contains("ETag: W/\"abc\"\r\n"))
        #expect(ok.contains("Content-Encoding: gzip\r\n"))
        #expect(ok.contains("Content-Length: \(gzipSize)\r\n"))
    }

    @Test func incompressibleFileHasOneRepresentation() {
        let responses = FileResponses(contents: Array("{}".utf8), opaqueTag: "abc", modified: Date(), cacheControl: "x")
        #expect(responses.gzipSize == nil)
        #expect(responses.gzip.etag == Self.strong)
    }

    /// A modification time in the future (clock skew, `touch -d`) is sent as
    /// the load time (RFC 9110 §8.8.2.1), so If-Modified-Since still works.
    @Test func futureModificationTimeIsClamped() {
        let now = Date(timeIntervalSince1970: 1_700_000_000.75)
        let future = FileResponses(
            contents: Array("{}".utf8),
            opaqueTag: "abc",
            modified: now.addingTimeInterval(86_400),
            cacheControl: "x",
            now: now
        )
        #expect(future.lastModified == 1_700_000_000)
        let past = FileResponses(
            contents: Array("{}".utf8),
            opaqueTag: "abc",
            modified: now.addingTimeInterval(-10),
            cacheControl: "x",
            now: now
        )
        #expect(past.lastModified == 1_699_999_990)
        let text = String(buffer: past.identity.ok[.close].bytes)
        #expect(text.contains("Last-Modified: \(HTTPDate.format(epochSeconds: 1_699_999_990))\r\n"))
    }
}
