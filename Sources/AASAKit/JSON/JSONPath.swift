/// A location inside a JSON document, rendered the way users read it:
/// `applinks.details[0].components[2].exclude`, with keys that are not plain
/// identifiers quoted (`components[1]["/"]`). The root renders as `(root)`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)

        // A key by its UTF-8, as object keys compare (``JSONObject``): `é`
        // and `e` + U+0301 are two members, so two places. Swift's `==`
        // made them one, and a finding on one was placed at the other.
        public static func == (lhs: Component, rhs: Component) -> Bool {
            switch (lhs, rhs) {
            case (.key(let left), .key(let right)): left.utf8.elementsEqual(right.utf8)
            case (.index(let left), .index(let right)): left == right
            default: false
            }
        }

        public func hash(into hasher: inout Hasher) {
            switch self {
            case .key(var key):
                key.withUTF8 { bytes in
                    hasher.combine(bytes.count)
                    hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
                }
            case .index(let index):
                hasher.combine(index)
            }
        }
    }

    public var components: [Component]

    public static let root = JSONPath([])

    public init(_ components: [Component] = []) {
        self.components = components
    }

    public var isRoot: Bool { components.isEmpty }

    public func appending(_ key: String) -> JSONPath {
        appending(component: .key(key))
    }

    public func appending(_ index: Int) -> JSONPath {
        appending(component: .index(index))
    }

    /// One allocation, of the exact size: `components + [component]` made
    /// two, and the schema and lints extend a path at every node they visit.
    private func appending(component: Component) -> JSONPath {
        var extended: [Component] = []
        extended.reserveCapacity(components.count + 1)
        extended.append(contentsOf: components)
        extended.append(component)
        return JSONPath(extended)
    }

    public var description: String {
        var bytes: [UInt8] = []
        appendDescription(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``description``'s UTF-8 appended to `bytes`: the text report writes
    /// the path of each of thousands of warnings, where making each path's
    /// string (and a string of each index) cost more than writing it.
    package func appendDescription(to bytes: inout [UInt8]) {
        guard !components.isEmpty else {
            bytes += "(root)".utf8
            return
        }
        let start = bytes.count
        for component in components {
            switch component {
            case .index(let index):
                bytes.append(UInt8(ascii: "["))
                bytes += String(index).utf8
                bytes.append(UInt8(ascii: "]"))
            case .key(let key) where Self.isIdentifier(key):
                if bytes.count > start { bytes.append(UInt8(ascii: ".")) }
                bytes += key.utf8
            case .key(let key):
                bytes.append(UInt8(ascii: "["))
                bytes += JSONValue.string(key).serialized().utf8
                bytes.append(UInt8(ascii: "]"))
            }
        }
    }

    /// An ASCII letter or `_`, then letters, digits, `_` and `-`. Over
    /// UTF-8 bytes: a path is printed for every result of a long link list,
    /// and Unicode property lookups per character were a twentieth of it.
    private static func isIdentifier(_ key: String) -> Bool {
        func isLetter(_ byte: UInt8) -> Bool {
            (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
        }
        guard let first = key.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return key.utf8.allSatisfy { byte in
            isLetter(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }
}

extension JSONValue {
    /// The value at `path`, if there is one.
    public func value(at path: JSONPath) -> JSONValue? {
        var current = self
        for component in path.components {
            switch component {
            case .key(let key):
                guard let next = current[key] else { return nil }
                current = next
            case .index(let index):
                guard let array = current.arrayValue, array.indices.contains(index) else { return nil }
                current = array[index]
            }
        }
        return current
    }
}
