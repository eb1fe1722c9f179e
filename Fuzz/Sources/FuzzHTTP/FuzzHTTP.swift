import AASAKit
import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1

// The serving pipeline is internal to AASAServer. SwiftPM compiles every
// module of a debug build with `-enable-testing`, dependencies included, so
// `@testable import` works from this separate package as long as it is
// built `-c debug` (which `.ci/fuzz.sh` does).
@testable import AASAServer

/// A store with two hosts, loaded once per process from a temporary folder.
private let store: SiteStore = {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-fuzz-\(getpid())")
    let files = [
        (
            "a.example", "apple-app-site-association",
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.a.app"],"components":[{"/":"/buy/*"}]}]}}"#
        ),
        (
            "b.example", "apple-app-site-association",
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.b.app"],"components":[{"/":"/*"}]}]}}"#
        ),
        (
            "b.example", "assetlinks.json",
            #"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"com.example.app","sha256_cert_fingerprints":["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}}]"#
        ),
    ]
    do {
        for (host, name, contents) in files {
            let directory = root.appendingPathComponent(host)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: directory.appendingPathComponent(name))
        }
        let configuration = ServerConfiguration(
            http: .init(bind: "127.0.0.1", port: 0),
            admin: nil,
            files: .init(directory: root.path, pollInterval: nil, strict: true),
            hosts: .init(aliases: ["*.b.example=b.example"]),
            log: .init(access: false)
        )
        let outcome = try SiteLoader(configuration: configuration).load(previous: .empty, force: true)
        let store = SiteStore()
        store.install(outcome, duration: .zero)
        try? FileManager.default.removeItem(at: root)
        guard store.snapshot.sites["a.example"] != nil, store.snapshot.sites["b.example"] != nil else {
            fatalError("fuzz fixture did not load: \(store.status.issues)")
        }
        return store
    } catch {
        fatalError("fuzz fixture: \(error)")
    }
}()

private let limits = ServerConfiguration.Limits(
    maxHeaderBytes: 8192,
    headerTimeout: .seconds(10),
    idleTimeout: .seconds(60)
)

/// libFuzzer entry point over the HTTP request path: the input is the byte
/// stream a client sends. It goes through NIO's `HTTPRequestDecoder` and the
/// origin's handlers on an `EmbeddedChannel`, twice: in one read, and split
/// into reads of a size taken from the first byte (so the decoder also sees
/// every boundary). Then time is advanced past the timeouts.
///
/// Besides crashes it checks that whatever the server wrote is a sequence of
/// well-formed responses (each begins `HTTP/1.1 <3 digits> `, has a head
/// ending in CRLF CRLF and exactly the body its `Content-Length` announces,
/// and none follows a `Connection: close`), that the answers do not depend
/// on how the bytes were split into reads, and that the connection is
/// closed once both timeouts have passed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let whole = run(chunks: [bytes[...]], quiesceAfter: nil)
    let step = size > 0 ? Int(bytes[0] % 17) + 1 : 1
    let chunks = stride(from: 0, to: size, by: step).map { bytes[$0..<min($0 + step, size)] }
    let quiesce = size > 1 && bytes[1] & 1 == 1 ? chunks.count / 2 : nil
    let split = run(chunks: chunks, quiesceAfter: quiesce)
    // How the bytes arrive must not change what is answered (unless a
    // quiesce cut the connection short, which may drop later requests).
    if quiesce == nil, withoutDates(whole) != withoutDates(split) {
        fatalError(
            "answers depend on read boundaries:\n\(String(decoding: whole, as: UTF8.self))\n---\n\(String(decoding: split, as: UTF8.self))"
        )
    }
    return 0
}

/// `output` with every `Date` field removed: the two runs may straddle a second.
private func withoutDates(_ output: [UInt8]) -> String {
    String(decoding: output, as: UTF8.self)
        .split(separator: "\r\n", omittingEmptySubsequences: false)
        .filter { !$0.hasPrefix("Date: ") }
        .joined(separator: "\r\n")
}

private func run(chunks: [Slice<UnsafeBufferPointer<UInt8>>], quiesceAfter: Int?) -> [UInt8] {
    let channel = EmbeddedChannel()
    var output: [UInt8] = []
    do {
        try ServingPipeline(store: store, limits: limits, accessLog: nil).configure(channel)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
    } catch {
        fatalError("pipeline setup: \(error)")
    }
    for (index, chunk) in chunks.enumerated() {
        if index == quiesceAfter {
            channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
        guard channel.isActive else { break }
        var buffer = channel.allocator.buffer(capacity: chunk.count)
        buffer.writeBytes(UnsafeBufferPointer(rebasing: chunk))
        do {
            try channel.writeInbound(buffer)
        } catch {
            // The handler answers parser errors itself; anything reaching
            // here is the channel refusing input after it closed.
            break
        }
        drain(channel, into: &output)
    }
    // Past both the header (10 s) and the idle (60 s) timeout: whatever
    // state the bytes left the connection in, it must be closed now.
    channel.embeddedEventLoop.advanceTime(by: .seconds(61))
    drain(channel, into: &output)
    if channel.isActive {
        fatalError("connection still open after both timeouts")
    }
    _ = try? channel.finish(acceptAlreadyClosed: true)
    checkResponses(output)
    return output
}

private func drain(_ channel: EmbeddedChannel, into output: inout [UInt8]) {
    while let buffer = try? channel.readOutbound(as: ByteBuffer.self) {
        output.append(contentsOf: buffer.readableBytesView)
    }
}

private let crlfcrlf = Array("\r\n\r\n".utf8)

/// Traps unless `output` is zero or more complete, well-formed responses,
/// none after one that said `Connection: close`. HEAD responses carry a
/// Content-Length but no body: a head directly followed by another status
/// line or by the end is taken as bodiless.
private func checkResponses(_ output: [UInt8]) {
    var rest = output[...]
    var closed = false
    while !rest.isEmpty {
        if closed {
            fatalError("bytes after a Connection: close response: \(String(decoding: rest.prefix(200), as: UTF8.self))")
        }
        guard rest.starts(with: Array("HTTP/1.1 ".utf8)), rest.count >= 13,
            rest.dropFirst(9).prefix(3).allSatisfy({ (0x30...0x39).contains($0) }),
            let end = rest.firstRange(of: crlfcrlf)
        else {
            fatalError("malformed response: \(String(decoding: rest.prefix(200), as: UTF8.self))")
        }
        let head = String(decoding: rest[rest.startIndex..<end.lowerBound], as: UTF8.self)
        let status = Int(String(decoding: rest.dropFirst(9).prefix(3), as: UTF8.self)) ?? 0
        var length = 0
        for line in head.split(separator: "\r\n").dropFirst() {
            let lowercased = line.lowercased()
            if lowercased.hasPrefix("content-length:") {
                length = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? -1
            }
            if lowercased == "connection: close" { closed = true }
        }
        if length < 0 { fatalError("bad Content-Length in: \(head)") }
        let afterHead = rest[end.upperBound...]
        if status == 304 || afterHead.starts(with: Array("HTTP/1.1 ".utf8)) || afterHead.isEmpty {
            // 304 and HEAD: no body (a body cannot begin with a status
            // line here: bodies are JSON or empty).
            rest = afterHead
            continue
        }
        guard afterHead.count >= length else {
            fatalError("truncated body (\(afterHead.count) of \(length)) after: \(head)")
        }
        rest = afterHead.dropFirst(length)
    }
}
