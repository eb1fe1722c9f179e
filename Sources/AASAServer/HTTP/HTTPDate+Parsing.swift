import Foundation

extension HTTPDate {
    /// Seconds since 1970 of an HTTP-date in any of the three formats a
    /// recipient must accept (RFC 9110 §5.6.7): IMF-fixdate
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form
    /// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`).
    /// `nil` for anything else, including impossible dates (`31 Feb`) and a
    /// list of dates: the caller then ignores the field.
    ///
    /// Reads the bytes in place; nothing is allocated.
    ///
    /// - Parameter currentYear: only for RFC 850's two-digit year, read as
    ///   the year with those digits within 50 years of now.
    static func parse(_ value: some StringProtocol, currentYear: () -> Int = HTTPDate.currentYear) -> Int? {
        var scanner = DateScanner(value.utf8)
        scanner.skipSpaces()
        if let date = scanner.imfFixdate() ?? scanner.rfc850(currentYear: currentYear) ?? scanner.asctime() {
            scanner.skipSpaces()
            return scanner.isAtEnd ? date.epochSeconds : nil
        }
        return nil
    }

    static func currentYear() -> Int {
        civilDate(days: Int(Date().timeIntervalSince1970.rounded(.down)) / 86_400).year
    }

    static let shortDayNames: [StaticString] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let longDayNames: [StaticString] = [
        "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
    ]
    static let monthNames: [StaticString] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
}

/// A calendar date and time of day in UTC, as written in an HTTP-date.
private struct CivilTime {
    var year: Int
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int

    /// `nil` when the fields do not name a real instant (`31 Feb`, `25:00`).
    init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        // The grammar allows second 60: a leap second.
        guard (1...12).contains(month), day >= 1, day <= Self.length(ofMonth: month, year: year),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second) = (hour, minute, second)
    }

    private static func length(ofMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    var epochSeconds: Int {
        // Days-from-civil (Howard Hinnant's algorithm), the inverse of
        // `HTTPDate.format`'s.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + hour * 3600 + minute * 60 + second
    }
}

/// A cursor over the bytes of a date; each format tries from the start.
private struct DateScanner<Bytes: Collection<UInt8>> {
    let bytes: Bytes
    var index: Bytes.Index

    init(_ bytes: Bytes) {
        self.bytes = bytes
        self.index = bytes.startIndex
    }

    var isAtEnd: Bool { index == bytes.endIndex }

    mutating func skipSpaces() {
        while index < bytes.endIndex, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
            index = bytes.index(after: index)
        }
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`
    mutating func imfFixdate() -> CivilTime? {
        attempt { scanner in
            guard scanner.name(in: HTTPDate.shortDayNames) != nil, scanner.literal(", "),
                let day = scanner.number(digits: 2), scanner.literal(" "),
                let month = scanner.name(in: HTTPDate.monthNames), scanner.literal(" "),
                let year = scanner.number(digits: 4), scanner.literal(" ")
            else { return nil }
            return scanner.timeOfDay(year: year, month: month + 1, day: day, then: " GMT")
        }
    }

    /// `Sunday, 06-Nov-94 08:49:37 GMT`
    mutating func rfc850(currentYear: () -> Int) -> CivilTime? {
        attempt { scanner in
            guard scanner.name(in: HTTPDate.longDayNames) != nil, scanner.literal(", "),
                let day = scanner.number(digits: 2), scanner.literal("-"),
                let month = scanner.name(in: HTTPDate.monthNames), scanner.literal("-"),
                let twoDigitYear = scanner.number(digits: 2), scanner.literal(" ")
            else { return nil }
            let now = currentYear()
            var year = now - now % 100 + twoDigitYear
            // RFC 9110: more than 50 years ahead means the century before.
            // Symmetrically, 50 or more years back means the next century.
            if year > now + 50 { year -= 100 } else if year <= now - 50 { year += 100 }
            return scanner.timeOfDay(year: year, month: month + 1, day: day, then: " GMT")
        }
    }

    /// `Sun Nov  6 08:49:37 1994` (a one-digit day is padded with a space).
    mutating func asctime() -> CivilTime? {
        attempt { scanner in
            guard scanner.name(in: HTTPDate.shortDayNames) != nil, scanner.literal(" "),
                let month = scanner.name(in: HTTPDate.monthNames), scanner.literal(" ")
            else { return nil }
            let day: Int
            if scanner.literal(" "), let digit = scanner.number(digits: 1) {
                day = digit
            } else if let digits = scanner.number(digits: 2) {
                day = digits
            } else {
                return nil
            }
            guard scanner.literal(" "), let hour = scanner.number(digits: 2), scanner.literal(":"),
                let minute = scanner.number(digits: 2), scanner.literal(":"),
                let second = scanner.number(digits: 2), scanner.literal(" "),
                let year = scanner.number(digits: 4)
            else { return nil }
            return CivilTime(year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second)
        }
    }

    /// `08:49:37` followed by `suffix`.
    private mutating func timeOfDay(year: Int, month: Int, day: Int, then suffix: StaticString) -> CivilTime? {
        guard let hour = number(digits: 2), literal(":"), let minute = number(digits: 2), literal(":"),
            let second = number(digits: 2), literal(suffix)
        else { return nil }
        return CivilTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// Runs `parse` from the current position; on failure the position is
    /// left where it was, for the next format to try.
    private mutating func attempt(_ parse: (inout Self) -> CivilTime?) -> CivilTime? {
        let start = index
        if let time = parse(&self) { return time }
        index = start
        return nil
    }

    private mutating func literal(_ text: StaticString) -> Bool {
        var position = index
        for expected in UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount) {
            guard position < bytes.endIndex, bytes[position] == expected else { return false }
            position = bytes.index(after: position)
        }
        index = position
        return true
    }

    /// The index in `names` of the (case-sensitive) name here.
    private mutating func name(in names: [StaticString]) -> Int? {
        for (offset, name) in names.enumerated() where literal(name) { return offset }
        return nil
    }

    private mutating func number(digits count: Int) -> Int? {
        var value = 0
        var position = index
        for _ in 0..<count {
            guard position < bytes.endIndex else { return nil }
            let byte = bytes[position]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            position = bytes.index(after: position)
        }
        index = position
        return value
    }
}
