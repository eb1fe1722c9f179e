/// A fetcher option that cannot be used (an unreadable `--ca-file`), with the path.
public struct FetchConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
