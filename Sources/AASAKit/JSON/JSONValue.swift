/// A parsed JSON value that keeps what the AASA tooling needs and Foundation's
/// `JSONSerialization` loses: object key order (for diagnostics and faithful
/// re-rendering), the distinction between booleans and numbers, and strings
/// exactly as written.
///
/// Equality is *semantic*: objects compare as unordered maps and numbers by
/// value (`1 == 1.0`), which is what JSON Schema's `const`, `enum` and
/// `uniqueItems` and the CDN comparison need. Strings, and object keys,
/// compare by Unicode scalars, not by Swift's canonical equivalence: `é` and
/// `e` + U+0301 are different patterns to Apple's matcher, different keys
/// to Foundation's parser and different values to JSON Schema.
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// A JSON object: members in the order they were written, looked up by key.
///
/// When a key is written twice the last value wins (as in Foundation's
/// parser) and the member keeps the position of its first occurrence.
///
/// Stored as two arrays, keys and values, searched in order: almost every
/// object of an association file has a handful of keys, where comparing
/// short strings beats hashing them, and parsing allocates no hash table per
/// object. Objects of more than ``scanLimit`` members also keep positions
/// by key.
public struct JSONObject: Sendable {
    public private(set) var keys: [String]
    private var values: [JSONValue]
    private var positions: [ScalarKey: Int]?

    /// The most members looked up by scanning.
    static let scanLimit = 16

    public init() {
        self.keys = []
        self.values = []
    }

    public init(_ members: [(String, JSONValue)]) {
        self.init()
        keys.reserveCapacity(members.count)
        values.reserveCapacity(members.count)
        for (key, value) in members {
            self[key] = value
        }
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { values[$0] } }
        set {
            if let position = position(of: key) {
                if let newValue {
                    values[position] = newValue
                } else {
                    keys.remove(at: position)
                    values.remove(at: position)
                    indexPositions()
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
                if positions != nil {
                    positions?[ScalarKey(key)] = keys.count - 1
                } else if keys.count > Self.scanLimit {
                    indexPositions()
                }
            }
        }
    }

    /// Sets the value of `key` (a new key goes last) and says whether the
    /// key was there already: the parser's duplicate check and store in
    /// one search of the keys, not two.
    @discardableResult
    mutating func replaceOrAppend(_ value: JSONValue, forKey key: String) -> Bool {
        if let position = position(of: key) {
            values[position] = value
            return true
        }
        self[key] = value
        return false
    }

    /// Members in written order.
    public var members: [(key: String, value: JSONValue)] {
        zip(keys, values).map { ($0, $1) }
    }

    /// A key is found only when its scalars are the same: Swift's `==`
    /// alone would take an NFD key for its NFC spelling (it is the cheap
    /// test, and equal scalars imply it, so it runs first).
    private func position(of key: String) -> Int? {
        if let positions { return positions[ScalarKey(key)] }
        return keys.firstIndex { $0 == key && $0.unicodeScalars.elementsEqual(key.unicodeScalars) }
    }

    private mutating func indexPositions() {
        positions =
            keys.count > Self.scanLimit
            ? Dictionary(uniqueKeysWithValues: zip(keys.map(ScalarKey.init), keys.indices)) : nil
    }

    /// A key as its scalars, for the positions of a large object.
    private struct ScalarKey: Hashable {
        let key: String

        init(_ key: String) { self.key = key }

        static func == (lhs: ScalarKey, rhs: ScalarKey) -> Bool {
            lhs.key.unicodeScalars.elementsEqual(rhs.key.unicodeScalars)
        }

        func hash(into hasher: inout Hasher) {
            for scalar in key.unicodeScalars { hasher.combine(scalar.value) }
        }
    }
}

/// Objects compare as unordered maps.
extension JSONObject: Equatable {
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.count == rhs.count && zip(lhs.keys, lhs.values).allSatisfy { rhs[$0] == $1 }
    }
}

extension JSONObject: Hashable {
    /// Independent of the members' order, as equality is.
    public func hash(into hasher: inout Hasher) {
        var members = 0
        for (key, value) in zip(keys, values) {
            var member = Hasher()
            member.combine(key)
            member.combine(value)
            members &+= member.finalize()
        }
        hasher.combine(count)
        hasher.combine(members)
    }
}

extension JSONValue: Equatable {
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }
}

extension JSONValue: Hashable {
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value):
            hasher.combine(1)
            hasher.combine(value)
        case .number(let value):
            hasher.combine(2)
            hasher.combine(value)
        case .string(let value):
            hasher.combine(3)
            hasher.combine(value)
        case .array(let value):
            hasher.combine(4)
            hasher.combine(value)
        case .object(let value):
            hasher.combine(5)
            hasher.combine(value)
        }
    }
}

extension JSONValue {
    /// The JSON type name used in messages and by JSON Schema's `type` keyword.
    /// Integral numbers report `integer`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number(let value): value.isJSONInteger ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Member lookup that is `nil` for non-objects.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

extension Double {
    /// Whether JSON Schema counts this number as an integer (`1.0` is one).
    public var isJSONInteger: Bool {
        isFinite && rounded(.towardZero) == self
    }
}
