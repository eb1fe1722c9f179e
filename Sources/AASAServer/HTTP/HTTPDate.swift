import Foundation
import NIOCore

/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the one date format HTTP
/// senders use. Formatted by hand: it is fixed-width ASCII in UTC, and this
/// runs once per second per connection.
enum HTTPDate {
    /// Three letters each, from Thursday (1970-01-01 was one) and January.
    private static let weekdays: StaticString = "ThuFriSatSunMonTueWed"
    private static let months: StaticString = "JanFebMarAprMayJunJulAugSepOctNovDec"

    static func format(_ date: Date) -> String {
        format(epochSeconds: Int(date.timeIntervalSince1970.rounded(.down)))
    }

    static func format(epochSeconds: Int) -> String {
        var buffer = ByteBuffer()
        write(epochSeconds: epochSeconds, into: &buffer)
        return String(buffer: buffer)
    }

    /// Appends the date's 29 bytes to `buffer` without building a string:
    /// each connection's `Date` line is rewritten in place once a second.
    static func write(epochSeconds: Int, into buffer: inout ByteBuffer) {
        let days = epochSeconds >= 0 ? epochSeconds / 86_400 : (epochSeconds - 86_399) / 86_400
        let secondsOfDay = epochSeconds - days * 86_400
        let (year, month, day) = civilDate(days: days)
        writeName(weekdays, index: ((days % 7) + 7) % 7, into: &buffer)
        buffer.writeStaticString(", ")
        writeTwoDigits(day, into: &buffer)
        buffer.writeInteger(UInt8(ascii: " "))
        writeName(months, index: month - 1, into: &buffer)
        buffer.writeInteger(UInt8(ascii: " "))
        if (1000...9999).contains(year) {
            writeTwoDigits(year / 100, into: &buffer)
            writeTwoDigits(year % 100, into: &buffer)
        } else {
            buffer.writeString(String(year))
        }
        buffer.writeInteger(UInt8(ascii: " "))
        writeTwoDigits(secondsOfDay / 3600, into: &buffer)
        buffer.writeInteger(UInt8(ascii: ":"))
        writeTwoDigits(secondsOfDay / 60 % 60, into: &buffer)
        buffer.writeInteger(UInt8(ascii: ":"))
        writeTwoDigits(secondsOfDay % 60, into: &buffer)
        buffer.writeStaticString(" GMT")
    }

    private static func writeName(_ names: StaticString, index: Int, into buffer: inout ByteBuffer) {
        names.withUTF8Buffer { buffer.writeBytes($0[(index * 3)..<(index * 3 + 3)]) }
    }

    private static func writeTwoDigits(_ value: Int, into buffer: inout ByteBuffer) {
        buffer.writeInteger(UInt8(ascii: "0") + UInt8(value / 10))
        buffer.writeInteger(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// The Gregorian date `days` after 1970-01-01 (month and day from 1).
    static func civilDate(days: Int) -> (year: Int, month: Int, day: Int) {
        // Civil-from-days (Howard Hinnant's algorithm), exact for all dates.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
