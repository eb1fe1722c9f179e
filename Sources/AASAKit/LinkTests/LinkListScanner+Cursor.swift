extension LinkListScanner {
    /// A scan over the bytes of a links file, from `index` on.
    struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var index: Int
        /// The rest of the document scanned from a later place on another
        /// thread, for this scan to take if it arrives there at an
        /// element's start.
        private var secondHalf: SecondHalf?
        /// The second half's rest, once taken: the lists after the one it
        /// started in, already scanned through to the document's end.
        private var taken: SecondHalf.Rest?

        /// How often ``elements(into:)`` tells a second half its progress.
        static let elementsPerCheck = 256

        init(bytes: UnsafeBufferPointer<UInt8>, index: Int = 0, secondHalf: SecondHalf? = nil) {
            self.bytes = bytes
            self.index = index
            self.secondHalf = secondHalf
        }

        /// `{ "key": [ "url", … ], … }` and nothing after it.
        mutating func document(into lists: inout [[Span]?]) -> Bool {
            skipWhitespace()
            guard take(UInt8(ascii: "{")) else { return false }
            repeat {
                skipWhitespace()
                // A key written twice is an error of the full reader.
                guard let which = key(), lists[which] == nil else { return false }
                skipWhitespace()
                guard take(UInt8(ascii: ":")), let urls = list() else { return false }
                lists[which] = urls
                if let taken {
                    // The lists the second half went on to read, with the
                    // check each of their keys would have had here.
                    for (which, urls) in taken.lists {
                        guard lists[which] == nil else { return false }
                        lists[which] = urls
                    }
                    return true
                }
                skipWhitespace()
            } while take(UInt8(ascii: ","))
            return end()
        }

        /// The rest of a document after a member's value: more members
        /// (their lists in `lists`, in order, keys not checked against
        /// earlier ones), `}` and nothing after it.
        mutating func rest(into lists: inout [(which: Int, urls: [Span])]) -> Bool {
            skipWhitespace()
            while take(UInt8(ascii: ",")) {
                skipWhitespace()
                guard let which = key() else { return false }
                skipWhitespace()
                guard take(UInt8(ascii: ":")), let urls = list() else { return false }
                lists.append((which, urls))
                skipWhitespace()
            }
            return end()
        }

        /// `}` and nothing after it.
        private mutating func end() -> Bool {
            guard take(UInt8(ascii: "}")) else { return false }
            skipWhitespace()
            return index == bytes.count
        }

        /// One of the keys accepted, by its index in ``LinkListScanner/keys``.
        private mutating func key() -> Int? {
            var ascii = true
            guard let key = stringBytes(ascii: &ascii) else { return nil }
            return LinkListScanner.keyBytes.firstIndex(where: key.elementsEqual)
        }

        /// `[ "url", … ]`, at least one, each non-empty and valid UTF-8.
        mutating func list() -> [Span]? {
            skipWhitespace()
            guard take(UInt8(ascii: "[")) else { return nil }
            var spans: [Span] = []
            guard elements(into: &spans), take(UInt8(ascii: "]")) else { return nil }
            return spans
        }

        /// `"url", …` up to the first element no `,` follows, each
        /// non-empty and valid UTF-8.
        ///
        /// Arriving at the second half's start where an element starts,
        /// this scan would go on from there exactly as that one did: its
        /// elements, up to its list's `]`, and the rest it read are taken
        /// instead (a second half that failed is scanned again here, so
        /// the serial scan decides).
        mutating func elements(into spans: inout [Span]) -> Bool {
            var place = secondHalf?.place(progress: index) ?? -1
            var count = 0
            repeat {
                skipWhitespace()
                if index == place, let half = secondHalf {
                    secondHalf = nil
                    if let rest = half.rest() {
                        spans.append(contentsOf: rest.spans)
                        index = rest.listEnd
                        taken = rest
                        return true
                    }
                }
                var ascii = true
                guard let raw = stringBytes(ascii: &ascii), !raw.isEmpty else { return false }
                guard ascii || UTF8Text.decode(raw) != nil else { return false }
                spans.append(Span(start: Int32(raw.startIndex), count: Int32(raw.count)))
                skipWhitespace()
                count &+= 1
                // The progress told, and the place looked for, now and then:
                // a lock per element would cost more than the scan.
                if count % Self.elementsPerCheck == 0, let half = secondHalf {
                    place = half.place(progress: index) ?? -1
                }
            } while take(UInt8(ascii: ","))
            return true
        }

        /// The raw bytes of a string without escapes or control characters;
        /// `ascii` is cleared when one of them is not ASCII.
        ///
        /// Eight bytes are read at a time until a word holds the closing
        /// quote, a backslash or a control character; the first of them is
        /// found from the word's flags, not byte by byte. The scan is the
        /// longer half of a run's start, and a byte loop spent three
        /// compares on every byte of a 6.6 MB list.
        mutating func stringBytes(ascii: inout Bool) -> UnsafeBufferPointer<UInt8>.SubSequence? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            var seen: UInt64 = 0
            if let base = bytes.baseAddress {
                while index + 8 <= bytes.count {
                    // The first byte in memory is the word's lowest.
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                    let stops = LinkListScanner.stops(word)
                    guard stops != 0 else {
                        seen |= word
                        index += 8
                        continue
                    }
                    let before = stops.trailingZeroBitCount / 8
                    seen |= word & ~(UInt64.max << (before * 8))
                    index += before
                    return closed(start: start, seen: seen, ascii: &ascii)
                }
            }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                seen |= UInt64(byte)
                index += 1
            }
            return closed(start: start, seen: seen, ascii: &ascii)
        }

        /// The string from `start` when the byte at `index` is its closing
        /// quote (a backslash, a control character or the end is not).
        private mutating func closed(
            start: Int,
            seen: UInt64,
            ascii: inout Bool
        ) -> UnsafeBufferPointer<UInt8>.SubSequence? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            if seen & LinkListScanner.highBits != 0 { ascii = false }
            return bytes[start..<index - 1]
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }
    }
}
