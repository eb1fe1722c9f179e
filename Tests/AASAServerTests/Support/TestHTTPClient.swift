import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// A deliberately dumb HTTP/1 client for end-to-end tests: it writes raw
/// bytes (so tests can send malformed requests) and splits what comes back
/// into responses. It is not the server's parser and trusts the server.
struct TestHTTPClient {
    let port: Int
    /// When set, connect over TLS with this SNI name, trusting only `trustRoot` (PEM).
    var tls: (serverName: String, trustRoot: String)? = nil

    /// One connection: send `request`, read until `responses` complete
    /// responses arrived or the server closed. `heads` lists, per expected
    /// response, whether it answers a HEAD (no body despite Content-Length).
    func exchange(_ request: String, responses: Int = 1, heads: Set<Int> = []) async throws -> Exchange {
        try await withDeadline(.seconds(10)) {
            let channel = try await connect()
            return try await channel.executeThenClose { inbound, outbound in
                try await outbound.write(ByteBuffer(string: request))
                return try await Self.read(inbound, until: responses, heads: heads)
            }
        }
    }

    func connect() async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { [tls] channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        var configuration = TLSConfiguration.makeClientConfiguration()
                        configuration.trustRoots = .certificates(
                            try NIOSSLCertificate.fromPEMBytes(Array(tls.trustRoot.utf8))
                        )
                        let context = try NIOSSLContext(configuration: configuration)
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: context, serverHostname: tls.serverName)
                        )
                    }
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
    }

    static func read(
        _ inbound: NIOAsyncChannelInboundStream<ByteBuffer>,
        until count: Int,
        heads: Set<Int> = []
    ) async throws -> Exchange {
        var iterator = inbound.makeAsyncIterator()
        return try await read(&iterator, until: count, heads: heads)
    }

    /// Reads from an iterator the caller keeps, for several exchanges on
    /// one connection (a stream has one iterator). Each exchange must have
    /// been read whole before the next request is sent.
    static func read(
        _ iterator: inout NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator,
        until count: Int,
        heads: Set<Int> = []
    ) async throws -> Exchange {
        var buffer = ByteBuffer()
        var responses: [TestResponse] = []
        while responses.count < count {
            while let response = TestResponse.take(from: &buffer, isHead: heads.contains(responses.count)) {
                responses.append(response)
            }
            if responses.count >= count { break }
            guard var chunk = try await iterator.next() else {
                return Exchange(responses: responses, closed: true)
            }
            buffer.writeBuffer(&chunk)
        }
        return Exchange(responses: responses, closed: false)
    }

    struct Exchange {
        var responses: [TestResponse]
        /// The server closed the connection before `responses` were all read.
        var closed: Bool

        var first: TestResponse? { responses.first }
    }
}

struct TestResponse: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    var bodyText: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// Removes one complete response from the front of `buffer`, if there is one.
    static func take(from buffer: inout ByteBuffer, isHead: Bool) -> TestResponse? {
        let view = buffer.readableBytesView
        guard let end = view.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
        let headText = String(decoding: view[view.startIndex..<end.lowerBound], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        let headers = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let headLength = end.upperBound - view.startIndex
        var length = 0
        if !isHead, status != 304, let value = headers.first(where: { $0.0.lowercased() == "content-length" })?.1 {
            length = Int(value) ?? 0
        }
        guard buffer.readableBytes >= headLength + length else { return nil }
        buffer.moveReaderIndex(forwardBy: headLength)
        let body = buffer.readBytes(length: length) ?? []
        return TestResponse(status: status, headers: headers, body: body)
    }
}

struct DeadlineExceeded: Error {}

/// Runs `body`, failing if it takes longer than `timeout` (a guard against a
/// hung test, not a synchronisation device).
func withDeadline<T: Sendable>(_ timeout: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T
{
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw DeadlineExceeded()
        }
        defer { group.cancelAll() }
        guard let result = try await group.next() else { throw DeadlineExceeded() }
        return result
    }
}

/// `GET <path>` with a Host header.
func get(
    _ host: String?,
    _ path: String = "/.well-known/apple-app-site-association",
    method: String = "GET",
    headers: [String] = []
) -> String {
    var request = "\(method) \(path) HTTP/1.1\r\n"
    if let host { request += "Host: \(host)\r\n" }
    for header in headers { request += header + "\r\n" }
    return request + "\r\n"
}
