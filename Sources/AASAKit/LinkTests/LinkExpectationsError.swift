/// An expectations file that cannot be used, with where.
public struct LinkExpectationsError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String?
    public var path: JSONPath
    public var message: String

    public init(file: String?, path: JSONPath, message: String) {
        self.file = file
        self.path = path
        self.message = message
    }

    public var description: String {
        let location = path.isRoot ? "" : "\(path): "
        return "\(file.map { "\($0): " } ?? "")\(location)\(message)"
    }
}
