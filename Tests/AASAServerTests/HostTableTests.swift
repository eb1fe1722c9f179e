import AASAKit
import NIOCore
import NIOHTTP1
import Testing

@testable import AASAServer

/// The event loop's table from `Host` headers as received to hosts: the same
/// host as the snapshot's own lookup for every spelling, never a previous
/// load's, and bounded whatever the client sends.
@Suite("Host table")
struct HostTableTests {
    static let hosts = ServerConfiguration.Hosts(
        defaultHost: nil,
        aliases: ["staging.brand.example=brand.example", "*.previews.example=other.example"],
        staging: ["{label}.aasa-staging.example.com"]
    )

    /// The snapshot's own answer: what the table must reproduce.
    static func expected(_ header: String, in snapshot: SiteSnapshot) -> SiteHost?? {
        HostName(authority: header).map { snapshot.host(for: $0) }
    }

    /// What the table resolves `header` to: nil when it is not a host name.
    static func resolve(_ table: HostTable, _ header: String, in snapshot: SiteSnapshot) -> SiteHost?? {
        var host: SiteHost?
        guard let slot = table.resolve(header, in: snapshot, into: &host) else { return nil }
        return .some(slot >= 0 ? table.host(at: slot) : host)
    }

    static func resolves(_ table: HostTable, _ header: String, like snapshot: SiteSnapshot) -> Bool {
        switch (resolve(table, header, in: snapshot), expected(header, in: snapshot)) {
        case (nil, nil): true
        case (let found?, let wanted?): found === wanted
        default: false
        }
    }

    /// Host spellings: served names, aliases, wildcards, staging names and
    /// unknown ones, in random case, with and without a port or a trailing
    /// dot, plus invalid and over-long values.
    static func spellings(count: Int, seed: UInt64) -> [String] {
        var random = SplitMix(seed: seed)
        let names = [
            "brand.example", "other.example", "a.wild.example", "x.deep.wild.example", "staging.brand.example",
            "pr-12.previews.example", "brand-example.aasa-staging.example.com", "nobody.example", "wild.example",
            "localhost", "127.0.0.1", "[::1]", "[::1]:8443", "",
            "bad host", "brand..example", "-brand.example", "brand.example:http", "brand.example/x", "ÿ.example",
            String(repeating: "sub.", count: 12) + "wild.example",
        ]
        return (0..<count).map { _ in
            var name = names[Int(random.next() % UInt64(names.count))]
            if random.next() % 2 == 0 {
                name = String(name.map { random.next() % 2 == 0 ? Character($0.uppercased()) : $0 })
            }
            switch random.next() % 4 {
            case 0: name += "."
            case 1: name += ":\(random.next() % 70_000)"
            case 2: name += ":"
            default: break
            }
            return name
        }
    }

    /// Every spelling resolves to the snapshot's host, first through a miss
    /// and then through a hit; a small table also evicts along the way.
    @Test(arguments: [256, 1])
    func resolvesAsTheSnapshotDoes(slotCount: Int) throws {
        let snapshot = try ResponderTests.snapshot(hosts: Self.hosts)
        let table = HostTable(seed: 7)
        table.serve(snapshot, slotCount: slotCount)
        for header in Self.spellings(count: 3_000, seed: 42) {
            #expect(Self.resolves(table, header, like: snapshot), "\(header)")
            #expect(Self.resolves(table, header, like: snapshot), "\(header), second time")
        }
        #expect(table.storedCount <= slotCount)
    }

    /// With `hosts.default`, an unknown host resolves to the default host.
    @Test func unknownHostsFindTheDefault() throws {
        let snapshot = try ResponderTests.snapshot(hosts: .init(defaultHost: "other.example"))
        let table = HostTable()
        for _ in 0..<2 {
            let found = try #require(Self.resolve(table, "nobody.example", in: snapshot))
            #expect(found === snapshot.fallback)
            #expect(found != nil)
        }
    }

    /// A reload swaps the snapshot: the loop's next request gets a table of
    /// the new snapshot, and with it the new file, never the previous one.
    @Test func aReloadNeverServesThePreviousLoad() throws {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.before.app"), host: "brand.example")
        let loader = SiteLoader(configuration: site.configuration())
        let before = try loader.load(previous: .empty, force: true).snapshot
        let cache = ResponseCache()
        let responder = Responder()
        let head = ResponderTests.head(host: "Brand.Example")
        func body(_ snapshot: SiteSnapshot, second: Int) -> String {
            let answer = responder.answer(to: head, snapshot: snapshot, hosts: cache.hosts)
            return String(buffer: Self.written(answer, by: cache, now: second))
        }
        #expect(body(before, second: 1).contains("com.before.app"))
        #expect(body(before, second: 1).contains("com.before.app"))

        try site.write(SampleFile.aasa(app: "ABCDE12345.com.after.app"), host: "brand.example")
        let after = try loader.load(previous: before, force: true).snapshot
        #expect(after !== before)
        // Same second, same loop: only the snapshot changed.
        #expect(body(after, second: 1).contains("com.after.app"))
        #expect(!body(after, second: 1).contains("com.before.app"))
        #expect(cache.hosts.snapshot === after)
    }

    /// The table takes the store's snapshot without the lock while the
    /// store has not swapped it: every swap reaches the next request, also
    /// a swap back to a snapshot the table served before, and answers
    /// follow the snapshot.
    @Test func everySwapOfTheStoreReachesTheTable() throws {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.before.app"), host: "brand.example")
        let loader = SiteLoader(configuration: site.configuration())
        let before = try loader.load(previous: .empty, force: true)
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.after.app"), host: "brand.example")
        let after = try loader.load(previous: before.snapshot, force: true)
        let store = SiteStore()
        let cache = ResponseCache()
        let head = ResponderTests.head(host: "brand.example")
        func served() -> (snapshot: SiteSnapshot, body: String) {
            cache.hosts.withSnapshot(of: store) { snapshot in
                let answer = Responder().answer(to: head, snapshot: snapshot, hosts: cache.hosts)
                return (snapshot, String(buffer: Self.written(answer, by: cache, now: 1)))
            }
        }
        for (outcome, app) in [(before, "com.before.app"), (after, "com.after.app"), (before, "com.before.app")] {
            store.install(outcome, duration: .zero)
            for _ in 0..<2 {
                let (snapshot, body) = served()
                #expect(snapshot === outcome.snapshot)
                #expect(body.contains(app), "\(app): \(body)")
            }
        }
    }

    /// Names that differ only in their last bytes (a 48-byte name's last
    /// two characters, a port's digits) spread over the table: the slot
    /// depends on every byte of the key, under any seed.
    @Test(arguments: [UInt64(1), 0xDEAD_BEEF, .max])
    func namesDifferingAtTheEndSpread(seed: UInt64) throws {
        let snapshot = try ResponderTests.snapshot(hosts: Self.hosts)
        let characters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        let long = String(repeating: "a", count: 36) + ".example.c"
        let families = [
            characters.flatMap { one in characters.map { two in long + String([one, two]) } },
            (100..<1_396).map { "brand-with-a-longer-name.example:\($0)" },
        ]
        for headers in families {
            let table = HostTable(seed: seed)
            table.serve(snapshot, slotCount: HostTable.maximumSlots)
            for header in headers { _ = Self.resolve(table, header, in: snapshot) }
            // Starting at one slot, they would keep at most a window's worth.
            #expect(table.storedCount > headers.count * 9 / 10, "\(headers[0]) … \(headers.count) names")
        }
    }

    /// A flood of distinct Hosts (unknown names, wildcard names) never grows
    /// the table past its slots, and the served names still resolve.
    @Test func aFloodOfDistinctHostsIsBounded() throws {
        let snapshot = try ResponderTests.snapshot(hosts: Self.hosts)
        let table = HostTable()
        _ = Self.resolve(table, "brand.example", in: snapshot)
        #expect(table.slotCount == HostTable.minimumSlots)
        for index in 0..<50_000 {
            _ = Self.resolve(table, "n\(index).example", in: snapshot)
            _ = Self.resolve(table, "n\(index).wild.example", in: snapshot)
        }
        #expect(table.storedCount <= table.slotCount)
        #expect(table.slotCount == HostTable.minimumSlots)
        #expect(Self.resolves(table, "brand.example", like: snapshot))
        #expect(Self.resolves(table, "n7.wild.example", like: snapshot))
    }

    /// The buffer remembered in a host's slot is the cache's buffer of this
    /// second; the next second writes a new `Date`, never the remembered one.
    @Test func rememberedBuffersEndWithTheSecond() throws {
        let snapshot = try ResponderTests.snapshot()
        let cache = ResponseCache()
        let answer = Responder().answer(to: ResponderTests.head(), snapshot: snapshot, hosts: cache.hosts)
        guard case .known(let slot, _) = answer else {
            Issue.record("a request without preconditions is answered from the slot")
            return
        }
        let response = cache.hosts.reply(knownAt: slot, isHead: false).response
        let head = cache.whole(knownAt: slot, isHead: true, now: 1)
        #expect(String(buffer: head) == ResponseCacheTests.expected(response, isHead: true, second: 1))
        // The slot remembers the last buffer written through it: the GET.
        let first = cache.whole(knownAt: slot, isHead: false, now: 1)
        let again = cache.whole(knownAt: slot, isHead: false, now: 1)
        #expect(ResponseCacheTests.address(first) == ResponseCacheTests.address(again))
        #expect(String(buffer: first) == ResponseCacheTests.expected(response, isHead: false, second: 1))
        let next = cache.whole(knownAt: slot, isHead: false, now: 2)
        #expect(String(buffer: next) == ResponseCacheTests.expected(response, isHead: false, second: 2))
        #expect(cache.count == 1)
    }

    /// A slot's answer changes with what the request selects (here how the
    /// connection ends): the buffer written is always the new answer's,
    /// never the one the slot remembered for its previous answer.
    @Test func theWrittenBufferFollowsTheSlotsAnswer() throws {
        let snapshot = try ResponderTests.snapshot()
        let cache = ResponseCache()
        let responder = Responder()
        let close = ResponderTests.head(headers: [("Connection", "close")])
        for head in [ResponderTests.head(), close, close, ResponderTests.head(), close] {
            let expected = responder.respond(to: head, snapshot: snapshot).response
            let answer = responder.answer(to: head, snapshot: snapshot, hosts: cache.hosts)
            let written = String(buffer: Self.written(answer, by: cache, now: 1))
            #expect(written == ResponseCacheTests.expected(expected, isHead: false, second: 1))
        }
    }

    /// What the serving handler writes for `answer`, as one buffer.
    static func written(_ answer: Responder.Answer, by cache: ResponseCache, now: Int) -> ByteBuffer {
        switch answer {
        case .reply(let reply): cache.whole(reply.response, isHead: reply.isHead, now: now)
        case .known(let slot, let isHead): cache.whole(knownAt: slot, isHead: isHead, now: now)
        }
    }

    /// Fields that change the answer: preconditions (which the table's
    /// remembered answers never cover), encodings, connection handling.
    static let extraFields: [[(String, String)]] = [
        [], [], [],
        [("Accept-Encoding", "gzip")],
        [("Accept-Encoding", "gzip;q=0")],
        [("Connection", "close")],
        [("Connection", "keep-alive")],
        [("If-None-Match", "*")],
        [("If-Match", "\"nope\"")],
        [("If-Modified-Since", "Sun, 09 Sep 2001 01:46:40 GMT")],
        [("Accept-Encoding", "gzip"), ("If-None-Match", "W/\"x\"")],
    ]

    /// The responder answers every request the same with the table as
    /// without it: same response bytes, same counts.
    @Test func theResponderAnswersTheSameThroughTheTable() throws {
        let snapshot = try ResponderTests.snapshot(hosts: Self.hosts)
        let cache = ResponseCache()
        let responder = Responder()
        var random = SplitMix(seed: 9)
        let uris = [ResponderTests.aasaPath, "/.well-known/assetlinks.json", "/apple-app-site-association", "/x"]
        for host in Self.spellings(count: 2_000, seed: 5) {
            let uri = uris[Int(random.next() % UInt64(uris.count))]
            let methods: [HTTPMethod] = [.GET, .GET, .GET, .HEAD, .POST]
            let method = methods[Int(random.next() % UInt64(methods.count))]
            let version: HTTPVersion = random.next() % 8 == 0 ? .http1_0 : .http1_1
            let extra = Self.extraFields[Int(random.next() % UInt64(Self.extraFields.count))]
            let head = ResponderTests.head(method, uri, host: host, version: version, headers: extra)
            let plain = responder.respond(to: head, snapshot: snapshot)
            let tabled = responder.respond(to: head, snapshot: snapshot, hosts: cache.hosts)
            #expect(
                ResponseCacheTests.address(plain.response.bytes) == ResponseCacheTests.address(tabled.response.bytes)
            )
            #expect(plain.response.status == tabled.response.status, "\(host) \(uri)")
            #expect(plain.response.connection == tabled.response.connection)
            #expect(plain.counts === tabled.counts)
            #expect(plain.isHead == tabled.isHead)
        }
    }
}

/// A small deterministic generator, so a failing spelling can be replayed.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
