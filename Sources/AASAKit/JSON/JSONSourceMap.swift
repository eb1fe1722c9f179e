/// Where each value of a JSON text is written, so a finding about a JSON
/// path can name the line and column an editor jumps to.
///
/// Built by parsing the text once more with offsets recorded; validators
/// keep their single fast parse, and only reports that have findings pay
/// for this one (see ``ValidationReport/locating(in:)``).
public struct JSONSourceMap: Sendable {
    private let bytes: [UInt8]
    private let offsets: [JSONPath: Int]
    /// Byte offsets at which lines 2, 3, … start, for binary search.
    private let lineStarts: [Int]

    /// Parses `bytes`; a text that is not JSON throws the parser's error.
    public init(bytes: [UInt8]) throws(JSONParseError) {
        let (_, offsets) = try JSONParser().parseRecordingOffsets(bytes)
        self.bytes = bytes
        self.offsets = offsets
        self.lineStarts = bytes.indices.compactMap { bytes[$0] == UInt8(ascii: "\n") ? $0 + 1 : nil }
    }

    /// Where the value at `path` starts. A path with no value in the text
    /// (a required member that is missing, an index past the end) gets the
    /// position of its nearest enclosing value, the object or array a user
    /// must edit; the root always has one.
    public func position(of path: JSONPath) -> SourcePosition {
        var components = path.components[...]
        while true {
            if let offset = offsets[JSONPath(Array(components))] {
                return position(ofOffset: offset)
            }
            guard !components.isEmpty else { return position(ofOffset: 0) }
            components.removeLast()
        }
    }

    /// The exact position of the value at `path`, or `nil` when the text has
    /// no value there.
    public func exactPosition(of path: JSONPath) -> SourcePosition? {
        offsets[path].map(position(ofOffset:))
    }

    private func position(ofOffset offset: Int) -> SourcePosition {
        // The number of line starts at or before `offset` is the line index.
        var low = 0
        var high = lineStarts.count
        while low < high {
            let middle = (low + high) / 2
            if lineStarts[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        let lineStart = low == 0 ? 0 : lineStarts[low - 1]
        return SourcePosition(
            line: low + 1,
            column: SourcePosition.column(from: lineStart, to: offset, in: bytes),
            offset: offset
        )
    }
}
