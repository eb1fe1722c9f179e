/// Values keyed by a literal prefix, compared case-folded
/// (``CaseFolding/fold(_:)``), that answers "which values have a key that is
/// a prefix of this text?" in one walk down the text.
///
/// The matcher keys each rule by the literal start of its `/` pattern (a
/// rule can only match a path that starts with it), and the unreachable-rule
/// lint keys earlier rules the same way (a rule can only cover a later rule
/// whose literal start extends its own). Keys are folded whatever the rule's
/// `caseSensitive`: a case-sensitive rule then lands among the candidates of
/// a few texts it cannot match, which only costs its evaluation; it is never
/// missing from those of a text it matches.
///
/// Frozen after construction into flat arrays: one node's edges are a
/// contiguous run sorted by scalar, one node's values a contiguous run in
/// insertion order.
struct PrefixTrie: Sendable {
    /// Node `n`'s edges are `labels[edgeStart[n]..<edgeStart[n + 1]]`.
    private let edgeStart: [Int32]
    private let labels: [UInt32]
    private let targets: [Int32]
    /// Node `n`'s values are `values[valueStart[n]..<valueStart[n + 1]]`.
    private let valueStart: [Int32]
    private let values: [Int32]

    /// Whether the trie holds no value at all.
    var isEmpty: Bool { values.isEmpty }

    /// - Parameter entries: each value with its key (unfolded), in the order
    ///   the values must come out at one node (ascending, for rule indices).
    init(_ entries: [(key: [Unicode.Scalar], value: Int)]) {
        var children: [[UInt32: Int32]] = [[:]]
        var nodeValues: [[Int32]] = [[]]
        for (key, value) in entries {
            var node = 0
            for scalar in key {
                let label = CaseFolding.fold(scalar).value
                if let next = children[node][label] {
                    node = Int(next)
                } else {
                    children.append([:])
                    nodeValues.append([])
                    children[node][label] = Int32(children.count - 1)
                    node = children.count - 1
                }
            }
            nodeValues[node].append(Int32(value))
        }
        var edgeStart: [Int32] = []
        var labels: [UInt32] = []
        var targets: [Int32] = []
        var valueStart: [Int32] = []
        var values: [Int32] = []
        for node in children.indices {
            edgeStart.append(Int32(labels.count))
            for (label, target) in children[node].sorted(by: { $0.key < $1.key }) {
                labels.append(label)
                targets.append(target)
            }
            valueStart.append(Int32(values.count))
            values += nodeValues[node]
        }
        edgeStart.append(Int32(labels.count))
        valueStart.append(Int32(values.count))
        self.edgeStart = edgeStart
        self.labels = labels
        self.targets = targets
        self.valueStart = valueStart
        self.values = values
    }

    /// Appends to `output` every value whose key is a prefix of `text`
    /// (folded), shortest key first; values of one key in insertion order.
    func appendValues<Text: Collection<Unicode.Scalar>>(keyedByPrefixesOf text: Text, to output: inout [Int32]) {
        var node = 0
        appendValues(of: node, to: &output)
        for scalar in text {
            guard let next = child(of: node, CaseFolding.fold(scalar).value) else { return }
            node = next
            appendValues(of: node, to: &output)
        }
    }

    /// Every value, ascending.
    func allValues() -> [Int32] {
        values.sorted()
    }

    @inline(__always)
    private func appendValues(of node: Int, to output: inout [Int32]) {
        let start = Int(valueStart[node])
        let end = Int(valueStart[node + 1])
        if start < end { output.append(contentsOf: values[start..<end]) }
    }

    @inline(__always)
    private func child(of node: Int, _ label: UInt32) -> Int? {
        var low = Int(edgeStart[node])
        var high = Int(edgeStart[node + 1])
        // Binary search; most nodes have one edge.
        while low < high {
            let middle = (low + high) / 2
            let candidate = labels[middle]
            if candidate == label { return Int(targets[middle]) }
            if candidate < label { low = middle + 1 } else { high = middle }
        }
        return nil
    }
}
