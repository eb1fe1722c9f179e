/// Why a link test failed.
public enum LinkTestFailure: String, Sendable, Hashable, CaseIterable {
    /// No rule matched a URL that should open the app.
    case unhandled
    /// An exclusion rule matched first and blocked the URL.
    case excluded
    /// A rule matched (the app opens) for a URL that should not open it.
    case incorrectlyHandled = "incorrectly-handled"
    /// An `http://` URL expected to open the app: iOS opens apps for
    /// `https://` links only, whatever the rules say.
    case httpScheme = "http-scheme"
    /// The URL could not be parsed.
    case invalidURL = "invalid-url"
    /// No association file serves the URL's host.
    case noFile = "no-file"
    /// The file serving the URL's host is one the system ignores whole
    /// (over 128 KiB, not JSON).
    case fileUnusable = "file-unusable"
    /// The app to test is not in the host's `applinks`.
    case appNotListed = "app-not-listed"

    /// A heading for humans.
    public var title: String {
        switch self {
        case .unhandled: "unhandled"
        case .excluded: "excluded"
        case .incorrectlyHandled: "incorrectly handled"
        case .httpScheme: "http scheme"
        case .invalidURL: "invalid URL"
        case .noFile: "no file"
        case .fileUnusable: "file unusable"
        case .appNotListed: "app not listed"
        }
    }

    /// Whether the test could not run at all (JUnit's `error`, as opposed
    /// to a `failure` of the rules).
    public var isError: Bool {
        switch self {
        case .invalidURL, .noFile, .appNotListed: true
        case .unhandled, .excluded, .incorrectlyHandled, .httpScheme, .fileUnusable: false
        }
    }
}
