import Testing

@testable import AASAServer

/// The scanner jumps from LF to LF; this checks it against the plain
/// definition (every byte stepped through, as it was written first) on
/// random streams cut into random reads.
@Suite("Head scanner, differential")
struct HeadScannerDifferentialTests {
    /// The byte-at-a-time scanner, kept here as the reference.
    struct Reference {
        let maximumRequestLine: Int
        var phase = 0  // 0 between heads, 1 request line, 2 fields
        var requestLineLength = 0
        var tail: UInt64 = 0

        mutating func scan(_ bytes: [UInt8]) -> HeadScanner.Finding {
            for (offset, byte) in bytes.enumerated() {
                tail = tail &<< 8 | UInt64(byte)
                switch phase {
                case 0:
                    if byte != 13 && byte != 10 {
                        phase = 1
                        requestLineLength = 1
                    }
                case 1:
                    if byte == 10 {
                        func at(_ back: Int) -> UInt8 { UInt8(truncatingIfNeeded: tail >> (8 * back)) }
                        func digit(_ value: UInt8) -> Bool { (48...57).contains(value) }
                        let version =
                            at(1) == 13 && digit(at(2)) && at(3) == 46 && digit(at(4)) && at(5) == 47
                            && at(6) == 80 && at(7) == 84
                        guard version else { return .requestLineMalformed }
                        phase = 2
                    } else {
                        requestLineLength += 1
                        if requestLineLength > maximumRequestLine { return .requestLineTooLong }
                    }
                default:
                    if tail & 0xFFFF_FFFF == 0x0D0A_0D0A {
                        phase = 0
                        return .headEnd(count: offset + 1)
                    }
                }
            }
            return .none
        }
    }

    /// Findings of a stream read in `cuts`-sized pieces, until a finding
    /// that ends the connection.
    static func findings(_ stream: [UInt8], cuts: [Int], limit: Int, reference: Bool) -> [HeadScanner.Finding] {
        var scanner = HeadScanner(maximumRequestLine: limit)
        var plain = Reference(maximumRequestLine: limit)
        var findings: [HeadScanner.Finding] = []
        var start = 0
        var cut = 0
        while start < stream.count {
            let end = min(stream.count, start + cuts[cut % cuts.count])
            cut += 1
            var piece = Array(stream[start..<end])
            start = end
            while !piece.isEmpty {
                let finding = reference ? plain.scan(piece) : piece.withUnsafeBytes { scanner.scan($0) }
                findings.append(finding)
                switch finding {
                case .headEnd(let count): piece.removeFirst(count)
                case .none: piece = []
                case .requestLineTooLong, .requestLineMalformed: return findings
                }
            }
        }
        return findings
    }

    @Test func agreesWithTheByteByByteScanner() {
        var generator = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [
            "GET / HTTP/1.1", "HTTP/1.0", "\r\n", "\r\n\r\n", "\r", "\n", "Host: a", "X: ", "a", " ", "/", "1.1",
            "TP/", "\r\n\r", "\n\r\n",
        ].map { Array($0.utf8) }
        for _ in 0..<3000 {
            var stream: [UInt8] = []
            for _ in 0..<Int.random(in: 0...24, using: &generator) {
                stream += pieces.randomElement(using: &generator)!
            }
            let cuts = (0..<4).map { _ in Int.random(in: 1...20, using: &generator) }
            let limit = Int.random(in: 4...40, using: &generator)
            let fast = Self.findings(stream, cuts: cuts, limit: limit, reference: false)
            let plain = Self.findings(stream, cuts: cuts, limit: limit, reference: true)
            #expect(
                fast == plain,
                "\(String(decoding: stream, as: UTF8.self).debugDescription) cuts \(cuts) limit \(limit)"
            )
            if fast != plain { return }
        }
    }
}
