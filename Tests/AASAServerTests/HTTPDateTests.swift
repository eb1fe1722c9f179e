import Foundation
import NIOCore
import Testing

@testable import AASAServer

/// HTTP-date parsing (RFC 9110 §5.6.7): the three formats a recipient must
/// accept, and nothing else.
@Suite("HTTP dates")
struct HTTPDateTests {
    /// 1994-11-06T08:49:37Z, the RFC's own example.
    static let example = 784_111_777

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994",
        " Sun, 06 Nov 1994 08:49:37 GMT\t",
    ])
    func acceptedFormats(value: String) {
        #expect(HTTPDate.parse(value, currentYear: { 2026 }) == Self.example)
    }

    @Test(arguments: [
        "",
        "Sun, 06 Nov 1994 08:49:37",
        "Sun, 06 Nov 1994 08:49:37 UTC",
        "Sun, 06 Nov 1994 08:49:37 gmt",
        "sun, 06 Nov 1994 08:49:37 GMT",
        "Sun, 06 nov 1994 08:49:37 GMT",
        "Sun, 6 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 94 08:49:37 GMT",
        "Sun, 06 Nov 1994 8:49:37 GMT",
        "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, 06 Nov 1994 08:60:00 GMT",
        "Sun, 30 Feb 1994 08:49:37 GMT",
        "Sun, 29 Feb 1900 08:49:37 GMT",
        "Sun, 00 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 GMT, Sun, 06 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 GMTx",
        "Sun Nov 6 08:49:37 1994",
        "Sun, 06-Nov-94 08:49:37 GMT",
        "1994-11-06T08:49:37Z",
        "784111777",
        "Sün, 06 Nov 1994 08:49:37 GMT",
    ])
    func rejected(value: String) {
        #expect(HTTPDate.parse(value, currentYear: { 2026 }) == nil)
    }

    @Test func leapDaysAndLeapSeconds() {
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 00:00:00 GMT") == 951_782_400)
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 12:00:00 GMT") == 1_709_208_000)
        // Second 60 is in the grammar; it reads as the next second.
        #expect(HTTPDate.parse("Sat, 31 Dec 2016 23:59:60 GMT") == 1_483_228_800)
    }

    /// RFC 850's two-digit year is the one with those digits within 50
    /// years of now, never more than 50 years ahead.
    @Test(arguments: [
        (2026, "76", 2076), (2026, "77", 1977), (2026, "26", 2026), (2099, "01", 2101), (2099, "49", 2149),
        (2099, "50", 2050), (2099, "48", 2148),
    ])
    func twoDigitYears(currentYear: Int, digits: String, year: Int) throws {
        let parsed = try #require(HTTPDate.parse("Friday, 01-Jan-\(digits) 00:00:00 GMT", currentYear: { currentYear }))
        let fixdate = HTTPDate.format(epochSeconds: parsed)
        #expect(fixdate.hasSuffix("01 Jan \(year) 00:00:00 GMT"))
    }

    /// Whatever the origin formats, it parses back to the same second.
    @Test func formatRoundTrips() {
        var seconds = -2_208_988_800  // 1900-01-01
        while seconds < 4_102_444_800 {  // 2100-01-01
            #expect(HTTPDate.parse(HTTPDate.format(epochSeconds: seconds)) == seconds)
            seconds += 86_400 * 37 + 3_661
        }
    }

    /// The bytes written in place are the IMF-fixdate, also for years that
    /// are not four digits (file times far off are formatted, not clamped).
    @Test(arguments: [
        (Self.example, "Sun, 06 Nov 1994 08:49:37 GMT"),
        (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
        (-1, "Wed, 31 Dec 1969 23:59:59 GMT"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
        (253_402_300_800, "Sat, 01 Jan 10000 00:00:00 GMT"),
        (-30_610_224_000, "Wed, 01 Jan 1000 00:00:00 GMT"),
        (-30_641_760_000, "Tue, 01 Jan 999 00:00:00 GMT"),
    ])
    func formatsExactly(seconds: Int, expected: String) {
        #expect(HTTPDate.format(epochSeconds: seconds) == expected)
    }

    /// A connection's `Date` line is the current second's date, and each
    /// refresh rewrites it whole for the second given.
    @Test func dateLineIsTheCurrentSecond() {
        var line = DateLine()
        let before = time(nil)
        line.refresh()
        let after = time(nil)
        let text = String(buffer: line.bytes)
        let expected = (before...after).map { "Date: \(HTTPDate.format(epochSeconds: $0))\r\n" }
        #expect(expected.contains(text))
        line.refresh(now: 784_111_777)
        #expect(String(buffer: line.bytes) == "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n")
    }

    @Test func currentYearIsTodays() {
        let year = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(secondsFromGMT: 0)!, from: Date()).year
        #expect(HTTPDate.currentYear() == year)
    }
}
