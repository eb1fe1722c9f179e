import Testing

@testable import AASAServer

/// The scanner that cuts the input into one request head at a time.
@Suite("Head scanner")
struct HeadScannerTests {
    static func scan(_ text: String, limit: Int = 8192) -> [HeadScanner.Finding] {
        var scanner = HeadScanner(maximumRequestLine: limit)
        var bytes = Array(text.utf8)[...]
        var findings: [HeadScanner.Finding] = []
        while !bytes.isEmpty {
            let finding = bytes.withUnsafeBytes { scanner.scan($0) }
            findings.append(finding)
            guard case .headEnd(let count) = finding else { break }
            bytes = bytes.dropFirst(count)
        }
        return findings
    }

    @Test func cutsPipelinedHeadsOneByOne() {
        let one = "GET /a HTTP/1.1\r\nHost: a\r\n\r\n"
        let two = "HEAD /b HTTP/1.0\r\n\r\n"
        #expect(Self.scan(one + two) == [.headEnd(count: one.utf8.count), .headEnd(count: two.utf8.count)])
    }

    @Test func aPartialHeadIsHandedOverWhole() {
        var scanner = HeadScanner(maximumRequestLine: 8192)
        #expect(Array("GET / HTTP/1.1\r\nHo".utf8).withUnsafeBytes { scanner.scan($0) } == .none)
        #expect(scanner.isInHead)
        // The head's end split across reads, even inside CRLF CRLF.
        #expect(Array("st: a\r\n\r".utf8).withUnsafeBytes { scanner.scan($0) } == .none)
        #expect(Array("\nGET".utf8).withUnsafeBytes { scanner.scan($0) } == .headEnd(count: 1))
        #expect(!scanner.isInHead)
    }

    @Test func emptyLinesBetweenRequestsAreNotAHead() {
        var scanner = HeadScanner(maximumRequestLine: 8192)
        #expect(Array("\r\n\r\n".utf8).withUnsafeBytes { scanner.scan($0) } == .none)
        #expect(!scanner.isInHead)
    }

    @Test(arguments: [
        ("HTTP/0.9", "GET /\r\n"),
        ("no version, path with spaces", "GET /a b c\r\n"),
        ("bare LF", "GET / HTTP/1.1\n"),
        ("version too short", "GET / P/1.1\r\n"),
        ("letters for digits", "GET / HTTP/x.y\r\n"),
    ])
    func requestLinesWithoutAVersionAreRefusedAtTheirEnd(_ name: String, line: String) {
        #expect(Self.scan(line + "Host: a\r\n\r\n") == [.requestLineMalformed], "\(name)")
    }

    /// A short line cannot borrow a version from the bytes before it.
    @Test func theVersionMustBeOnTheLineItself() {
        #expect(Self.scan("GET / HTTP/1.1\r\n\r\nX\r\n") == [.headEnd(count: 18), .requestLineMalformed])
    }

    @Test func aRequestLineOverTheLimitIsFoundBeforeItEnds() {
        let line = "GET /" + String(repeating: "a", count: 100)
        #expect(Self.scan(line, limit: 64) == [.requestLineTooLong])
        #expect(Self.scan("GET /" + String(repeating: "a", count: 40) + " HTTP/1.1\r\n\r\n", limit: 64).count == 1)
    }

    @Test func longFieldsAreNotTheRequestLine() {
        let head = "GET / HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 500) + "\r\n\r\n"
        #expect(Self.scan(head, limit: 64) == [.headEnd(count: head.utf8.count)])
    }
}
