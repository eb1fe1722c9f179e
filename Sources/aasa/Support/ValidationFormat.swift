import ArgumentParser

/// `aasa validate --format`: for people, for tools, and for the two places
/// CI shows findings on the code (workflow annotations, code scanning).
enum ValidationFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// `file:line:column: severity: path: message [code]` lines and a summary.
    case text
    /// `{"files":[{"path","diagnostics":[…]}]}`.
    case json
    /// GitHub Actions workflow commands (`::error file=…,line=…,col=…::…`).
    case github
    /// A SARIF 2.1.0 log, for code scanning.
    case sarif
}
