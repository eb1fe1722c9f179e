extension JSONValue {
    /// Renders JSON text, members in their stored order.
    ///
    /// Integral numbers print without a fraction (`1`, not `1.0`); `/` is not
    /// escaped, so AASA patterns read as written.
    public func serialized(pretty: Bool = false) -> String {
        var writer = JSONTextWriter()
        writer.value(self, pretty: pretty)
        return writer.text
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
    public init(nilLiteral: ()) { self = .null }
}
