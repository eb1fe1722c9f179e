/// A semantic, structural difference between two JSON values, as a list of
/// changes by path.
///
/// Objects compare as unordered maps (key order and whitespace never show
/// up: Apple's CDN re-serialises the files it caches); arrays are aligned
/// (``ArrayAlignment``: a longest common subsequence of equal elements), so
/// removing one rule of ten is one removal, not nine changes, and moving a
/// rule shows as a removal and an addition, because order decides which rule
/// wins; numbers compare by value (`1` equals `1.0`).
///
/// Paths of removed and edited elements use their index in the old array,
/// paths of added elements their index in the new one.
public struct JSONDiff: Sendable, Hashable {
    /// What happened at a path, read from the old value to the new one.
    public enum Kind: String, Sendable, Hashable {
        /// Present only in the new value.
        case added
        /// Present only in the old value.
        case removed
        /// Present in both with different values (or different types).
        case changed
    }

    /// One difference. `old` is `nil` for `.added`, `new` is `nil` for `.removed`.
    public struct Change: Sendable, Hashable, CustomStringConvertible {
        public var path: JSONPath
        public var kind: Kind
        public var old: JSONValue?
        public var new: JSONValue?

        public init(path: JSONPath, kind: Kind, old: JSONValue?, new: JSONValue?) {
            self.path = path
            self.kind = kind
            self.old = old
            self.new = new
        }

        /// `- path: old`, `+ path: new` or `~ path: old -> new`.
        public var description: String {
            switch kind {
            case .added: "+ \(path): \(Self.render(new))"
            case .removed: "- \(path): \(Self.render(old))"
            case .changed: "~ \(path): \(Self.render(old)) -> \(Self.render(new))"
            }
        }

        /// The JSON rendering: `{"path","kind","old"?,"new"?}`.
        public var json: JSONValue {
            var object = JSONObject()
            object["path"] = .string(path.description)
            object["kind"] = .string(kind.rawValue)
            if let old { object["old"] = old }
            if let new { object["new"] = new }
            return .object(object)
        }

        private static func render(_ value: JSONValue?) -> String {
            value?.serialized() ?? "(none)"
        }
    }

    /// The differences in document order: keys of the old object first in
    /// their written order, then keys only the new object has.
    public private(set) var changes: [Change]

    /// Compares `old` with `new`.
    public init(from old: JSONValue, to new: JSONValue) {
        var changes: [Change] = []
        Self.compare(old, new, at: .root, into: &changes)
        self.changes = changes
    }

    /// Whether the two values are semantically equal.
    public var isEmpty: Bool { changes.isEmpty }

    private static func compare(_ old: JSONValue, _ new: JSONValue, at path: JSONPath, into changes: inout [Change]) {
        switch (old, new) {
        case (.object(let oldObject), .object(let newObject)):
            for (key, oldValue) in oldObject.members {
                if let newValue = newObject[key] {
                    compare(oldValue, newValue, at: path.appending(key), into: &changes)
                } else {
                    changes.append(Change(path: path.appending(key), kind: .removed, old: oldValue, new: nil))
                }
            }
            for (key, newValue) in newObject.members where oldObject[key] == nil {
                changes.append(Change(path: path.appending(key), kind: .added, old: nil, new: newValue))
            }
        case (.array(let oldElements), .array(let newElements)):
            for step in ArrayAlignment(oldElements, newElements).steps {
                switch step {
                case .same:
                    break
                case .edited(let oldIndex, let newIndex):
                    compare(
                        oldElements[oldIndex],
                        newElements[newIndex],
                        at: path.appending(oldIndex),
                        into: &changes
                    )
                case .removed(let oldIndex):
                    changes.append(
                        Change(path: path.appending(oldIndex), kind: .removed, old: oldElements[oldIndex], new: nil)
                    )
                case .added(let newIndex):
                    changes.append(
                        Change(path: path.appending(newIndex), kind: .added, old: nil, new: newElements[newIndex])
                    )
                }
            }
        default:
            if old != new {
                changes.append(Change(path: path, kind: .changed, old: old, new: new))
            }
        }
    }
}
