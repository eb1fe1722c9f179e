import NIOCore
import NIOHTTP1
import Testing

@testable import AASAServer

/// HTTP caching semantics through the responder: one entity tag per
/// representation, `If-None-Match` / `If-Modified-Since` → 304,
/// `If-Match` / `If-Unmodified-Since` → 412, and what a 304 carries.
@Suite("Conditional requests")
struct ConditionalRequestTests {
    /// brand.example compresses well; tiny.example is smaller than its gzip.
    static func snapshot() throws -> SiteSnapshot {
        let site = try TemporarySite()
        let paths = (0..<40).map { "{\"/\":\"/product/\($0)/*\"}" }.joined(separator: ",")
        try site.write(
            "{\"applinks\":{\"details\":[{\"appIDs\":[\"ABCDE12345.com.brand.app\"],\"components\":[\(paths)]}]}}",
            host: "brand.example"
        )
        try site.write("{\"webcredentials\":{\"apps\":[\"ABCDE12345.com.tiny\"]}}", host: "tiny.example")
        return try SiteLoader(configuration: site.configuration()).load(previous: .empty, force: true).snapshot
    }

    /// The status and header block of a GET with `fields` to `host`.
    static func exchange(
        _ fields: [(String, String)],
        host: String = "brand.example",
        method: HTTPMethod = .GET,
        snapshot: SiteSnapshot
    ) -> (status: EncodedResponse.Status, text: String) {
        let head = ResponderTests.head(method, host: host, headers: fields)
        let reply = Responder().respond(to: head, snapshot: snapshot)
        return (reply.response.status, String(buffer: reply.response.payload(isHead: reply.isHead)))
    }

    static func header(_ name: String, in text: String) -> String? {
        for line in text.split(separator: "\r\n") where line.hasPrefix(name + ": ") {
            return String(line.dropFirst(name.count + 2))
        }
        return nil
    }

    /// The ETag and Last-Modified the origin sends for each representation.
    struct Validators {
        let identity: String
        let gzip: String
        let lastModified: String
        let lastModifiedSeconds: Int

        init(snapshot: SiteSnapshot) throws {
            let plain = ConditionalRequestTests.exchange([], snapshot: snapshot).text
            let gzipped = ConditionalRequestTests.exchange([("Accept-Encoding", "gzip")], snapshot: snapshot).text
            identity = try #require(ConditionalRequestTests.header("ETag", in: plain))
            gzip = try #require(ConditionalRequestTests.header("ETag", in: gzipped))
            lastModified = try #require(ConditionalRequestTests.header("Last-Modified", in: plain))
            lastModifiedSeconds = try #require(HTTPDate.parse(lastModified))
        }
    }

    @Test func gzipRepresentationHasItsOwnWeakTag() throws {
        let snapshot = try Self.snapshot()
        let tags = try Validators(snapshot: snapshot)
        #expect(tags.identity.hasPrefix("\""))
        #expect(tags.gzip == "W/" + tags.identity)
        // A file gzip cannot shrink has one representation and one strong tag.
        let tiny = Self.exchange([("Accept-Encoding", "gzip")], host: "tiny.example", snapshot: snapshot).text
        #expect(!tiny.contains("Content-Encoding"))
        #expect(Self.header("ETag", in: tiny)?.hasPrefix("\"") == true)
    }

    /// If-None-Match, weak comparison (RFC 9110 §13.1.2), for both
    /// representations: either tag, with or without `W/`, revalidates.
    @Test(arguments: [false, true])
    func ifNoneMatch(acceptsGzip: Bool) throws {
        let snapshot = try Self.snapshot()
        let tags = try Validators(snapshot: snapshot)
        let encoding = acceptsGzip ? [("Accept-Encoding", "gzip")] : []
        let matching = [
            tags.identity, tags.gzip, "W/" + tags.identity, "\"other\", \(tags.identity)",
            "\"a,b\", \(tags.gzip)", " \(tags.identity) ", "*", ",\(tags.identity),",
        ]
        for value in matching {
            #expect(Self.exchange(encoding + [("If-None-Match", value)], snapshot: snapshot).status == .notModified)
        }
        let notMatching = [
            "\"other\"", "W/\"other\"", tags.identity.dropFirst() + "", "w/" + tags.identity, "\"\"",
            "*, \(tags.identity)", "\(tags.identity) garbage", "", "\"unterminated",
        ]
        for value in notMatching {
            #expect(Self.exchange(encoding + [("If-None-Match", value)], snapshot: snapshot).status == .ok, "\(value)")
        }
        // A list split over two field lines is one list (RFC 9110 §5.3).
        // Either order: a later line neither replaces nor is dropped.
        let split = [("If-None-Match", "\"other\""), ("If-None-Match", tags.identity)]
        #expect(Self.exchange(encoding + split, snapshot: snapshot).status == .notModified)
        #expect(Self.exchange(encoding + split.reversed(), snapshot: snapshot).status == .notModified)
    }

    /// A 304 carries what a 200 would for caching (RFC 9110 §15.4.5) and no
    /// content or representation metadata.
    @Test(arguments: [false, true])
    func notModifiedHeaders(acceptsGzip: Bool) throws {
        let snapshot = try Self.snapshot()
        let tags = try Validators(snapshot: snapshot)
        let encoding = acceptsGzip ? [("Accept-Encoding", "gzip")] : []
        for method in [HTTPMethod.GET, .HEAD] {
            let (status, text) = Self.exchange(
                encoding + [("If-None-Match", tags.identity)],
                method: method,
                snapshot: snapshot
            )
            #expect(status == .notModified)
            #expect(Self.header("ETag", in: text) == (acceptsGzip ? tags.gzip : tags.identity))
            #expect(Self.header("Cache-Control", in: text) == "max-age=300")
            #expect(Self.header("Vary", in: text) == "Accept-Encoding")
            for absent in ["Content-Length", "Content-Type", "Content-Encoding", "Last-Modified", "Transfer-Encoding"] {
                #expect(Self.header(absent, in: text) == nil, "\(absent)")
            }
            #expect(text.hasSuffix("\r\n\r\n"))
        }
    }

    /// If-Modified-Since (RFC 9110 §13.1.3): 304 when the file is not newer,
    /// in any of the three date formats; ignored when invalid, a list, or
    /// beside If-None-Match.
    @Test func ifModifiedSince() throws {
        let snapshot = try Self.snapshot()
        let tags = try Validators(snapshot: snapshot)
        let at = tags.lastModifiedSeconds
        func ims(_ value: String, _ extra: [(String, String)] = []) -> EncodedResponse.Status {
            Self.exchange([("If-Modified-Since", value)] + extra, snapshot: snapshot).status
        }
        #expect(ims(tags.lastModified) == .notModified)
        #expect(ims(HTTPDate.format(epochSeconds: at + 3600)) == .notModified)
        #expect(ims(HTTPDate.format(epochSeconds: at - 1)) == .ok)
        #expect(ims(HTTPDate.format(epochSeconds: at), [("Accept-Encoding", "gzip")]) == .notModified)
        #expect(ims("Thursday, 01-Jan-37 00:00:00 GMT") == .notModified)
        #expect(ims("Thu Jan  1 00:00:00 2099") == .notModified)
        for invalid in ["yesterday", "Sat, 31 Feb 2099 00:00:00 GMT", "2099-01-01T00:00:00Z", "-1"] {
            #expect(ims(invalid) == .ok, "\(invalid)")
        }
        let future = HTTPDate.format(epochSeconds: at + 3600)
        #expect(ims(future + ", " + future) == .ok)
        // If-None-Match decides alone, even when it does not match.
        #expect(ims(future, [("If-None-Match", "\"other\"")]) == .ok)
    }

    /// If-Match (strong comparison) and If-Unmodified-Since → 412 when false.
    @Test func ifMatchAndIfUnmodifiedSince() throws {
        let snapshot = try Self.snapshot()
        let tags = try Validators(snapshot: snapshot)
        let gzip = [("Accept-Encoding", "gzip")]
        func status(_ fields: [(String, String)]) -> EncodedResponse.Status {
            Self.exchange(fields, snapshot: snapshot).status
        }
        #expect(status([("If-Match", tags.identity)]) == .ok)
        #expect(status([("If-Match", "*")]) == .ok)
        #expect(status(gzip + [("If-Match", "*")]) == .ok)
        #expect(status([("If-Match", "\"other\"")]) == .preconditionFailed)
        // Weak tags never match strongly: not the gzip one, not a W/ identity.
        #expect(status([("If-Match", "W/" + tags.identity)]) == .preconditionFailed)
        #expect(status(gzip + [("If-Match", tags.gzip)]) == .preconditionFailed)
        #expect(status([("If-Unmodified-Since", HTTPDate.format(epochSeconds: tags.lastModifiedSeconds))]) == .ok)
        #expect(
            status([("If-Unmodified-Since", HTTPDate.format(epochSeconds: tags.lastModifiedSeconds - 1))])
                == .preconditionFailed
        )
        #expect(status([("If-Unmodified-Since", "not a date")]) == .ok)
        // If-Match present: If-Unmodified-Since is not evaluated.
        let stale = HTTPDate.format(epochSeconds: tags.lastModifiedSeconds - 1)
        #expect(status([("If-Match", tags.identity), ("If-Unmodified-Since", stale)]) == .ok)
        // A true If-Match does not stop If-None-Match from answering 304.
        #expect(status([("If-Match", tags.identity), ("If-None-Match", tags.identity)]) == .notModified)
        let failed = Self.exchange([("If-Match", "\"other\"")], snapshot: snapshot).text
        #expect(Self.header("Cache-Control", in: failed) == "no-store")
    }

    /// A request without preconditions takes the 200 without evaluating
    /// them; any one of the four fields alone leaves that shortcut, for
    /// either representation, and the shortcut serves the same 200.
    @Test(arguments: [false, true])
    func eachPreconditionAloneIsEvaluated(acceptsGzip: Bool) throws {
        let snapshot = try Self.snapshot()
        let tags = try Validators(snapshot: snapshot)
        let encoding = acceptsGzip ? [("Accept-Encoding", "gzip")] : []
        let past = HTTPDate.format(epochSeconds: tags.lastModifiedSeconds - 1)
        let future = HTTPDate.format(epochSeconds: tags.lastModifiedSeconds + 3600)
        let alone: [(field: (String, String), status: EncodedResponse.Status)] = [
            (("If-Match", "\"other\""), .preconditionFailed),
            (("If-None-Match", "*"), .notModified),
            (("If-Modified-Since", future), .notModified),
            (("If-Unmodified-Since", past), .preconditionFailed),
        ]
        for (field, status) in alone {
            #expect(Self.exchange(encoding + [field], snapshot: snapshot).status == status, "\(field.0)")
        }
        var host: String?
        var fields = RequestFields(HTTPHeaders(encoding), host: &host)
        let absent = fields.conditions.isPresent
        fields.conditions.add("*", to: \.ifMatch)
        let present = fields.conditions.isPresent
        #expect(!absent)
        #expect(present)
        let plain = Self.exchange(encoding, snapshot: snapshot)
        let sendingAnyway = Self.exchange(encoding + [("If-None-Match", "\"other\"")], snapshot: snapshot)
        #expect(plain.status == .ok)
        #expect(plain.text == sendingAnyway.text)
        #expect(Self.header("ETag", in: plain.text) == (acceptsGzip ? tags.gzip : tags.identity))
    }

    /// Preconditions only apply to a file that is served: a 404 stays a 404.
    @Test func preconditionsDoNotTurnErrorsInto304() throws {
        let snapshot = try Self.snapshot()
        let fields = [("If-None-Match", "*"), ("If-Match", "\"x\"")]
        #expect(Self.exchange(fields, host: "nobody.example", snapshot: snapshot).status == .notFound)
        #expect(Self.exchange(fields, method: .POST, snapshot: snapshot).status == .methodNotAllowed)
    }
}
