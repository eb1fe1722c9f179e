import AASAKit

/// One `{"include": "https://…"}` statement and what came of following it.
///
/// Google drops the statements of an include it cannot use and keeps the
/// rest of the file, so a failed include is not a broken file: it is a set
/// of delegations that silently do not exist. ``Outcome`` says which.
public struct IncludedFile: Sendable {
    /// Why an include contributes nothing.
    public enum Problem: Sendable, Hashable {
        /// Not an absolute `https://` URL (Android follows only HTTPS from
        /// an HTTPS file, and `assetlinks.json` is always served over HTTPS).
        case notHTTPS
        /// Already followed from elsewhere in the tree: a loop or a repeat.
        case alreadyIncluded
        /// Deeper than ``AssetLinksIncludeResolver/maximumDepth``.
        case tooDeep(limit: Int)
        /// Past ``AssetLinksIncludeResolver/maximumFiles`` fetched files.
        case overBudget(limit: Int)
        /// The fetch failed (connection, TLS, timeout, size).
        case fetch(FetchError)
        /// A redirect: never followed.
        case redirect(statusLine: String, location: String?)
        /// Any status but 200.
        case status(String)
        /// The file has errors Google rejects it for (``IncludedFile/report``).
        case invalid(errors: Int)

        /// What happened, in plain words.
        public var message: String {
            switch self {
            case .notHTTPS:
                return "not followed: Android follows includes only over https://"
            case .alreadyIncluded:
                return "already included from another statement (an include loop or a repeat); not fetched again"
            case .tooDeep(let limit):
                return "not followed: more than \(limit) levels of includes"
            case .overBudget(let limit):
                return "not followed: more than \(limit) included files for one host"
            case .fetch(let error):
                return "could not fetch: \(error.message)"
            case .redirect(let statusLine, let location):
                return "\(statusLine) redirect to \(location ?? "(no Location)"); Android does not follow redirects"
            case .status(let statusLine):
                return "answers \(statusLine) instead of 200"
            case .invalid(let errors):
                return "\(errors) error\(errors == 1 ? "" : "s"); Google drops every statement of this file"
            }
        }

        /// A loop or repeat is harmless (Google ends it too); everything else
        /// loses statements.
        public var losesStatements: Bool { self != .alreadyIncluded }
    }

    /// What following the include gave.
    public enum Outcome: Sendable {
        /// Fetched and valid: its statements count as the host's.
        case followed(AssetLinksFile)
        case notFollowed(Problem)
    }

    /// The `include` value.
    public var url: String
    /// The URL (or path) of the file holding the include statement.
    public var includedFrom: String
    /// Where the statement's `include` is in that file: `[2].include`.
    public var path: JSONPath
    /// 1 for an include in the host's own file, 2 for one in an included file…
    public var depth: Int
    public var outcome: Outcome
    /// The included file's own findings, with line and column, when it was fetched.
    public var report: ValidationReport?

    public init(
        url: String,
        includedFrom: String,
        path: JSONPath,
        depth: Int,
        outcome: Outcome,
        report: ValidationReport? = nil
    ) {
        self.url = url
        self.includedFrom = includedFrom
        self.path = path
        self.depth = depth
        self.outcome = outcome
        self.report = report
    }

    /// The problem, when the include contributes nothing.
    public var problem: Problem? {
        if case .notFollowed(let problem) = outcome { return problem }
        return nil
    }

    /// The file, when it was followed.
    public var file: AssetLinksFile? {
        if case .followed(let file) = outcome { return file }
        return nil
    }

    /// `contributed 2 statements (com.example.app)` or the problem.
    public var summary: String {
        guard let file else { return problem?.message ?? "" }
        let direct = file.statements.filter { !$0.isInclude }.count
        let packages = Set(file.statements.filter { !$0.isInclude }.compactMap { $0.target?.packageName }).sorted()
        let named = packages.isEmpty ? "" : " (\(packages.joined(separator: ", ")))"
        return "contributed \(direct) statement\(direct == 1 ? "" : "s")\(named)"
    }

    /// `{"url", "from", "path", "depth", "followed", "statements"?, "packages"?, "problem"?}`.
    public var json: JSONValue {
        var object = JSONObject([
            ("url", .string(url)), ("from", .string(includedFrom)), ("path", .string(path.description)),
            ("depth", .number(Double(depth))), ("followed", .bool(file != nil)),
        ])
        if let file {
            let direct = file.statements.filter { !$0.isInclude }
            object["statements"] = .number(Double(direct.count))
            let packages = Set(direct.compactMap { $0.target?.packageName }).sorted()
            object["packages"] = .array(packages.map(JSONValue.string))
        }
        if let problem { object["problem"] = .string(problem.message) }
        return .object(object)
    }
}
