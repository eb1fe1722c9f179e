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
/// insertion order, and a node's bounds of both one ``Node`` (a step of the
/// walk reads one of them, not four arrays).
struct PrefixTrie: Sendable {
    /// Where one node's edges and values lie.
    private struct Node {
        /// The node's edges are `labels[edgeStart..<edgeEnd]`.
        var edgeStart: Int32
        var edgeEnd: Int32
        /// The node's values are `values[valueStart..<valueEnd]`.
        var valueStart: Int32
        var valueEnd: Int32
        /// The node's one edge, when it has exactly one (most nodes: the
        /// keys' chains): a step along it reads no other table. `onlyTarget`
        /// is -1 when the node has none or several.
        var onlyLabel: UInt32
        var onlyTarget: Int32
    }

    private let nodes: [Node]
    private let labels: [UInt32]
    private let targets: [Int32]
    private let values: [Int32]

    /// Whether the trie holds no value at all.
    var isEmpty: Bool { values.isEmpty }

    /// - Parameter entries: each value with its key (unfolded), in the order
    ///   the values must come out at one node (ascending, for rule indices).
    init(_ entries: [(key: [Unicode.Scalar], value: Int)]) {
        // One table of edges for the whole build, keyed by node and label
        // (a table per node cost more than the lookups it saves on small files).
        var edges: [UInt64: Int32] = [:]
        var nodeCount = 1
        var valueNodes: [(node: Int32, value: Int32)] = []
        valueNodes.reserveCapacity(entries.count)
        for (key, value) in entries {
            var node: Int32 = 0
            for scalar in key {
                let edge = UInt64(UInt32(node)) << 32 | UInt64(CaseFolding.fold(scalar).value)
                if let next = edges[edge] {
                    node = next
                } else {
                    node = Int32(nodeCount)
                    edges[edge] = node
                    nodeCount += 1
                }
            }
            valueNodes.append((node, Int32(value)))
        }
        var edgeStart = [Int32](repeating: 0, count: nodeCount + 1)
        var labels: [UInt32] = []
        var targets: [Int32] = []
        labels.reserveCapacity(edges.count)
        targets.reserveCapacity(edges.count)
        // Sorted by node, then label: each node's edges contiguous and ordered.
        for (edge, target) in edges.sorted(by: { $0.key < $1.key }) {
            edgeStart[Int(edge >> 32) + 1] += 1
            labels.append(UInt32(truncatingIfNeeded: edge))
            targets.append(target)
        }
        var valueStart = [Int32](repeating: 0, count: nodeCount + 1)
        for (node, _) in valueNodes { valueStart[Int(node) + 1] += 1 }
        for node in 0..<nodeCount {
            edgeStart[node + 1] += edgeStart[node]
            valueStart[node + 1] += valueStart[node]
        }
        // A stable placement keeps each node's values in insertion order.
        var values = [Int32](repeating: 0, count: valueNodes.count)
        var fill = valueStart
        for (node, value) in valueNodes {
            values[Int(fill[Int(node)])] = value
            fill[Int(node)] += 1
        }
        nodes = (0..<nodeCount).map { node in
            let isOnly = edgeStart[node + 1] - edgeStart[node] == 1
            return Node(
                edgeStart: edgeStart[node],
                edgeEnd: edgeStart[node + 1],
                valueStart: valueStart[node],
                valueEnd: valueStart[node + 1],
                onlyLabel: isOnly ? labels[Int(edgeStart[node])] : 0,
                onlyTarget: isOnly ? targets[Int(edgeStart[node])] : -1
            )
        }
        self.labels = labels
        self.targets = targets
        self.values = values
    }

    /// Appends to `output` every value whose key is a prefix of `text`
    /// (folded), shortest key first; values of one key in insertion order.
    /// `text` is scalars or the bytes of an ASCII text (``MatchUnit``).
    func appendValues<Text: Collection>(keyedByPrefixesOf text: Text, to output: inout [Int32])
    where Text.Element: MatchUnit {
        nodes.withUnsafeBufferPointer { nodes in
            var node = nodes[0]
            appendValues(of: node, to: &output)
            for unit in text {
                guard let next = child(of: node, unit.folded.value) else { return }
                node = nodes[next]
                appendValues(of: node, to: &output)
            }
        }
    }

    /// ``appendValues(keyedByPrefixesOf:to:)`` for a component's text in
    /// either spelling.
    func appendValues(keyedByPrefixesOf text: LentText, to output: inout [Int32]) {
        switch text {
        case .ascii(let bytes): appendValues(keyedByPrefixesOf: bytes, to: &output)
        case .scalars(let scalars): appendValues(keyedByPrefixesOf: scalars, to: &output)
        }
    }

    /// Every value, ascending.
    func allValues() -> [Int32] {
        values.sorted()
    }

    @inline(__always)
    private func appendValues(of node: Node, to output: inout [Int32]) {
        // A node holds a value or two: appended one by one, not as a slice.
        for index in Int(node.valueStart)..<Int(node.valueEnd) { output.append(values[index]) }
    }

    /// The node `node`'s edge labelled `label` leads to.
    @inline(__always)
    private func child(of node: Node, _ label: UInt32) -> Int? {
        if node.onlyTarget >= 0 { return node.onlyLabel == label ? Int(node.onlyTarget) : nil }
        // Binary search over a branching node's edges.
        var low = Int(node.edgeStart)
        var high = Int(node.edgeEnd)
        while low < high {
            let middle = (low + high) / 2
            let candidate = labels[middle]
            if candidate == label { return Int(targets[middle]) }
            if candidate < label { low = middle + 1 } else { high = middle }
        }
        return nil
    }
}
