import Foundation
import Testing

@testable import AASAKit

/// AASAKit decodes UTF-8 strictly on every platform it builds for,
/// including iOS 16 / macOS 13, where `String(validating:as:)` is missing.
@Suite struct UTF8TextTests {
    static let cases: [([UInt8], String?)] = [
        ([], ""),
        (Array("café 日本 🇫🇷".utf8), "café 日本 🇫🇷"),
        ([0xEF, 0xBB, 0xBF, 0x61], "\u{FEFF}a"),  // a BOM is a character, kept
        ([0x61, 0xFF], nil),
        ([0xC0, 0xAF], nil),  // overlong "/"
        ([0xED, 0xA0, 0x80], nil),  // an encoded surrogate
        ([0x61, 0xE2, 0x82], nil),  // truncated at the end
        ([0xF4, 0x90, 0x80, 0x80], nil),  // above U+10FFFF
        ([0x80], nil),  // a lone continuation byte
    ]

    @Test(arguments: cases)
    func bothPathsDecodeAlike(bytes: [UInt8], expected: String?) {
        #expect(UTF8Text.decode(bytes) == expected)
        #expect(UTF8Text.decodeWithScalarParser(bytes) == expected)
        #expect(UTF8Text.decodeWithScalarParser(bytes[...]) == expected)
    }

    /// The iOS 16 floor holds only if nothing in AASAKit calls the
    /// standard library's iOS 18 initialiser directly.
    @Test func aasaKitCallsNoIOS18Initialiser() throws {
        let sources = URL(filePath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "Sources/AASAKit")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
        let callers = try files.filter { $0.hasSuffix(".swift") && !$0.hasSuffix("UTF8Text.swift") }.filter {
            try String(contentsOf: sources.appending(path: $0), encoding: .utf8).contains("String(validating:")
        }
        #expect(callers.isEmpty, "use UTF8Text.decode instead: \(callers)")
    }
}
