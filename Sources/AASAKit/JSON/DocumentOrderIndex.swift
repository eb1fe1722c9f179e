/// Sort keys that put paths in the order they are written in a document.
///
/// One number per path component: an array index as is, an object key as
/// its position among the members (unknown keys last). Compared
/// lexicographically, a parent sorts before its children. Member positions
/// are indexed once per object, so a file with thousands of findings on one
/// large object sorts in linear time per finding, not quadratic.
struct DocumentOrderIndex {
    private let root: JSONValue?
    private var memberPositions: [JSONPath: [JSONPath.Component: Int]] = [:]

    init(root: JSONValue?) {
        self.root = root
    }

    mutating func key(for path: JSONPath) -> [Int] {
        var current = root
        var key: [Int] = []
        key.reserveCapacity(path.components.count)
        for (depth, component) in path.components.enumerated() {
            switch component {
            case .index(let index):
                key.append(index)
                current = current?.arrayValue.flatMap { $0.indices.contains(index) ? $0[index] : nil }
            case .key(let name):
                key.append(position(of: name, in: current, at: JSONPath(Array(path.components[..<depth]))))
                current = current?[name]
            }
        }
        return key
    }

    private mutating func position(of name: String, in container: JSONValue?, at containerPath: JSONPath) -> Int {
        guard let object = container?.objectValue else { return Int.max }
        if let positions = memberPositions[containerPath] {
            return positions[.key(name)] ?? Int.max
        }
        // Keyed as paths are, by the keys' UTF-8: NFC and NFD spellings of
        // one name are two members with two positions.
        var positions: [JSONPath.Component: Int] = [:]
        for (offset, key) in object.keys.enumerated() {
            positions[.key(key)] = offset
        }
        memberPositions[containerPath] = positions
        return positions[.key(name)] ?? Int.max
    }
}
