/// Where in the instance an evaluation is: a stack the evaluator pushes a
/// key or index to when it descends and pops when it comes back.
///
/// The path is built only for a violation. The schema visits every node of
/// every file the origin loads, and almost every visit finds nothing; a
/// `JSONPath` per visit was an allocation and a copy of every component
/// above it, for paths that were then thrown away.
///
/// One trail per evaluation, used by one thread: it is never shared.
final class InstanceTrail {
    private var components: [JSONPath.Component] = []

    init() {
        components.reserveCapacity(16)
    }

    /// The location as it is now.
    var path: JSONPath { JSONPath(components) }

    /// The location one step below the current one, without descending.
    func path(appending component: JSONPath.Component) -> JSONPath {
        var extended = components
        extended.append(component)
        return JSONPath(extended)
    }

    /// Runs `body` one step below the current location.
    @inline(__always)
    func descending<Result>(_ component: JSONPath.Component, _ body: () -> Result) -> Result {
        components.append(component)
        defer { components.removeLast() }
        return body()
    }
}
