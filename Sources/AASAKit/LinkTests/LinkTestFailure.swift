/// Why a link test failed.
public enum LinkTestFailure: String, Sendable, Hashable {
    /// No rule matched a URL that should open the app.
    case unhandled
    /// An exclusion rule matched first and blocked the URL.
    case excluded
    /// A rule matched (the app opens) for a URL that should not open it.
    case incorrectlyHandled = "incorrectly-handled"
    /// The URL could not be parsed.
    case invalidURL = "invalid-url"
    /// The app to test is not in the file (or none was named).
    case appNotListed = "app-not-listed"

    /// A heading for humans.
    public var title: String {
        switch self {
        case .unhandled: "unhandled"
        case .excluded: "excluded"
        case .incorrectlyHandled: "incorrectly handled"
        case .invalidURL: "invalid URL"
        case .appNotListed: "app not listed"
        }
    }
}
