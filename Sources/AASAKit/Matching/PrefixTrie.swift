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
/// walk reads one of them, not four arrays). Path-compressed: a chain of
/// nodes with one edge and no value (most of a key's scalars) is no nodes
/// but the run of labels its edge continues with, compared in place; the
/// walk was a chain of dependent loads, one node per scalar of the text.
struct PrefixTrie: Sendable {
    /// Where one node's edges, values and incoming run lie.
    private struct Node {
        /// The node's edges are `labels[edgeStart..<edgeEnd]`.
        var edgeStart: Int32
        var edgeEnd: Int32
        /// The node's values are `values[valueStart..<valueEnd]`.
        var valueStart: Int32
        var valueEnd: Int32
        /// The node's one edge, when it has exactly one: a step along it
        /// reads no other table. `onlyTarget` is -1 when the node has none
        /// or several.
        var onlyLabel: UInt32
        var onlyTarget: Int32
        /// The labels after the edge's own that lead to this node:
        /// `runs[runStart..<runEnd]`.
        var runStart: Int32
        var runEnd: Int32
        /// With ``tabledEdges`` edges or more, the node's target by an
        /// ASCII label is `asciiTargets[table + label]` (-1: no such edge);
        /// otherwise `table` is -1. Other labels are searched.
        var table: Int32
    }

    /// From this many edges a node's ASCII edges are looked up in a table:
    /// the binary search's branches were mispredicted at the nodes most
    /// paths branch at (the first segment, a section's pages).
    private static let tabledEdges = 3

    private let nodes: [Node]
    private let labels: [UInt32]
    private let targets: [Int32]
    private let runs: [UInt32]
    /// 128 targets per tabled node (``Node/table``).
    private let asciiTargets: [Int32]
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
        // The uncompressed trie first, one node per scalar of a key.
        var edgeStart = [Int](repeating: 0, count: nodeCount + 1)
        var labels: [UInt32] = []
        var targets: [Int] = []
        labels.reserveCapacity(edges.count)
        targets.reserveCapacity(edges.count)
        // Sorted by node, then label: each node's edges contiguous and ordered.
        for (edge, target) in edges.sorted(by: { $0.key < $1.key }) {
            edgeStart[Int(edge >> 32) + 1] += 1
            labels.append(UInt32(truncatingIfNeeded: edge))
            targets.append(Int(target))
        }
        var valueStart = [Int](repeating: 0, count: nodeCount + 1)
        for (node, _) in valueNodes { valueStart[Int(node) + 1] += 1 }
        for node in 0..<nodeCount {
            edgeStart[node + 1] += edgeStart[node]
            valueStart[node + 1] += valueStart[node]
        }
        // A stable placement keeps each node's values in insertion order.
        var values = [Int32](repeating: 0, count: valueNodes.count)
        var fill = valueStart
        for (node, value) in valueNodes {
            values[fill[Int(node)]] = value
            fill[Int(node)] += 1
        }
        self.values = values
        (nodes, self.labels, self.targets, runs, asciiTargets) = Self.compress(
            edgeStart: edgeStart,
            labels: labels,
            targets: targets,
            valueStart: valueStart
        )
    }

    /// The frozen tables of the uncompressed trie given (edges and values
    /// of node `n` at `edgeStart[n]..<edgeStart[n + 1]` and
    /// `valueStart[n]..<valueStart[n + 1]`): the root, every node with a
    /// value and every node without exactly one edge are kept, in
    /// breadth-first order; the nodes between two kept ones become the run
    /// of the lower one. A node with ``tabledEdges`` edges or more gets its
    /// table of ASCII targets.
    private static func compress(
        edgeStart: [Int],
        labels: [UInt32],
        targets: [Int],
        valueStart: [Int]
    ) -> (nodes: [Node], labels: [UInt32], targets: [Int32], runs: [UInt32], asciiTargets: [Int32]) {
        func isKept(_ node: Int) -> Bool {
            node == 0 || valueStart[node + 1] > valueStart[node] || edgeStart[node + 1] - edgeStart[node] != 1
        }
        // The old node of each kept one, and its run, in the new order.
        var kept = [(old: 0, runStart: Int32(0), runEnd: Int32(0))]
        var keptLabels: [UInt32] = []
        var keptTargets: [Int32] = []
        var runs: [UInt32] = []
        var nodes: [Node] = []
        var asciiTargets: [Int32] = []
        var next = 0
        while next < kept.count {
            let (old, runStart, runEnd) = kept[next]
            let firstEdge = keptLabels.count
            for edge in edgeStart[old]..<edgeStart[old + 1] {
                var target = targets[edge]
                let targetRunStart = Int32(runs.count)
                while !isKept(target) {
                    runs.append(labels[edgeStart[target]])
                    target = targets[edgeStart[target]]
                }
                keptLabels.append(labels[edge])
                keptTargets.append(Int32(kept.count))
                kept.append((target, targetRunStart, Int32(runs.count)))
            }
            let isOnly = keptLabels.count - firstEdge == 1
            var table: Int32 = -1
            if keptLabels.count - firstEdge >= tabledEdges {
                table = Int32(asciiTargets.count)
                asciiTargets += repeatElement(-1, count: 128)
                for edge in firstEdge..<keptLabels.count where keptLabels[edge] < 128 {
                    asciiTargets[Int(table) + Int(keptLabels[edge])] = keptTargets[edge]
                }
            }
            nodes.append(
                Node(
                    edgeStart: Int32(firstEdge),
                    edgeEnd: Int32(keptLabels.count),
                    valueStart: Int32(valueStart[old]),
                    valueEnd: Int32(valueStart[old + 1]),
                    onlyLabel: isOnly ? keptLabels[firstEdge] : 0,
                    onlyTarget: isOnly ? keptTargets[firstEdge] : -1,
                    runStart: runStart,
                    runEnd: runEnd,
                    table: table
                )
            )
            next += 1
        }
        return (nodes, keptLabels, keptTargets, runs, asciiTargets)
    }

    /// Appends to `output` every value whose key is a prefix of `text`
    /// (folded), shortest key first; values of one key in insertion order.
    /// `text` is scalars or the bytes of an ASCII text (``MatchUnit``).
    func appendValues<Text: Collection>(keyedByPrefixesOf text: Text, to output: inout [Int32])
    where Text.Element: MatchUnit {
        nodes.withUnsafeBufferPointer { nodes in
            runs.withUnsafeBufferPointer { runs in
                var node = nodes[0]
                appendValues(of: node, to: &output)
                var position = text.startIndex
                while position != text.endIndex {
                    guard let next = child(of: node, text[position].folded.value) else { return }
                    text.formIndex(after: &position)
                    node = nodes[next]
                    // The rest of the edge, up to the node.
                    for label in runs[Int(node.runStart)..<Int(node.runEnd)] {
                        guard position != text.endIndex, text[position].folded.value == label else { return }
                        text.formIndex(after: &position)
                    }
                    appendValues(of: node, to: &output)
                }
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
        if node.table >= 0, label < 128 {
            let target = asciiTargets[Int(node.table) + Int(label)]
            return target >= 0 ? Int(target) : nil
        }
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
