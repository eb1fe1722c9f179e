/// The JSON types a `type` keyword accepts, as bits: the keyword is checked
/// at nearly every node of every file, and comparing the type names as
/// strings there was most of what it cost.
struct SchemaTypes: OptionSet, Sendable {
    let rawValue: UInt8

    static let null = SchemaTypes(rawValue: 1 << 0)
    static let boolean = SchemaTypes(rawValue: 1 << 1)
    static let number = SchemaTypes(rawValue: 1 << 2)
    static let integer = SchemaTypes(rawValue: 1 << 3)
    static let string = SchemaTypes(rawValue: 1 << 4)
    static let array = SchemaTypes(rawValue: 1 << 5)
    static let object = SchemaTypes(rawValue: 1 << 6)

    /// The types of `names`, each one of JSON Schema's seven type names
    /// (the compiler rejects any other).
    init(names: [String]) {
        self = []
        for name in names {
            switch name {
            case "null": insert(.null)
            case "boolean": insert(.boolean)
            case "number": insert(.number)
            case "integer": insert(.integer)
            case "string": insert(.string)
            case "array": insert(.array)
            case "object": insert(.object)
            default: continue
            }
        }
    }

    init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Whether `value` is of one of these types; a number with no
    /// fractional part is also an `integer`.
    func accepts(_ value: JSONValue) -> Bool {
        switch value {
        case .null: contains(.null)
        case .bool: contains(.boolean)
        case .number(let number): contains(.number) || (contains(.integer) && number.isJSONInteger)
        case .string: contains(.string)
        case .array: contains(.array)
        case .object: contains(.object)
        }
    }
}
