import Foundation

/// Turns a schema document into the node table that `JSONSchema` evaluates.
///
/// Every subschema is identified by its JSON pointer from the document root,
/// so a location is compiled once however many `$ref`s reach it. `$ref`s are
/// resolved after the whole document has been walked, because a reference may
/// name an `$id` or `$anchor` that appears later in the document.
struct SchemaCompiler {
    /// Deeper schemas are rejected rather than risking the stack.
    static let maximumDepth = 256

    private struct PendingReference {
        var node: Int
        var keyword: Int
        /// The absolute URI the reference resolves to.
        var target: String
        /// The `$ref` as written, for messages.
        var written: String
        var location: String
    }

    private let document: JSONValue
    private var nodes: [SchemaNode] = []
    private var indexByPointer: [String: Int] = [:]
    private var baseByPointer: [String: String] = [:]
    /// Absolute URI (no fragment) of each resource → pointer of its root.
    private var resources: [String: [String]] = [:]
    /// `uri#name` → pointer of the schema declaring that `$anchor`.
    private var anchors: [String: [String]] = [:]
    private var pendingReferences: [PendingReference] = []

    init(document: JSONValue) {
        self.document = document
    }

    /// Compiles the document; node 0 is its root.
    mutating func compile() throws(JSONSchemaError) -> [SchemaNode] {
        resources[SchemaURI.defaultBase] = []
        _ = try compile(document, at: [], base: SchemaURI.defaultBase)
        while let pending = pendingReferences.popLast() {
            let target = try resolve(pending)
            guard case .keywords(var keywords) = nodes[pending.node].body else { continue }
            keywords[pending.keyword] = .ref(target)
            nodes[pending.node].body = .keywords(keywords)
        }
        try rejectInPlaceCycles()
        return nodes
    }

    /// Compiles the subschema `value` found at `tokens`, or returns the node
    /// already compiled there.
    mutating func compile(
        _ value: JSONValue,
        at tokens: [String],
        base parentBase: String
    ) throws(JSONSchemaError) -> Int {
        let pointer = Self.pointer(tokens)
        if let index = indexByPointer[pointer] { return index }
        let location = "#" + pointer
        guard tokens.count <= Self.maximumDepth else {
            throw JSONSchemaError(
                .invalidSchema,
                at: location,
                "the schema is nested more than \(Self.maximumDepth) levels deep"
            )
        }
        let index = nodes.count
        // Reserved before the keywords are compiled, so that a subschema
        // referring back here finds this node.
        nodes.append(SchemaNode(location: location, body: .boolean(true)))
        indexByPointer[pointer] = index
        switch value {
        case .bool(let accepts):
            nodes[index].body = .boolean(accepts)
        case .object(let object):
            let base = try register(object, at: tokens, base: parentBase)
            let keywords = try compileKeywords(object, at: tokens, base: base)
            if case .string(let written) = object["$ref"], let position = keywords.firstIndex(where: \.isReference) {
                pendingReferences.append(
                    PendingReference(
                        node: index,
                        keyword: position,
                        target: SchemaURI.resolve(written, against: base),
                        written: written,
                        location: location + "/$ref"
                    )
                )
            }
            nodes[index].body = .keywords(keywords)
        default:
            throw JSONSchemaError(
                .invalidSchema,
                at: location,
                "a schema must be an object or a boolean, got \(value.typeName)"
            )
        }
        return index
    }

    /// Records the `$id` and `$anchor` of a schema object; returns its base URI.
    private mutating func register(
        _ object: JSONObject,
        at tokens: [String],
        base parentBase: String
    ) throws(JSONSchemaError) -> String {
        let location = "#" + Self.pointer(tokens)
        var base = parentBase
        switch object["$id"] {
        case .string(let id)?:
            base = SchemaURI.split(SchemaURI.resolve(id, against: parentBase)).resource
            if resources[base] == nil { resources[base] = tokens }
        case nil:
            break
        case let other?:
            throw JSONSchemaError(.invalidSchema, at: location + "/$id", "expected a string, got \(other.typeName)")
        }
        baseByPointer[Self.pointer(tokens)] = base
        switch object["$anchor"] {
        case .string(let anchor)?:
            anchors[base + "#" + anchor] = tokens
        case nil:
            break
        case let other?:
            throw JSONSchemaError(.invalidSchema, at: location + "/$anchor", "expected a string, got \(other.typeName)")
        }
        return base
    }

    private mutating func resolve(_ reference: PendingReference) throws(JSONSchemaError) -> Int {
        let (resource, fragment) = SchemaURI.split(reference.target)
        guard let root = resources[resource] else {
            throw JSONSchemaError(
                .unresolvableReference,
                at: reference.location,
                "\"\(reference.written)\" names \(resource), which is not in this document (remote schemas are never fetched)"
            )
        }
        var tokens = root
        if let fragment, fragment.hasPrefix("/") {
            guard let decoded = fragment.removingPercentEncoding else {
                throw JSONSchemaError(
                    .unresolvableReference,
                    at: reference.location,
                    "\"\(reference.written)\" has an invalid percent-escape"
                )
            }
            tokens += decoded.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(Self.unescape)
        } else if let fragment, !fragment.isEmpty {
            guard let anchored = anchors[resource + "#" + fragment] else {
                throw JSONSchemaError(
                    .unresolvableReference,
                    at: reference.location,
                    "\"\(reference.written)\": no $anchor \"\(fragment)\" in \(resource)"
                )
            }
            tokens = anchored
        }
        if let index = indexByPointer[Self.pointer(tokens)] { return index }
        guard let target = Self.value(in: document, at: tokens) else {
            throw JSONSchemaError(
                .unresolvableReference,
                at: reference.location,
                "\"\(reference.written)\" points at nothing"
            )
        }
        return try compile(target, at: tokens, base: base(enclosing: tokens))
    }

    /// The base URI in effect at `tokens`: that of the nearest enclosing
    /// schema already walked (the root always is).
    private func base(enclosing tokens: [String]) -> String {
        for count in stride(from: tokens.count, through: 0, by: -1) {
            if let base = baseByPointer[Self.pointer(tokens.prefix(count))] { return base }
        }
        return SchemaURI.defaultBase
    }

    /// A schema that reaches itself through `$ref`, `allOf`, `not`, … without
    /// descending into the instance would evaluate forever (the specification
    /// leaves it undefined), so it is refused at compile time. Iterative, so a
    /// long chain cannot overflow the stack.
    private func rejectInPlaceCycles() throws(JSONSchemaError) {
        enum Mark { case unvisited, active, done }
        let edges = nodes.map { node in node.keywords.flatMap(\.inPlaceSubschemas) }
        var marks = [Mark](repeating: .unvisited, count: nodes.count)
        for start in nodes.indices where marks[start] == .unvisited {
            marks[start] = .active
            var stack: [(node: Int, next: Int)] = [(start, 0)]
            while let (node, next) = stack.last {
                guard next < edges[node].count else {
                    marks[node] = .done
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let child = edges[node][next]
                switch marks[child] {
                case .active:
                    throw JSONSchemaError(
                        .circularReference,
                        at: nodes[child].location,
                        "this schema applies itself to the same value again (through $ref or an applicator) without descending into it"
                    )
                case .unvisited:
                    marks[child] = .active
                    stack.append((child, 0))
                case .done:
                    break
                }
            }
        }
    }

    static func pointer(_ tokens: some Collection<String>) -> String {
        tokens.map { "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }
            .joined()
    }

    private static func unescape(_ token: Substring) -> String {
        token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
    }

    private static func value(in document: JSONValue, at tokens: [String]) -> JSONValue? {
        var current = document
        for token in tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let elements):
                guard token.allSatisfy(\.isASCII), let index = Int(token), elements.indices.contains(index) else {
                    return nil
                }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}
