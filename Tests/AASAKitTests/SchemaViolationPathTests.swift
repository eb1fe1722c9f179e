import Testing

@testable import AASAKit

/// The evaluator keeps the instance location as one stack it pushes to and
/// pops from: every violation must name where it is, whatever was visited
/// (and left early) before it.
@Suite("Schema violation paths")
struct SchemaViolationPathTests {
    static let schema = """
        {"type": "object",
         "properties": {
           "a": {"type": "array", "items": {"$ref": "#/$defs/text"}},
           "b": {"anyOf": [{"type": "string"}, {"type": "object", "properties": {"x": {"type": "integer"}}}]},
           "c": {"not": {"type": "object", "properties": {"d": {"type": "string"}}}},
           "e": {"type": "object", "additionalProperties": false, "properties": {"f": {"type": "boolean"}}}
         },
         "$defs": {"text": {"type": "string"}}}
        """

    @Test func eachViolationNamesItsOwnLocation() throws {
        let schema = try JSONSchema(try JSONParser().parse(Self.schema).value)
        let instance = try JSONParser().parse(
            #"{"a": ["ok", 2, "ok", [true]], "b": {"x": 1.5}, "c": {"d": "s"}, "e": {"f": 1, "g": null}}"#
        ).value
        let found = schema.validate(instance).map { "\($0.path) \($0.keyword)" }
        #expect(found == ["a[1] type", "a[3] type", "b.x type", "c not", "e.f type", "e.g additionalProperties"])
    }

    @Test(arguments: [1, 3, 40])
    func typeSetsAcceptIntegersAsNumbers(value: Int) throws {
        let integer = try JSONSchema(try JSONParser().parse(#"{"type": ["integer", "null"]}"#).value)
        let number = try JSONSchema(try JSONParser().parse(#"{"type": "number"}"#).value)
        #expect(integer.validate(.number(Double(value))).isEmpty)
        #expect(integer.validate(.null).isEmpty)
        #expect(integer.validate(.number(Double(value) + 0.5)).map(\.keyword) == ["type"])
        #expect(number.validate(.number(Double(value))).isEmpty)
        #expect(number.validate(.string("\(value)")).map(\.keyword) == ["type"])
    }
}
