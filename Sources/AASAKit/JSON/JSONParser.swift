/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// Written for the origin's reload path and the validators rather than taken
/// from Foundation because they need what `JSONSerialization` does not give:
/// member order, booleans distinct from numbers, byte offsets with line and
/// column in errors, a nesting limit (a 100,000-level file must fail cleanly,
/// not overflow the stack), and a report of keys written twice.
public struct JSONParser: Sendable {
    /// The deepest nesting accepted. AASA files nest about six levels; the
    /// limit only has to keep recursion bounded.
    public var maximumDepth: Int

    public init(maximumDepth: Int = 256) {
        self.maximumDepth = maximumDepth
    }

    /// Parses one JSON text. A UTF-8 byte-order mark is rejected: Apple's
    /// parser and most CDNs treat it as garbage before the value.
    public func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONDocument {
        var reader = Reader(bytes: bytes, maximumDepth: maximumDepth)
        return try reader.parseDocument()
    }

    /// Parses `bytes` and records the byte offset where every value starts,
    /// keyed by its path (for a key written twice, the last occurrence: the
    /// one whose value is kept). Only ``JSONSourceMap`` asks for this; the
    /// plain parse does not pay for it.
    func parseRecordingOffsets(_ bytes: [UInt8]) throws(JSONParseError) -> (JSONDocument, [JSONPath: Int]) {
        var reader = Reader(bytes: bytes, maximumDepth: maximumDepth)
        reader.offsets = [:]
        let document = try reader.parseDocument()
        return (document, reader.offsets ?? [:])
    }

    /// Parses a Swift string's UTF-8 bytes.
    public func parse(_ text: String) throws(JSONParseError) -> JSONDocument {
        try parse(Array(text.utf8))
    }
}

/// The result of parsing: the value and the members written twice (the last
/// occurrence is the one kept).
public struct JSONDocument: Sendable {
    public var value: JSONValue
    public var duplicateKeys: [JSONPath]

    public init(value: JSONValue, duplicateKeys: [JSONPath] = []) {
        self.value = value
        self.duplicateKeys = duplicateKeys
    }
}

extension JSONParser {
    fileprivate struct Reader {
        let bytes: [UInt8]
        let maximumDepth: Int
        var index = 0
        var path: [JSONPath.Component] = []
        var duplicateKeys: [JSONPath] = []
        /// Where each value starts, when recording (`nil`: not recording).
        var offsets: [JSONPath: Int]?

        init(bytes: [UInt8], maximumDepth: Int) {
            self.bytes = bytes
            self.maximumDepth = maximumDepth
        }

        mutating func parseDocument() throws(JSONParseError) -> JSONDocument {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                throw error(.byteOrderMark, at: 0)
            }
            skipWhitespace()
            let value = try parseValue(depth: 0)
            skipWhitespace()
            if index < bytes.count {
                throw error(.trailingContent, at: index)
            }
            return JSONDocument(value: value, duplicateKeys: duplicateKeys)
        }

        func error(_ reason: JSONParseError.Reason, at offset: Int) -> JSONParseError {
            JSONParseError(reason: reason, at: SourcePosition(offset: offset, in: bytes))
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
            guard index < bytes.count else {
                throw error(bytes.isEmpty ? .empty : .unexpectedEnd, at: index)
            }
            if offsets != nil {
                offsets?[JSONPath(path)] = index
            }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
            case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
            case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
            case UInt8(ascii: "n"): return try parseLiteral("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
            case let byte: throw error(.unexpectedByte(byte), at: index)
            }
        }

        mutating func parseLiteral(_ word: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
            let count = word.utf8CodeUnitCount
            let matches = word.withUTF8Buffer { literal in
                index + count <= bytes.count && literal.elementsEqual(bytes[index..<index + count])
            }
            guard matches else { throw error(.invalidLiteral, at: index) }
            index += count
            return value
        }

        mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
            guard depth <= maximumDepth else { throw error(.tooDeep(limit: maximumDepth), at: index) }
            index += 1
            var object = JSONObject()
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(object)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count else { throw error(.unexpectedEnd, at: index) }
                guard bytes[index] == UInt8(ascii: "\"") else { throw error(.expectedKey, at: index) }
                let key = try parseString()
                skipWhitespace()
                guard index < bytes.count else { throw error(.unexpectedEnd, at: index) }
                guard bytes[index] == UInt8(ascii: ":") else { throw error(.expectedColon, at: index) }
                index += 1
                skipWhitespace()
                path.append(.key(key))
                let value = try parseValue(depth: depth)
                if object.replaceOrAppend(value, forKey: key) {
                    duplicateKeys.append(JSONPath(path))
                }
                path.removeLast()
                skipWhitespace()
                guard index < bytes.count else { throw error(.unexpectedEnd, at: index) }
                switch bytes[index] {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"):
                    index += 1
                    return .object(object)
                default: throw error(.expectedCommaOrEnd(closing: "}"), at: index)
                }
            }
        }

        mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
            guard depth <= maximumDepth else { throw error(.tooDeep(limit: maximumDepth), at: index) }
            index += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                path.append(.index(elements.count))
                elements.append(try parseValue(depth: depth))
                path.removeLast()
                skipWhitespace()
                guard index < bytes.count else { throw error(.unexpectedEnd, at: index) }
                switch bytes[index] {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"):
                    index += 1
                    return .array(elements)
                default: throw error(.expectedCommaOrEnd(closing: "]"), at: index)
                }
            }
        }

        mutating func parseNumber() throws(JSONParseError) -> JSONValue {
            let start = index
            func digits(_ reader: inout Reader) -> Int {
                let from = reader.index
                while reader.index < reader.bytes.count,
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(reader.bytes[reader.index])
                {
                    reader.index += 1
                }
                return reader.index - from
            }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count else { throw error(.invalidNumber, at: start) }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else if digits(&self) == 0 {
                throw error(.invalidNumber, at: start)
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits(&self) > 0 else { throw error(.invalidNumber, at: start) }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard digits(&self) > 0 else { throw error(.invalidNumber, at: start) }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            // `1e999` parses to infinity, which JSON cannot hold (nor re-serialise).
            guard let value = Double(text), value.isFinite else { throw error(.invalidNumber, at: start) }
            return .number(value)
        }

        mutating func parseString() throws(JSONParseError) -> String {
            index += 1  // opening quote
            // Most strings have no escape: validate their bytes in one call
            // (a links file of 100,000 URLs parsed 7× faster). Anything else, an
            // error included, takes the scalar-by-scalar path below.
            var end = index
            var highBits: UInt8 = 0
            while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"),
                bytes[end] >= 0x20
            {
                highBits |= bytes[end]
                end += 1
            }
            if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
                // ASCII (nearly every key and pattern) cannot be malformed:
                // made from the buffer directly, not through the generic
                // validating initialiser, which was half of the parse.
                if highBits < 0x80 {
                    let text = bytes.withUnsafeBufferPointer { buffer in
                        String(decoding: UnsafeBufferPointer(rebasing: buffer[index..<end]), as: UTF8.self)
                    }
                    index = end + 1
                    return text
                }
                if let text = UTF8Text.decode(bytes[index..<end]) {
                    index = end + 1
                    return text
                }
            }
            var scalars = String.UnicodeScalarView()
            var runStart = index
            while true {
                guard index < bytes.count else { throw error(.unexpectedEnd, at: index) }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    try appendRun(from: runStart, to: index, into: &scalars)
                    index += 1
                    return String(scalars)
                }
                if byte == UInt8(ascii: "\\") {
                    try appendRun(from: runStart, to: index, into: &scalars)
                    scalars.append(try parseEscape())
                    runStart = index
                    continue
                }
                if byte < 0x20 { throw error(.controlCharacterInString, at: index) }
                index += 1
            }
        }

        /// Validates and appends a run of raw (unescaped) UTF-8 bytes.
        func appendRun(
            from start: Int,
            to end: Int,
            into scalars: inout String.UnicodeScalarView
        ) throws(JSONParseError) {
            guard start < end else { return }
            var iterator = bytes[start..<end].makeIterator()
            var decoder = UTF8()
            var offset = start
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar):
                    scalars.append(scalar)
                    offset += UTF8.width(scalar)
                case .emptyInput:
                    return
                case .error:
                    throw error(.invalidUTF8, at: offset)
                }
            }
        }

        mutating func parseEscape() throws(JSONParseError) -> Unicode.Scalar {
            let start = index
            index += 1
            guard index < bytes.count else { throw error(.unexpectedEnd, at: index) }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let high = try parseHex4(escapeStart: start)
                if (0xD800..<0xDC00).contains(high) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw error(.invalidUnicodeEscape, at: start) }
                    index += 2
                    let low = try parseHex4(escapeStart: start)
                    guard (0xDC00..<0xE000).contains(low),
                        let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                    else { throw error(.invalidUnicodeEscape, at: start) }
                    return scalar
                }
                guard let scalar = Unicode.Scalar(high) else { throw error(.invalidUnicodeEscape, at: start) }
                return scalar
            default:
                throw error(.invalidEscape, at: start)
            }
        }

        mutating func parseHex4(escapeStart: Int) throws(JSONParseError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw error(.invalidUnicodeEscape, at: escapeStart) }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw error(.invalidUnicodeEscape, at: escapeStart)
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }
    }
}
