import Foundation
import NIOCore
import NIOPosix
import Testing

@testable import AASAServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Support for HostileInputTests: a served origin, raw sends, slow clients.

extension HostileInputTests {
    /// Runs `body` against a fresh origin serving a.example and b.example,
    /// then checks that the origin still serves a normal request.
    static func serving(_ body: @Sendable (RunningOrigin) async throws -> Void) async throws {
        let site = try site()
        try await RunningOrigin.with(site.configuration()) { origin in
            try await body(origin)
            try await expectServing(origin)
        }
    }

    /// A normal GET on a fresh connection gets a's file.
    static func expectServing(_ origin: RunningOrigin, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let response = try await origin.client.exchange(get("a.example")).first
        #expect(response?.status == 200, "the server stopped serving", sourceLocation: sourceLocation)
        #expect(response?.bodyText.contains("com.a.app") == true, sourceLocation: sourceLocation)
    }

    /// How many slow connections this process can hold: each costs two file
    /// descriptors here (client and server end). Raises the soft limit to
    /// the hard one if needed; if that is still short, scales down and says so.
    static func affordableConnections(wanted: Int) -> Int {
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        let needed = rlim_t(2 * wanted + 512)
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return wanted }
        if limit.rlim_cur < needed {
            limit.rlim_cur = min(needed, limit.rlim_max)
            _ = setrlimit(resource, &limit)
            _ = getrlimit(resource, &limit)
        }
        guard limit.rlim_cur < needed else { return wanted }
        let affordable = max(10, (Int(limit.rlim_cur) - 512) / 2)
        print("note: RLIMIT_NOFILE is \(limit.rlim_cur); testing \(affordable) slow connections instead of \(wanted)")
        return affordable
    }

    /// Opens `count` connections, 100 at a time, each sending a partial head.
    static func openSlowConnections(_ count: Int, port: Int) async throws -> [any Channel] {
        let partial = "GET \(aasaPath) HTTP/1.1\r\nHost: a.exa"
        var channels: [any Channel] = []
        channels.reserveCapacity(count)
        for batchStart in stride(from: 0, to: count, by: 100) {
            try await withThrowingTaskGroup(of: (any Channel).self) { group in
                for _ in batchStart..<min(batchStart + 100, count) {
                    group.addTask {
                        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                            .connect(host: "127.0.0.1", port: port).get()
                        try await channel.writeAndFlush(ByteBuffer(string: partial))
                        return channel
                    }
                }
                for try await channel in group { channels.append(channel) }
            }
        }
        return channels
    }

    /// One more byte on every open slow connection every 500 ms, until cancelled.
    static func trickle(to channels: [any Channel]) async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: .milliseconds(500))  // pacing
            } catch {
                return
            }
            for channel in channels where channel.isActive {
                channel.writeAndFlush(ByteBuffer(string: "m"), promise: nil)
            }
        }
    }

    /// A TLS 1.3-style ClientHello record with SNI, as a browser would open
    /// with on port 443.
    static func clientHello(serverName: String) -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        func u24(_ value: Int) -> [UInt8] { [UInt8(value >> 16 & 0xFF)] + u16(value) }
        let name = Array(serverName.utf8)
        let sni = u16(name.count + 3) + [0x00] + u16(name.count) + name
        let extensions =
            [0x00, 0x00] + u16(sni.count) + sni  // server_name
            + [0x00, 0x2B, 0x00, 0x03, 0x02, 0x03, 0x04]  // supported_versions: TLS 1.3
        var body: [UInt8] = [0x03, 0x03] + [UInt8](repeating: 0x42, count: 32)  // version, random
        body += [0x00]  // session id
        body += u16(4) + [0x13, 0x01, 0x13, 0x02]  // cipher suites
        body += [0x01, 0x00]  // compression: null
        body += u16(extensions.count) + extensions
        let handshake = [0x01] + u24(body.count) + body
        return [0x16, 0x03, 0x01] + u16(handshake.count) + handshake
    }
}

/// What came back on one raw connection.
struct RawOutcome: Sendable {
    var responses: [TestResponse]
    /// The server closed (or reset) the connection.
    var closed: Bool

    var statuses: [Int] { responses.map(\.status) }
}

extension RunningOrigin {
    /// Writes `bytes` on a fresh connection while reading: reads until
    /// `responses` responses arrived, and with `untilClosed` on until the
    /// server closes (a reset counts as a close; a write the server refused
    /// by closing is not an error). Bounded by `deadline`.
    func send(
        _ bytes: [UInt8],
        responses expected: Int = 1,
        untilClosed: Bool = false,
        heads: Set<Int> = [],
        deadline: Duration = .seconds(10)
    ) async throws -> RawOutcome {
        let channel = try await client.connect()
        return try await withDeadline(deadline) {
            try await channel.executeThenClose { inbound, outbound in
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { try? await outbound.write(ByteBuffer(bytes: bytes)) }
                    var buffer = ByteBuffer()
                    var outcome = RawOutcome(responses: [], closed: false)
                    var iterator = inbound.makeAsyncIterator()
                    reading: while true {
                        while let response = TestResponse.take(
                            from: &buffer,
                            isHead: heads.contains(outcome.responses.count)
                        ) {
                            outcome.responses.append(response)
                        }
                        if outcome.responses.count >= expected, !untilClosed { break }
                        do {
                            guard var chunk = try await iterator.next() else {
                                outcome.closed = true
                                break reading
                            }
                            buffer.writeBuffer(&chunk)
                        } catch {
                            outcome.closed = true
                            break reading
                        }
                    }
                    group.cancelAll()
                    return outcome
                }
            }
        }
    }

    func send(
        _ text: String,
        responses: Int = 1,
        untilClosed: Bool = false,
        heads: Set<Int> = [],
        deadline: Duration = .seconds(10)
    ) async throws -> RawOutcome {
        try await send(
            Array(text.utf8),
            responses: responses,
            untilClosed: untilClosed,
            heads: heads,
            deadline: deadline
        )
    }
}
