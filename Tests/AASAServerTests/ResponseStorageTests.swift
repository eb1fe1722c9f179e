import NIOCore
import NIOEmbedded
import Testing

@testable import AASAServer

/// What one served file keeps: every response it can get in one buffer, the
/// connection variants sharing it, and the same bytes on the wire as when
/// each response had its own copy.
@Suite("Response storage")
struct ResponseStorageTests {
    static let parts: [EncodedResponseSet.Part] = [
        .init(status: .ok, headers: [("Content-Type", "application/json"), ("ETag", "\"a\"")], body: Array("{}".utf8)),
        .init(status: .notModified, headers: [("ETag", "\"a\"")], body: [], sendsLength: false),
        .init(
            status: .ok,
            headers: [("Content-Encoding", "gzip")],
            body: Array(repeating: 7, count: 300)
        ),
    ]

    /// Each packed response holds exactly its own head and body.
    @Test func packedResponsesHoldTheirOwnBytes() {
        let sets = EncodedResponseSet.packed(Self.parts)
        let texts = sets.map { String(buffer: $0[.keepAlive].bytes) }
        #expect(texts[0] == "Content-Type: application/json\r\nETag: \"a\"\r\nContent-Length: 2\r\n\r\n{}")
        #expect(texts[1] == "ETag: \"a\"\r\n\r\n")
        #expect(
            texts[2] == "Content-Encoding: gzip\r\nContent-Length: 300\r\n\r\n" + String(repeating: "\u{7}", count: 300)
        )
        #expect(sets.map { $0[.keepAlive].headLength } == [texts[0].utf8.count - 2, texts[1].utf8.count, 47])
        #expect(String(buffer: sets[0][.close].payload(isHead: true)).hasSuffix("Content-Length: 2\r\n\r\n"))
    }

    /// All responses of a file are slices of one storage, laid end to end,
    /// and the connection variants are the same bytes.
    @Test func aServedFileKeepsOneBuffer() throws {
        let body = Array(String(repeating: #"{"applinks":{"details":[]}}"#, count: 40).utf8)
        let file = ServedFile.sample(body: body)
        let identity = file.responses.representation(acceptsGzip: false)
        let gzip = file.responses.representation(acceptsGzip: true)
        let responses = [identity.ok, identity.notModified, gzip.ok, gzip.notModified].map { $0[.keepAlive] }
        #expect(file.gzipSize != nil)
        let ranges = responses.map { response in
            response.bytes.withUnsafeReadableBytes {
                UInt(bitPattern: $0.baseAddress)..<UInt(bitPattern: $0.baseAddress) + UInt($0.count)
            }
        }
        #expect(ranges[0].upperBound == ranges[1].lowerBound)
        #expect(ranges[1].upperBound == ranges[2].lowerBound)
        #expect(ranges[2].upperBound == ranges[3].lowerBound)
        let total = responses.map(\.bytes.readableBytes).reduce(0, +)
        #expect(responses.allSatisfy { $0.bytes.storageCapacity == responses[0].bytes.storageCapacity })
        #expect(responses[0].bytes.storageCapacity < 2 * total)
        for connection in EncodedResponse.Connection.allCases {
            let variant = identity.ok[connection]
            #expect(variant.connection == connection)
            #expect(variant.bytes.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) } == ranges[0].lowerBound)
        }
    }

    /// On the wire, each connection variant carries its `Connection` line
    /// once, inside the head, and the body intact behind the blank line.
    @Test(arguments: [
        ("HTTP/1.1", [String](), nil as String?, true),
        ("HTTP/1.1", ["Connection: close"], "Connection: close", false),
        ("HTTP/1.0", ["Connection: keep-alive"], "Connection: keep-alive", true),
        ("HTTP/1.0", [], "Connection: close", false),
    ])
    func connectionLineOnTheWire(version: String, headers: [String], line: String?, staysOpen: Bool) async throws {
        let site = try TemporarySite()
        let body = SampleFile.aasa(app: "ABCDE12345.com.a.app")
        try site.write(body, host: "a.example")
        let store = SiteStore()
        store.install(
            try SiteLoader(configuration: site.configuration()).load(previous: .empty, force: true),
            duration: .zero
        )
        let pipeline = ServingPipeline(store: store, limits: .init(), accessLog: nil, shutdown: ShutdownSignal())
        let channel = NIOAsyncTestingChannel()
        try await channel.eventLoop.submit { try pipeline.configure(channel) }.get()
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).get()

        let request = get("a.example", headers: headers).replacingOccurrences(
            of: "HTTP/1.1\r\n",
            with: "\(version)\r\n"
        )
        try await channel.writeInbound(ByteBuffer(string: request))
        var output = ""
        while let buffer = try await channel.readOutbound(as: ByteBuffer.self) {
            output += String(buffer: buffer)
        }
        let parts = output.components(separatedBy: "\r\n\r\n")
        try #require(parts.count == 2)
        let head = parts[0].components(separatedBy: "\r\n")
        #expect(head[0] == "HTTP/1.1 200 OK")
        #expect(head[1].hasPrefix("Date: "))
        #expect(head.filter { $0.hasPrefix("Connection:") } == (line.map { [$0] } ?? []))
        #expect(head.contains("Content-Length: \(body.utf8.count)"))
        #expect(parts[1] == body)
        #expect(await (try? channel.eventLoop.submit { channel.isActive }.get()) == staysOpen)
    }
}
