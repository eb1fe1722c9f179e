import NIOCore
import NIOHTTP1
import Testing

@testable import AASAServer

/// The pure responder: request head + snapshot → pre-encoded response.
@Suite("Responder")
struct ResponderTests {
    static let aasaPath = "/.well-known/apple-app-site-association"

    /// brand.example (AASA + assetlinks), other.example (AASA), *.wild.example.
    static func snapshot(hosts: ServerConfiguration.Hosts = .init()) throws -> SiteSnapshot {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.brand.app"), host: "brand.example")
        try site.write(SampleFile.assetLinks, host: "brand.example", file: "assetlinks.json")
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.other.app"), host: "other.example")
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.wild.app"), host: "*.wild.example")
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.deep.app"), host: "*.deep.wild.example")
        let loader = SiteLoader(configuration: site.configuration(hosts: hosts))
        return try loader.load(previous: .empty, force: true).snapshot
    }

    static func head(
        _ method: HTTPMethod = .GET,
        _ uri: String = aasaPath,
        host: String? = "brand.example",
        version: HTTPVersion = .http1_1,
        headers: [(String, String)] = []
    ) -> HTTPRequestHead {
        var fields = HTTPHeaders(headers)
        if let host { fields.add(name: "Host", value: host) }
        return HTTPRequestHead(version: version, method: method, uri: uri, headers: fields)
    }

    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var head: HTTPRequestHead
        var status: Int
        var app: String?
        var closes = false
    }

    static let cases: [Case] = [
        Case(description: "well-known path", head: head(), status: 200, app: "com.brand.app"),
        Case(
            description: "legacy root path",
            head: head(.GET, "/apple-app-site-association"),
            status: 200,
            app: "com.brand.app"
        ),
        Case(description: "query ignored", head: head(.GET, aasaPath + "?v=2"), status: 200, app: "com.brand.app"),
        Case(description: "empty query", head: head(.GET, aasaPath + "?"), status: 200, app: "com.brand.app"),
        Case(description: "path cut short", head: head(.GET, String(aasaPath.dropLast()) + "?n"), status: 404),
        Case(description: "path in other case", head: head(.GET, aasaPath.uppercased()), status: 404),
        Case(description: "path and a slash", head: head(.GET, aasaPath + "/"), status: 404),
        Case(
            description: "assetlinks",
            head: head(.GET, "/.well-known/assetlinks.json"),
            status: 200,
            app: "com.example.app"
        ),
        Case(
            description: "assetlinks missing for host",
            head: head(.GET, "/.well-known/assetlinks.json", host: "other.example"),
            status: 404
        ),
        Case(description: "HEAD", head: head(.HEAD), status: 200),
        Case(description: "other host", head: head(host: "other.example"), status: 200, app: "com.other.app"),
        Case(
            description: "host case and port",
            head: head(host: "OTHER.Example:8443"),
            status: 200,
            app: "com.other.app"
        ),
        Case(description: "trailing dot", head: head(host: "other.example."), status: 200, app: "com.other.app"),
        Case(description: "wildcard", head: head(host: "a.wild.example"), status: 200, app: "com.wild.app"),
        Case(
            description: "more specific wildcard wins",
            head: head(host: "x.deep.wild.example"),
            status: 200,
            app: "com.deep.app"
        ),
        Case(description: "wildcard does not cover its apex", head: head(host: "wild.example"), status: 404),
        Case(description: "unknown host", head: head(host: "nobody.example"), status: 404),
        Case(description: "IPv6 literal unknown", head: head(host: "[::1]:8080"), status: 404),
        Case(description: "unknown path", head: head(.GET, "/index.html"), status: 404),
        Case(description: "path with suffix", head: head(.GET, aasaPath + ".json"), status: 404),
        Case(description: "POST on AASA path", head: head(.POST), status: 405),
        Case(description: "DELETE on AASA path", head: head(.DELETE), status: 405),
        Case(description: "OPTIONS on AASA path", head: head(.OPTIONS), status: 405),
        Case(description: "POST elsewhere", head: head(.POST, "/x"), status: 404),
        Case(description: "missing Host on HTTP/1.1", head: head(host: nil), status: 400, closes: true),
        Case(description: "invalid Host", head: head(host: "../../etc"), status: 400, closes: true),
        Case(description: "NUL in Host", head: head(host: "a\u{0}b.example"), status: 400, closes: true),
        Case(description: "non-ASCII Host", head: head(host: "brånd.example"), status: 400, closes: true),
        Case(
            description: "two Host headers",
            head: head(headers: [("Host", "other.example")]),
            status: 400,
            closes: true
        ),
        Case(description: "HTTP/1.0 without Host", head: head(host: nil, version: .http1_0), status: 404, closes: true),
        Case(description: "request body", head: head(headers: [("Content-Length", "5")]), status: 400, closes: true),
        Case(
            description: "chunked body",
            head: head(headers: [("Transfer-Encoding", "chunked")]),
            status: 400,
            closes: true
        ),
        Case(description: "empty body is fine", head: head(headers: [("Content-Length", "0")]), status: 200),
        Case(
            description: "absolute-form names the host",
            head: head(.GET, "http://other.example" + aasaPath, host: "brand.example"),
            status: 200,
            app: "com.other.app"
        ),
        Case(
            description: "absolute-form unknown host",
            head: head(.GET, "https://evil.example" + aasaPath),
            status: 404
        ),
        Case(description: "asterisk-form", head: head(.OPTIONS, "*"), status: 404),
        Case(
            description: "Connection: close",
            head: head(headers: [("Connection", "close")]),
            status: 200,
            closes: true
        ),
        Case(
            description: "upgrade request answered then closed",
            head: head(headers: [("Connection", "Upgrade"), ("Upgrade", "websocket")]),
            status: 200,
            app: "com.brand.app",
            closes: true
        ),
        Case(description: "CONNECT closes", head: head(.CONNECT, "brand.example:443"), status: 404, closes: true),
        Case(description: "HTTP/1.0 closes by default", head: head(version: .http1_0), status: 200, closes: true),
        Case(
            description: "HTTP/1.0 keep-alive",
            head: head(version: .http1_0, headers: [("Connection", "keep-alive")]),
            status: 200
        ),
    ]

    @Test(arguments: cases)
    func routes(_ testCase: Case) throws {
        let reply = Responder().respond(to: testCase.head, snapshot: try Self.snapshot())
        #expect(reply.response.status.rawValue == testCase.status)
        #expect(reply.response.closesConnection == testCase.closes)
        let text = String(buffer: reply.response.payload(isHead: reply.isHead))
        #expect(!text.contains("Location:"))
        if let app = testCase.app {
            #expect(text.contains(app))
        }
        if testCase.head.method == .HEAD {
            #expect(text.hasSuffix("\r\n\r\n"))
        }
    }

    /// Field names are case-insensitive (RFC 9110 §5.1): every field routing
    /// reads is honoured in any case, and `-` is not folded like a letter.
    @Test(arguments: [
        ([("HOST", "brand.example")], 200, false),
        ([("hOsT", "other.example")], 200, false),
        ([("HOST", "brand.example"), ("host", "other.example")], 400, true),
        ([("Host", "brand.example"), ("CONTENT-LENGTH", "5")], 400, true),
        ([("Host", "brand.example"), ("transfer-ENCODING", "chunked")], 400, true),
        ([("Host", "brand.example"), ("CONNECTION", "CLOSE")], 200, true),
        ([("Host", "brand.example"), ("UPGRADE", "h2c")], 200, true),
        ([("Host", "brand.example"), ("If-None-Match", "*")], 304, false),
        ([("Host", "brand.example"), ("IF-NONE-MATCH", "*")], 304, false),
        // Not the field names routing reads: ignored.
        ([("Host", "brand.example"), ("Content\rLength", "5")], 200, false),
        ([("Host", "brand.example"), ("Upgrade\u{0D}", "h2c")], 200, false),
    ])
    func fieldNamesIgnoreCase(fields: [(String, String)], status: Int, closes: Bool) throws {
        let reply = Responder().respond(to: Self.head(host: nil, headers: fields), snapshot: try Self.snapshot())
        #expect(reply.response.status.rawValue == status)
        #expect(reply.response.closesConnection == closes)
    }

    @Test func okHeaders() throws {
        let reply = Responder().respond(to: Self.head(), snapshot: try Self.snapshot())
        let text = String(buffer: reply.response.payload(isHead: false))
        let body = SampleFile.aasa(app: "ABCDE12345.com.brand.app")
        #expect(text.contains("Content-Type: application/json\r\n"))
        #expect(text.contains("Content-Length: \(body.utf8.count)\r\n"))
        #expect(text.contains("X-Content-Type-Options: nosniff\r\n"))
        #expect(text.contains("Cache-Control: max-age=300\r\n"))
        #expect(text.contains("Last-Modified: "))
        #expect(text.contains("ETag: \""))
        #expect(text.hasSuffix("\r\n\r\n" + body))
    }

    @Test func headHasTheGetHeadersAndNoBody() throws {
        let snapshot = try Self.snapshot()
        let get = String(
            buffer: Responder().respond(to: Self.head(.GET), snapshot: snapshot).response.payload(isHead: false)
        )
        let headReply = Responder().respond(to: Self.head(.HEAD), snapshot: snapshot)
        let head = String(buffer: headReply.response.payload(isHead: headReply.isHead))
        #expect(get.hasPrefix(head))
        #expect(head.hasSuffix("\r\n\r\n"))
        #expect(get.count > head.count)
    }

    @Test func ifNoneMatchGives304() throws {
        let snapshot = try Self.snapshot()
        let etag = try #require(snapshot.exact["brand.example"]?.appleAppSiteAssociation?.etag)
        for header in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
            let reply = Responder().respond(to: Self.head(headers: [("If-None-Match", header)]), snapshot: snapshot)
            #expect(reply.response.status == .notModified, "\(header)")
            #expect(!String(buffer: reply.response.bytes).contains("Content-Length"))
        }
        let miss = Responder().respond(to: Self.head(headers: [("If-None-Match", "\"nope\"")]), snapshot: snapshot)
        #expect(miss.response.status == .ok)
    }

    @Test(arguments: [
        ("gzip", true), ("GZIP", true), ("deflate, gzip;q=0.5", true), ("*", true),
        ("gzip;q=0", false), ("identity", false), ("br", false),
    ])
    func gzipNegotiation(acceptEncoding: String, gzipped: Bool) throws {
        let site = try TemporarySite()
        // Large and repetitive enough that gzip is smaller.
        let paths = (0..<40).map { "{\"/\":\"/product/\($0)/*\"}" }.joined(separator: ",")
        try site.write(
            "{\"applinks\":{\"details\":[{\"appIDs\":[\"ABCDE12345.com.brand.app\"],\"components\":[\(paths)]}]}}",
            host: "brand.example"
        )
        let snapshot = try SiteLoader(configuration: site.configuration()).load(previous: .empty, force: true).snapshot
        let reply = Responder().respond(
            to: Self.head(headers: [("Accept-Encoding", acceptEncoding)]),
            snapshot: snapshot
        )
        let text = String(buffer: reply.response.bytes)
        #expect(reply.response.status == .ok)
        #expect(text.contains("Content-Encoding: gzip") == gzipped)
        #expect(text.contains("Vary: Accept-Encoding"))
    }

    @Test func defaultHostServesUnknownHosts() throws {
        let snapshot = try Self.snapshot(hosts: .init(defaultHost: "other.example"))
        let reply = Responder().respond(to: Self.head(host: "nobody.example"), snapshot: snapshot)
        #expect(reply.response.status == .ok)
        #expect(String(buffer: reply.response.bytes).contains("com.other.app"))
        let http10 = Responder().respond(to: Self.head(host: nil, version: .http1_0), snapshot: snapshot)
        #expect(http10.response.status == .ok)
    }

    @Test func configuredAliases() throws {
        let snapshot = try Self.snapshot(
            hosts: .init(aliases: ["staging.brand.example=brand.example", "*.previews.example=other.example"])
        )
        let staging = Responder().respond(to: Self.head(host: "staging.brand.example"), snapshot: snapshot)
        #expect(String(buffer: staging.response.bytes).contains("com.brand.app"))
        let preview = Responder().respond(to: Self.head(host: "pr-12.previews.example"), snapshot: snapshot)
        #expect(String(buffer: preview.response.bytes).contains("com.other.app"))
    }

    @Test func noStatusIsARedirect() {
        #expect(EncodedResponse.Status.allCases.allSatisfy { !(300..<400).contains($0.rawValue) || $0 == .notModified })
    }
}
