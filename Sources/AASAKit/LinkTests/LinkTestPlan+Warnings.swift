extension LinkTestPlan {
    /// URLs listed twice (for the same app), and http URLs, which test no
    /// rule, appended to `warnings`.
    static func appendListWarnings(_ items: [Item], to warnings: inout [Diagnostic]) {
        let firstOccurrences = DuplicateEntries.firstOccurrences(items)
        // The items warned about, found in place: a copy of an item retains
        // every field of its entry and URL. Only a parsed URL has a first
        // occurrence or is http.
        let warned: [Int] = items.withUnsafeBufferPointer { items in
            items.indices.filter { firstOccurrences[$0] >= 0 || items[$0].isHTTP }
        }
        // Their messages made across the cores, in list order: a long list
        // can repeat thousands of URLs, each message a few strings.
        let chunks = ParallelBatch.mapRanges(count: warned.count, parallel: true) { range in
            items.withUnsafeBufferPointer { items in
                // Mostly one warning an item.
                var warnings: [Diagnostic] = []
                warnings.reserveCapacity(range.count)
                var scratch: [UInt8] = []
                for index in warned[range] {
                    let earlier = Int(firstOccurrences[index])
                    let first = earlier < 0 ? nil : items.baseAddress! + earlier
                    Self.warnings(for: items.baseAddress! + index, first: first, into: &warnings, scratch: &scratch)
                }
                return warnings
            }
        }
        // Copied once, into place: joining the chunks and then appending
        // the result copied every message twice (a retain of each string).
        warnings.reserveCapacity(warnings.count + chunks.reduce(0) { $0 + $1.count })
        for chunk in chunks { warnings += chunk }
    }

    /// The warnings about one item: listed before at `first`, an http URL.
    ///
    /// The entries' fields are read in place and each message is written
    /// as bytes, the URL copied from its entry: a copy of each entry, the
    /// URL made a string and then the message interpolated from it, the
    /// place and the file cost more than the rest of the warnings together.
    /// `scratch` holds each message's bytes in turn (a buffer of each
    /// message's own was a malloc and a free, and fresh pages, per warning).
    private static func warnings(
        for item: UnsafePointer<Item>,
        first: UnsafePointer<Item>?,
        into warnings: inout [Diagnostic],
        scratch: inout [UInt8]
    ) {
        if let first {
            let message = Self.message(startingWith: item, in: &scratch) { bytes in
                bytes += " is already listed at ".utf8
                if let file = first.pointee.entry.file {
                    bytes += file.utf8
                    bytes += ": ".utf8
                }
                first.pointee.entry.place.appendDescription(to: &bytes)
                let expectation = first.pointee.entry.expectation
                guard expectation != item.pointee.entry.expectation else { return }
                bytes += " with another expectation (".utf8
                bytes += expectation.rawValue.utf8
                bytes += "), so one of them fails".utf8
            }
            warnings.append(
                Diagnostic(
                    .warning,
                    code: "links.duplicate-url",
                    path: item.pointee.entry.path,
                    message: message,
                    file: item.pointee.entry.file
                )
            )
        }
        if item.pointee.isHTTP, item.pointee.entry.platform == .apple, !item.pointee.entry.expectation.opensApp {
            let message = Self.message(startingWith: item, in: &scratch) { bytes in
                bytes +=
                    " is an http:// URL: iOS opens no app for it whatever the rules say, so this entry tests no rule; list the https:// URL"
                    .utf8
            }
            warnings.append(
                Diagnostic(
                    .warning,
                    code: "links.http-url",
                    path: item.pointee.entry.path,
                    message: message,
                    file: item.pointee.entry.file
                )
            )
        }
    }

    /// The item's URL as written, then what `rest` appends, as a string
    /// (made in `bytes`).
    private static func message(
        startingWith item: UnsafePointer<Item>,
        in bytes: inout [UInt8],
        _ rest: (inout [UInt8]) -> Void
    ) -> String {
        bytes.removeAll(keepingCapacity: true)
        item.pointee.entry.written.withUTF8 { bytes.append(contentsOf: $0) }
        rest(&bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
