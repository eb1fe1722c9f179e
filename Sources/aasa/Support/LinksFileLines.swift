import AASAKit

/// The line of a links file on which each of a set of URLs is first written,
/// found in one pass over the file's bytes.
///
/// Annotations point at "the first line that holds the URL as a JSON
/// string". Searching each line for each URL read the whole file once per
/// annotation: over 100,000 URLs with thousands of findings, minutes. A
/// written URL (`"…"`, escaped as the serializer escapes it) begins and ends
/// with a quote and holds no unescaped one, so every place it can occur
/// starts at a quote of the file: each quote is tried against the lengths
/// of the wanted strings, and only a span ending in a quote is looked up.
struct LinksFileLines {
    private var lines: [[UInt8]: Int] = [:]

    /// The first line (1-based) of `text` holding each of `urls`.
    init(text: [UInt8], urls: some Sequence<String>) {
        var wanted = Set<[UInt8]>()
        for url in urls { wanted.insert(Self.needle(url)) }
        guard !wanted.isEmpty else { return }
        let lengths = Set(wanted.map(\.count)).sorted()
        let quote = UInt8(ascii: "\"")
        let newline = UInt8(ascii: "\n")
        text.withUnsafeBufferPointer { bytes in
            var line = 1
            var lineEnd = bytes.firstIndex(of: newline, from: 0)
            var index = 0
            while index < bytes.count, lines.count < wanted.count {
                let byte = bytes[index]
                if byte == newline {
                    line += 1
                    lineEnd = bytes.firstIndex(of: newline, from: index + 1)
                } else if byte == quote {
                    let end = lineEnd ?? bytes.count
                    for length in lengths {
                        let last = index + length - 1
                        guard last < end else { break }
                        guard bytes[last] == quote else { continue }
                        let candidate = Array(UnsafeBufferPointer(rebasing: bytes[index...last]))
                        if wanted.contains(candidate), lines[candidate] == nil { lines[candidate] = line }
                    }
                }
                index += 1
            }
        }
    }

    /// The first line holding `url` written as a JSON string, if any.
    func line(of url: String) -> Int? {
        lines[Self.needle(url)]
    }

    /// `url` as the links file would hold it.
    static func needle(_ url: String) -> [UInt8] {
        Array(JSONValue.string(url).serialized().utf8)
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The index of the first `byte` at or after `start`.
    fileprivate func firstIndex(of byte: UInt8, from start: Int) -> Int? {
        var index = start
        while index < count {
            if self[index] == byte { return index }
            index += 1
        }
        return nil
    }
}
