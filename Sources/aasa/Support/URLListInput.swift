import Foundation
import SystemPackage

/// The URLs of `aasa match -`: standard input read as bytes and cut into
/// lines without decoding the whole of it as one `String`.
///
/// The rule is the one the list always had (lines split at any Unicode
/// newline, spaces and tabs trimmed, blank lines skipped); a line that is
/// plain ASCII (nearly every URL) is cut and trimmed on its bytes, any other
/// line goes through `String`'s own newline and whitespace rules, so both
/// paths give the same entries. A line that is not UTF-8 is an entry of its
/// own that cannot be decided, rather than a URL with U+FFFD in it.
struct URLListInput: Sendable {
    /// One entry of the list.
    enum Entry: Sendable, Equatable {
        /// A trimmed ASCII line: its bytes in ``URLListInput/bytes``.
        case ascii(Range<Int>)
        /// A trimmed line that is not plain ASCII, decoded.
        case text(String)
        /// A line that is not UTF-8: as near its text as can be shown, and why.
        case invalid(text: String, error: String)
    }

    let bytes: [UInt8]
    let entries: [Entry]

    init(bytes: [UInt8]) {
        self.bytes = bytes
        self.entries = bytes.withUnsafeBufferPointer(Self.entries(in:))
    }

    /// The text of `entry`, as the list reports it.
    func text(of entry: Entry) -> String {
        switch entry {
        case .ascii(let range):
            return bytes.withUnsafeBufferPointer {
                String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self)
            }
        case .text(let text), .invalid(let text, _):
            return text
        }
    }

    /// Reads `descriptor` (standard input) to its end: a file given as
    /// standard input in one array of the size it has left, where blocks
    /// appended one by one copied the list each time the array grew.
    static func read(descriptor: Int32 = STDIN_FILENO) throws(InputError) -> [UInt8] {
        let input = FileDescriptor(rawValue: descriptor)
        do {
            var left = 0
            if let status = try? input.stat(), status.type == .regular {
                left = max(Int(status.size) - Int(try input.seek(offset: 0, from: .current)), 0)
            }
            return try InputFiles.readAll(input, sizeHint: left)
        } catch {
            let code = (error as? Errno)?.rawValue ?? EIO
            throw InputError("cannot read standard input: \(String(cString: strerror(code)))")
        }
    }

    private static func entries(in input: UnsafeBufferPointer<UInt8>) -> [Entry] {
        var entries: [Entry] = []
        var start = 0
        var lineNumber = 1
        while start < input.count {
            var end = start
            var plain = true
            while end < input.count, input[end] != ASCII.lineFeed {
                // CR, VT and FF are newlines too, and a non-ASCII byte may
                // start one (NEL, LS, PS): those lines take the slow path.
                let byte = input[end]
                if byte >= 0x80 || (byte >= 0x0B && byte <= 0x0D) { plain = false }
                end += 1
            }
            var line = start..<end
            // The CR of a CRLF ending is a newline, not part of the line.
            if !plain, line.count > 0, input[line.upperBound - 1] == ASCII.carriageReturn {
                line = line.lowerBound..<(line.upperBound - 1)
                plain = !input[line].contains { $0 >= 0x80 || ($0 >= 0x0B && $0 <= 0x0D) }
            }
            if plain {
                let trimmed = trimmed(line, in: input)
                if !trimmed.isEmpty { entries.append(.ascii(trimmed)) }
            } else {
                entries += decoded(UnsafeBufferPointer(rebasing: input[line]), lineNumber: lineNumber)
            }
            start = end + 1
            lineNumber += 1
        }
        return entries
    }

    /// `line` without the spaces and tabs around it.
    private static func trimmed(_ line: Range<Int>, in input: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var (start, end) = (line.lowerBound, line.upperBound)
        while start < end, input[start] == ASCII.space || input[start] == ASCII.tab { start += 1 }
        while end > start, input[end - 1] == ASCII.space || input[end - 1] == ASCII.tab { end -= 1 }
        return start..<end
    }

    /// A line with other newlines or non-ASCII text in it, cut and trimmed
    /// by `String`'s rules (Unicode newlines, `CharacterSet.whitespaces`).
    private static func decoded(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int) -> [Entry] {
        let text = String(decoding: line, as: UTF8.self)
        if let offset = firstInvalidByte(in: line) {
            let byte = String(line[offset], radix: 16, uppercase: true)
            return [
                .invalid(
                    text: text.trimmingCharacters(in: .whitespaces),
                    error: "standard input, line \(lineNumber): not UTF-8 text (byte 0x\(byte) at offset \(offset))"
                )
            ]
        }
        return text.split(whereSeparator: \.isNewline).compactMap { piece in
            let trimmed = piece.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? nil : .text(trimmed)
        }
    }

    /// The offset of the first byte of `line` that is not part of a valid
    /// UTF-8 sequence, `nil` when the whole line is UTF-8.
    private static func firstInvalidByte(in line: UnsafeBufferPointer<UInt8>) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = line.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}

/// The ASCII bytes the line cutter looks for.
private enum ASCII {
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
}
