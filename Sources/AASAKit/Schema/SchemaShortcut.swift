/// What a node does, when it is one of the two shapes most nodes of the
/// bundled schemas have, as a plain value the evaluator reads without
/// copying the node.
enum SchemaShortcut: Sendable {
    /// Only a `$ref` (every property of the bundled schemas points at a
    /// definition): the instance is passed on, as that one keyword would,
    /// without a site and a dispatch.
    case reference(Int32)
    /// Only a `type` (most definitions the references lead to): an instance
    /// of one of these types has nothing to report.
    case type(SchemaTypes)
    /// Anything else: the keywords are evaluated.
    case none

    init(_ node: SchemaNode) {
        guard case .keywords(let keywords) = node.body, keywords.count == 1 else {
            self = .none
            return
        }
        switch keywords[0] {
        case .ref(let target) where target <= Int(Int32.max):
            self = .reference(Int32(target))
        case .type(_, let accepted):
            self = .type(accepted)
        default:
            self = .none
        }
    }
}
