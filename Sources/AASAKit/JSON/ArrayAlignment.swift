/// How the elements of two arrays correspond: which are the same on both
/// sides, which only the old one has, which only the new one has, and which
/// were edited in place. `JSONDiff` uses it so that removing one rule from a
/// list of ten reads as one removal, not as nine changed elements.
///
/// The alignment is a longest common subsequence of semantically equal
/// elements (after trimming the common head and tail, which is where nearly
/// every real edit leaves most of a file). Between two kept elements, the
/// old and new elements left over are paired in order as edits, and any
/// surplus on one side is a removal or an addition.
struct ArrayAlignment {
    /// One step of the alignment, in order.
    enum Step: Equatable {
        /// `old[oldIndex]` equals `new[newIndex]`.
        case same(oldIndex: Int, newIndex: Int)
        /// `old[oldIndex]` became `new[newIndex]`.
        case edited(oldIndex: Int, newIndex: Int)
        case removed(oldIndex: Int)
        case added(newIndex: Int)
    }

    /// The most cells the LCS table may have (about 8 MB of 16-bit lengths).
    /// A file is at most 128 KiB, so only two huge arrays that differ both
    /// near their start and near their end get here; they are then paired by
    /// position, which is correct, only less concise.
    static let maximumTableCells = 4_000_000

    private(set) var steps: [Step] = []

    init(_ old: [JSONValue], _ new: [JSONValue]) {
        var head = 0
        while head < old.count, head < new.count, old[head] == new[head] { head += 1 }
        var tail = 0
        while tail < old.count - head, tail < new.count - head,
            old[old.count - 1 - tail] == new[new.count - 1 - tail]
        {
            tail += 1
        }
        steps = (0..<head).map { .same(oldIndex: $0, newIndex: $0) }
        let oldMiddle = head..<(old.count - tail)
        let newMiddle = head..<(new.count - tail)
        let kept = Self.commonSubsequence(old, oldMiddle, new, newMiddle)
        var oldNext = oldMiddle.lowerBound
        var newNext = newMiddle.lowerBound
        for (oldIndex, newIndex) in kept + [(oldMiddle.upperBound, newMiddle.upperBound)] {
            appendGap(old: oldNext..<oldIndex, new: newNext..<newIndex)
            if oldIndex < oldMiddle.upperBound { steps.append(.same(oldIndex: oldIndex, newIndex: newIndex)) }
            oldNext = oldIndex + 1
            newNext = newIndex + 1
        }
        steps += (0..<tail).map { .same(oldIndex: old.count - tail + $0, newIndex: new.count - tail + $0) }
    }

    /// Elements between two kept ones: paired in order, the surplus removed or added.
    private mutating func appendGap(old: Range<Int>, new: Range<Int>) {
        let paired = min(old.count, new.count)
        for offset in 0..<paired {
            steps.append(.edited(oldIndex: old.lowerBound + offset, newIndex: new.lowerBound + offset))
        }
        steps += old.dropFirst(paired).map { .removed(oldIndex: $0) }
        steps += new.dropFirst(paired).map { .added(newIndex: $0) }
    }

    /// Index pairs of a longest common subsequence of the two ranges, in order;
    /// empty (everything is then paired by position) when the table would be
    /// too large.
    private static func commonSubsequence(
        _ old: [JSONValue],
        _ oldRange: Range<Int>,
        _ new: [JSONValue],
        _ newRange: Range<Int>
    ) -> [(Int, Int)] {
        let rows = oldRange.count
        let columns = newRange.count
        guard rows > 0, columns > 0, rows * columns <= maximumTableCells else { return [] }
        // Hashes first: deep equality of two rules is only computed when they
        // already hash alike.
        let oldHashes = oldRange.map { old[$0].hashValue }
        let newHashes = newRange.map { new[$0].hashValue }
        func equal(_ row: Int, _ column: Int) -> Bool {
            oldHashes[row] == newHashes[column]
                && old[oldRange.lowerBound + row] == new[newRange.lowerBound + column]
        }
        // lengths[row][column]: LCS length of old[row...] and new[column...].
        let width = columns + 1
        var lengths = [UInt16](repeating: 0, count: (rows + 1) * width)
        for row in stride(from: rows - 1, through: 0, by: -1) {
            for column in stride(from: columns - 1, through: 0, by: -1) {
                lengths[row * width + column] =
                    equal(row, column)
                    ? lengths[(row + 1) * width + column + 1] + 1
                    : max(lengths[(row + 1) * width + column], lengths[row * width + column + 1])
            }
        }
        var pairs: [(Int, Int)] = []
        var row = 0
        var column = 0
        while row < rows, column < columns {
            if equal(row, column) {
                pairs.append((oldRange.lowerBound + row, newRange.lowerBound + column))
                row += 1
                column += 1
            } else if lengths[(row + 1) * width + column] >= lengths[row * width + column + 1] {
                row += 1
            } else {
                column += 1
            }
        }
        return pairs
    }
}
