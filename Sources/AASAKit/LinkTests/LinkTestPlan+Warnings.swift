extension LinkTestPlan {
    /// URLs listed twice (for the same app), and http URLs, which test no
    /// rule, appended to `warnings`.
    ///
    /// Made on one thread, straight into `warnings`: the run makes them on
    /// a thread of its own while the records take the cores, where chunks
    /// made across the cores and then copied into place held a second copy
    /// of every warning (fresh pages, a retain of each string).
    static func appendListWarnings(_ items: [Item], to warnings: inout [Diagnostic]) {
        let occurrences = DuplicateEntries.occurrences(items, alsoListing: Self.warnsHTTP)
        // The items are read in place: a copy of an item retains every
        // field of its entry and URL.
        items.withUnsafeBufferPointer { items in
            let items = items.baseAddress!
            let count = occurrences.reduce(0) { count, occurrence in
                count + (occurrence.first >= 0 && Self.warnsHTTP(items + Int(occurrence.index)) ? 2 : 1)
            }
            warnings.reserveCapacity(warnings.count + count)
            var scratch: [UInt8] = []
            for occurrence in occurrences {
                let first = occurrence.first < 0 ? nil : items + Int(occurrence.first)
                Self.warnings(for: items + Int(occurrence.index), first: first, into: &warnings, scratch: &scratch)
            }
        }
    }

    /// Whether the item is an http URL for iOS that the list expects an app
    /// to ignore: iOS opens no app for any http URL, so the entry tests no
    /// rule.
    private static func warnsHTTP(_ item: UnsafePointer<Item>) -> Bool {
        item.pointee.isHTTP && item.pointee.entry.platform == .apple && !item.pointee.entry.expectation.opensApp
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
        if Self.warnsHTTP(item) {
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
