import Foundation
import Testing

@testable import AASAKit

/// ``SchemaShortcut`` decides `$ref`-only and `type`-only nodes without
/// reading their keywords; the result must be what evaluating the keywords
/// gives, violations, messages, order and the depth limit included.
@Suite("Schema shortcuts")
struct SchemaShortcutTests {
    /// The violations with and without the shortcuts.
    static func both(_ schema: JSONSchema, _ instance: JSONValue) -> ([SchemaViolation], [SchemaViolation]) {
        let shortcut = SchemaEvaluator(nodes: schema.nodes, shortcuts: schema.shortcuts)
        let plain = SchemaEvaluator(
            nodes: schema.nodes,
            shortcuts: Array(repeating: .none, count: schema.nodes.count)
        )
        return (
            shortcut.evaluate(0, instance, at: InstanceTrail(), .all, depth: 0),
            plain.evaluate(0, instance, at: InstanceTrail(), .all, depth: 0)
        )
    }

    @Test func theBundledSchemaUsesBothShortcuts() {
        let shortcuts = JSONSchema.appleAppSiteAssociation.shortcuts
        #expect(shortcuts.contains { if case .reference = $0 { true } else { false } })
        #expect(shortcuts.contains { if case .type = $0 { true } else { false } })
    }

    @Test func everySuiteCaseGetsTheSameViolations() throws {
        let cases = try JSONSchemaTestSuiteTests.loadCases()
        #expect(cases.count > 1_000)
        for testCase in cases {
            let schema = try JSONSchema(testCase.schema)
            let (shortcut, plain) = Self.both(schema, testCase.data)
            #expect(shortcut == plain, "\(testCase.testDescription)")
        }
    }

    /// Association files with every value swapped, in turn, for one of
    /// another type: each `type` leaf and each `$ref` is then met both
    /// accepting and rejecting.
    @Test func alteredAssociationFilesGetTheSameViolations() throws {
        let url = try #require(
            Bundle.module.url(forResource: "Fixtures/lieferando/apple-app-site-association", withExtension: nil)
        )
        let original = try JSONParser().parse(Array(try Data(contentsOf: url))).value
        let replacements: [JSONValue] = [
            .null, .bool(true), .number(1.5), .string("x"), .array([.number(1)]), .object(JSONObject()),
        ]
        var instances = [original]
        for path in Self.paths(in: original) {
            for replacement in replacements {
                instances.append(Self.replacing(path, in: original, with: replacement))
            }
        }
        #expect(instances.count > 100)
        let schema = JSONSchema.appleAppSiteAssociation
        var violations = 0
        for instance in instances {
            let (shortcut, plain) = Self.both(schema, instance)
            #expect(shortcut == plain)
            violations += plain.count
        }
        #expect(violations > 0)
    }

    @Test func theDepthLimitIsReportedAsBefore() throws {
        // A schema that refers to itself once per level of the instance.
        let schema = try JSONSchema(
            JSONParser().parse(##"{"type":"array","items":{"$ref":"#/$defs/next"},"$defs":{"next":{"$ref":"#"}}}"##)
                .value
        )
        var deep = JSONValue.array([])
        for _ in 0..<300 { deep = .array([deep]) }
        let (shortcut, plain) = Self.both(schema, deep)
        #expect(!plain.isEmpty)
        #expect(shortcut == plain)
    }

    /// Every location of `value`, keys and indices, the root excluded.
    static func paths(in value: JSONValue, prefix: [JSONPath.Component] = []) -> [[JSONPath.Component]] {
        switch value {
        case .object(let object):
            object.members.flatMap { key, member in
                let path = prefix + [.key(key)]
                return [path] + paths(in: member, prefix: path)
            }
        case .array(let elements):
            elements.indices.flatMap { index in
                let path = prefix + [.index(index)]
                return [path] + paths(in: elements[index], prefix: path)
            }
        default:
            []
        }
    }

    static func replacing(_ path: [JSONPath.Component], in value: JSONValue, with replacement: JSONValue) -> JSONValue {
        guard let first = path.first else { return replacement }
        let rest = Array(path.dropFirst())
        switch (value, first) {
        case (.object(var object), .key(let key)):
            object[key] = object[key].map { replacing(rest, in: $0, with: replacement) }
            return .object(object)
        case (.array(var elements), .index(let index)):
            elements[index] = replacing(rest, in: elements[index], with: replacement)
            return .array(elements)
        default:
            return value
        }
    }
}
