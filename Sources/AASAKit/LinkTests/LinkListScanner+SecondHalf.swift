import Foundation

extension LinkListScanner {
    /// The rest of a long links file from a place past the scan's progress,
    /// scanned on a thread of its own while the scan from the start runs.
    ///
    /// The scan of a 100,000-URL list was ~5 ms on one core while the
    /// other, done compiling the association file, waited for it. The
    /// place is chosen when this thread first runs (it may wait for the
    /// other core): halfway between where the scan from the start has got
    /// to and the end, at a guess of an element's start (a `"` after `",`
    /// and whitespace). The scan from the start takes what this one read
    /// only when it arrives there at an element's start, where it would
    /// have gone on exactly as this one did. Any other case (the place
    /// inside a string, or passed before it was chosen; this scan failing)
    /// is the serial scan going on by itself: never a different result.
    final class SecondHalf: @unchecked Sendable {
        /// What the scan from the place read: its list's elements up to the
        /// `]` at `listEnd`, then the lists of the members after it, in
        /// order, through the document's end (checked).
        struct Rest: Sendable {
            var spans: [Span]
            var listEnd: Int
            var lists: [(which: Int, urls: [Span])]
        }

        // Unchecked Sendable: `progress` and `start` are read and written
        // under `lock` only.
        private let lock = NSLock()
        /// Where the scan from the start last said it was; `Int.max` once
        /// it is done.
        private var progress = 0
        /// The place chosen, once it is.
        private var start: Int?
        private var scan: BackgroundValue<Rest?>?

        /// Starts the thread; `start` fixes the place (tests), else it is
        /// chosen from the progress.
        init(bytes: [UInt8], start: Int? = nil) {
            self.start = start
            scan = BackgroundValue { [self] in
                guard let start = start ?? choose(in: bytes) else { return nil }
                return bytes.withUnsafeBufferPointer { buffer in
                    var cursor = Cursor(bytes: buffer, index: start)
                    var spans: [Span] = []
                    guard cursor.elements(into: &spans) else { return nil }
                    let listEnd = cursor.index
                    var lists: [(which: Int, urls: [Span])] = []
                    guard cursor.take(UInt8(ascii: "]")), cursor.rest(into: &lists) else { return nil }
                    return Rest(spans: spans, listEnd: listEnd, lists: lists)
                }
            }
        }

        /// Records the scan's progress; returns the place, once chosen.
        func place(progress index: Int) -> Int? {
            lock.withLock {
                progress = index
                return start
            }
        }

        /// Tells a thread that has not chosen its place yet that there is
        /// nothing left to scan.
        func finish() {
            lock.withLock { progress = .max }
        }

        /// The rest, once scanned (waits for it); nil when the scan failed.
        func rest() -> Rest? {
            scan?.value() ?? nil
        }

        /// The place halfway between the progress and the end, when that
        /// leaves enough for both threads and lies well ahead of the scan.
        private func choose(in bytes: [UInt8]) -> Int? {
            let progress = lock.withLock { self.progress }
            guard progress < bytes.count, bytes.count - progress >= Self.minimumBytes else { return nil }
            guard let place = Self.guess(in: bytes, from: progress + (bytes.count - progress) / 2) else { return nil }
            return lock.withLock {
                // The scan checks for the place every few hundred elements:
                // one that is near may be passed before it is seen.
                guard place - self.progress >= Self.searchWindow else { return nil }
                start = place
                return place
            }
        }

        /// Below this a second thread costs more than half the scan saves
        /// (a megabyte scans in under a millisecond).
        static let minimumBytes = 1 << 20

        /// How far past a point a place is looked for: a list whose
        /// strings are longer is scanned serially.
        static let searchWindow = 1 << 16

        /// The opening quote of the first string from `from` on that
        /// follows `",` and whitespace: usually an element's start, though
        /// not always (in `[", ", "x"]` it is the first string's closing
        /// quote; the first scan keeps the half only when it arrives there
        /// at an element's start); nil when there is none in the window.
        static func guess(in bytes: [UInt8], from: Int) -> Int? {
            let end = min(bytes.count, from + searchWindow)
            var index = from
            while index + 2 < end {
                defer { index += 1 }
                guard bytes[index] == UInt8(ascii: "\""), bytes[index + 1] == UInt8(ascii: ",") else { continue }
                var start = index + 2
                while start < end, Self.isWhitespace(bytes[start]) { start += 1 }
                if start < end, bytes[start] == UInt8(ascii: "\"") { return start }
            }
            return nil
        }

        private static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }
    }
}
