import Foundation
import Testing

@testable import AASAChecks

/// How old Apple's CDN copy is and when it can change, from its headers.
@Suite struct CDNFreshnessTests {
    private static let date = "Sun, 06 Nov 1994 08:49:37 GMT"
    private static let received = Date(timeIntervalSince1970: 0)

    private func freshness(_ headers: [(String, String)]) -> CDNFreshness {
        let response = FetchedResponse(
            url: "https://cdn/a/v1/example.com",
            status: 200,
            reasonPhrase: "OK",
            headers: headers.map { (name: $0.0, value: $0.1) },
            body: [],
            transferredBytes: 0
        )
        return CDNFreshness(response: response, receivedAt: Self.received)
    }

    @Test func maxAgeCountsFromWhenTheCopyWasMade() {
        let fresh = freshness([("Date", Self.date), ("Age", "3600"), ("Cache-Control", "public, max-age=86400")])
        #expect(fresh.age == 3600)
        #expect(fresh.maxAge == 86_400)
        #expect(fresh.copiedAt.formatted(.iso8601) == "1994-11-06T07:49:37Z")
        #expect(fresh.refetchNotBefore?.formatted(.iso8601) == "1994-11-07T07:49:37Z")
        #expect(
            fresh.summary
                == "copy 1 h old (Age 3600); kept for 24 h (max-age 86400): Apple's CDN refetches no earlier than 1994-11-07T07:49:37Z (in 23 h)"
        )
        #expect(fresh.json["refetchNotBefore"] == "1994-11-07T07:49:37Z")
    }

    @Test func sharedCacheLifetimeWins() {
        let fresh = freshness([("Date", Self.date), ("Cache-Control", "max-age=60, s-maxage=\"7200\"")])
        #expect(fresh.maxAge == 7200)
    }

    @Test func expiresIsTheFallback() {
        let fresh = freshness([("Date", Self.date), ("Expires", "Sun, 06 Nov 1994 10:49:37 GMT")])
        #expect(fresh.refetchNotBefore?.formatted(.iso8601) == "1994-11-06T10:49:37Z")
        #expect(fresh.summary.hasSuffix("(in 2 h)"))
    }

    @Test func noLifetimeSaysSoInsteadOfGuessing() {
        let fresh = freshness([("Age", "90")])
        #expect(fresh.refetchNotBefore == nil)
        #expect(fresh.date == Self.received)
        #expect(
            fresh.summary
                == "copy 1 min old (Age 90); no cache lifetime sent: Apple only says the CDN refreshes within about 24 hours"
        )
    }

    @Test func anExpiredCopyIsDue() {
        let fresh = freshness([("Date", Self.date), ("Age", "900"), ("Cache-Control", "max-age=600")])
        #expect(fresh.summary.hasSuffix("(already due)"))
    }

    /// A CDN 404 used to read "CDN copy 0 s old (no Age header)": the CDN
    /// has no copy, and the age shown was made up.
    @Test func aCachedFailureIsNotCalledACopy() {
        func failure(_ headers: [(String, String)]) -> CDNFreshness {
            let response = FetchedResponse(
                url: "https://cdn/a/v1/example.com",
                status: 404,
                reasonPhrase: "Not Found",
                headers: headers.map { (name: $0.0, value: $0.1) },
                body: [],
                transferredBytes: 0
            )
            return CDNFreshness(response: response, receivedAt: Self.received)
        }
        let bare = failure([])
        #expect(bare.subject == .failure(statusLine: "404 Not Found"))
        #expect(!bare.summary.contains("copy 0 s old"))
        #expect(
            bare.summary
                == "has no copy: its 404 Not Found answer carries no Age header; no cache lifetime sent: Apple only says the CDN refreshes within about 24 hours"
        )
        #expect(bare.json["of"] == "failure")
        let cached = failure([("Date", Self.date), ("Age", "42"), ("Cache-Control", "max-age=1800")])
        #expect(
            cached.summary
                == "has no copy: its 404 Not Found answer is cached, 42 s old (Age 42); kept for 30 min (max-age 1800): Apple's CDN asks the origin again no earlier than 1994-11-06T09:18:55Z (in 29 min)"
        )
        #expect(freshness([]).json["of"] == "copy")
    }

    @Test(arguments: [
        (59.0, "59 s"), (61, "1 min"), (3600, "1 h"), (3660, "1 h 1 min"), (172_800, "2 d"), (176_400, "2 d 1 h"),
    ])
    func spans(seconds: Double, text: String) {
        #expect(CDNFreshness.span(seconds) == text)
    }
}
