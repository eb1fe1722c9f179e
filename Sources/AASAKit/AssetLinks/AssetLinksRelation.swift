/// The relation strings of Digital Asset Links (`KIND/DETAIL`), and why a
/// string Google rejects is not one.
///
/// Google accepts exactly `delegate_permission/` followed by one or more of
/// `a-z`, `0-9`, `_` and `.`: no uppercase, no whitespace anywhere, no
/// wildcard, no second `/`. The bundled schema holds the same rule as a
/// pattern; this type explains a rejection and suggests the spelling that was
/// probably meant.
public enum AssetLinksRelation {
    /// App Links: the app may open this site's URLs.
    public static let handleAllURLs = "delegate_permission/common.handle_all_urls"
    /// Credential Manager, passkeys and password sharing with the app.
    public static let getLoginCreds = "delegate_permission/common.get_login_creds"
    /// The site may be used as the app's web origin (Trusted Web Activities).
    public static let useAsOrigin = "delegate_permission/common.use_as_origin"

    /// The relations Android and Google act on.
    public static let wellKnown = [handleAllURLs, getLoginCreds, useAsOrigin]

    /// The one kind Google knows.
    static let kind = "delegate_permission"

    /// Whether Google accepts `text` as a relation.
    public static func isValid(_ text: String) -> Bool {
        guard let slash = text.firstIndex(of: "/"), text[..<slash] == kind else { return false }
        let detail = text[text.index(after: slash)...]
        return !detail.isEmpty && detail.unicodeScalars.allSatisfy(isDetailScalar)
    }

    /// The well-known relation `text` (a valid relation) is most likely a
    /// misspelling of; `nil` when it is one, or close to none.
    public static func likelyMeant(_ text: String) -> String? {
        guard !wellKnown.contains(text) else { return nil }
        return SchemaMessages.closest(to: text, among: wellKnown)
    }

    /// Why Google rejects `text`, the first problem found, and the spelling
    /// probably meant when one is close.
    static func problem(with text: String) -> SpellingProblem {
        SpellingProblem(reason: reason(text), suggestion: suggestion(for: text))
    }

    private static func reason(_ text: String) -> String {
        if text.isEmpty { return "the relation is empty" }
        if let space = text.unicodeScalars.first(where: \.properties.isWhitespace) {
            let place = text.unicodeScalars.first == space || text.unicodeScalars.last == space ? " at an end" : ""
            return "it contains whitespace\(place) (\(SpellingProblem.name(of: space))); relations have none"
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 1 { return "it has no \"/\": a relation is KIND/DETAIL, e.g. \(quoted(handleAllURLs))" }
        if parts.count > 2 { return "it has a second \"/\": a relation is one KIND/DETAIL pair" }
        let (kindText, detail) = (String(parts[0]), parts[1])
        if kindText.isEmpty { return "the kind before \"/\" is empty; the only kind is \(quoted(kind))" }
        if detail.isEmpty { return "the detail after \"/\" is empty" }
        if kindText != kind { return "unknown kind \(quoted(kindText)); the only kind is \(quoted(kind))" }
        if detail.contains("*") { return "\"*\" is not a wildcard here: a relation names exactly one permission" }
        if detail.contains(where: \.isUppercase) { return "the detail has uppercase letters; relations are lowercase" }
        let bad = detail.unicodeScalars.first { !isDetailScalar($0) }.map(SpellingProblem.name(of:)) ?? "?"
        return "the detail may hold only a-z, 0-9, \"_\" and \".\", not \(bad)"
    }

    /// A well-known relation close to `text` once it is trimmed and
    /// lowercased (or stripped of every space, when that spells one exactly);
    /// else the trimmed, lowercased text when that is valid.
    private static func suggestion(for text: String) -> String? {
        let cleaned = text.trimmingWhitespace.lowercased()
        var stripped = String.UnicodeScalarView()
        stripped.append(contentsOf: cleaned.unicodeScalars.filter { !$0.properties.isWhitespace })
        if wellKnown.contains(String(stripped)) { return String(stripped) }
        if let known = SchemaMessages.closest(to: cleaned, among: wellKnown) { return known }
        return isValid(cleaned) && cleaned != text ? cleaned : nil
    }

    private static func isDetailScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "."
    }
}
