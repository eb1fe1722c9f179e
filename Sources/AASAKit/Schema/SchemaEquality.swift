/// Equality as JSON Schema defines it for `const`, `enum` and `uniqueItems`.
///
/// `JSONValue`'s own `==` compares strings with Swift's `String` equality,
/// which is canonical equivalence: a precomposed "é" equals "e" followed by a
/// combining accent. JSON Schema compares code points, so those differ here.
/// Numbers compare by value (`1 == 1.0`) and objects ignore member order, as
/// in `JSONValue`.
enum SchemaEquality {
    static func equal(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let left), .string(let right)):
            return left.unicodeScalars.elementsEqual(right.unicodeScalars)
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy(equal)
        case (.object(let left), .object(let right)):
            return left.count == right.count
                && left.members.allSatisfy { member in right[member.key].map { equal(member.value, $0) } ?? false }
        default:
            return lhs == rhs
        }
    }
}
