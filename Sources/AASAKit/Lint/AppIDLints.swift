/// Checks on app IDs: their `TEAMID.bundle.id` shape, and an app listed by
/// more than one `details` item (only the first counts, §1).
struct AppIDLints: LintRule {
    func diagnostics(in context: LintContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for written in Self.writtenAppIDs(in: context) {
            let appID = written.appID
            if let problem = AppIDFormat.problem(with: appID) {
                diagnostics.append(
                    .warning(
                        "lint.app-id-format",
                        at: written.path,
                        """
                        app ID \(quoted(appID)) is not of the form TEAMID.bundle.id: \(problem); the system compares \
                        app IDs exactly with the app's entitlement, so this one likely matches no app
                        """
                    )
                )
            }
        }
        diagnostics += duplicates(in: context)
        return diagnostics
    }

    /// An app repeated in a later item is ignored there: the first item
    /// listing it supplies all of its rules.
    private func duplicates(in context: LintContext) -> [Diagnostic] {
        var firstSeen: [String: JSONPath] = [:]
        var diagnostics: [Diagnostic] = []
        for (itemPath, item) in context.detailItems {
            var seenInItem: Set<String> = []
            for written in Self.effectiveAppIDs(of: item, at: itemPath) where seenInItem.insert(written.appID).inserted
            {
                let appID = written.appID
                if let first = firstSeen[appID] {
                    diagnostics.append(
                        .warning(
                            "lint.duplicate-app-id",
                            at: written.path,
                            """
                            \(quoted(appID)) is already listed in \(first); the system takes an app's rules from the \
                            first entry that lists it, so this entry is ignored for that app
                            """
                        )
                    )
                } else {
                    firstSeen[appID] = itemPath
                }
            }
        }
        return diagnostics
    }

    /// The app IDs an item applies to: `appIDs` when it is an array, else
    /// `appID`; in the legacy dictionary form, the item's key.
    static func effectiveAppIDs(of item: JSONObject, at itemPath: JSONPath) -> [WrittenAppID] {
        if case .key(let key) = itemPath.components.last {
            return [WrittenAppID(appID: key, parent: itemPath, at: .itself)]
        }
        if case .array(let appIDs) = item["appIDs"] {
            return appIDs.enumerated().compactMap { offset, value in
                value.stringValue.map { WrittenAppID(appID: $0, parent: itemPath, at: .element("appIDs", offset)) }
            }
        }
        if let appID = item["appID"]?.stringValue {
            return [WrittenAppID(appID: appID, parent: itemPath, at: .key("appID"))]
        }
        return []
    }

    /// Every app ID written anywhere in the file, ignored ones included.
    private static func writtenAppIDs(in context: LintContext) -> [WrittenAppID] {
        var written: [WrittenAppID] = []
        for (itemPath, item) in context.detailItems {
            if case .key(let key) = itemPath.components.last {
                written.append(WrittenAppID(appID: key, parent: itemPath, at: .itself))
                continue
            }
            if case .array(let appIDs) = item["appIDs"] {
                for (offset, value) in appIDs.enumerated() {
                    if let appID = value.stringValue {
                        written.append(WrittenAppID(appID: appID, parent: itemPath, at: .element("appIDs", offset)))
                    }
                }
            }
            if let appID = item["appID"]?.stringValue {
                written.append(WrittenAppID(appID: appID, parent: itemPath, at: .key("appID")))
            }
        }
        for service in ["webcredentials", "appclips", "activitycontinuation", "authsrv"] {
            guard case .array(let apps) = context.root[service]?["apps"] else { continue }
            let servicePath = JSONPath([.key(service)])
            for (offset, value) in apps.enumerated() {
                if let appID = value.stringValue {
                    written.append(WrittenAppID(appID: appID, parent: servicePath, at: .element("apps", offset)))
                }
            }
        }
        return written
    }
}

/// An app ID as written, and where: the path is built only for a finding
/// (nearly every app ID has none, and each path is two arrays).
struct WrittenAppID {
    let appID: String
    let parent: JSONPath
    let at: Place

    enum Place {
        /// The parent's own key (the legacy dictionary form).
        case itself
        case key(String)
        /// An element of the array under `key`.
        case element(String, Int)
    }

    var path: JSONPath {
        switch at {
        case .itself: parent
        case .key(let key): parent.appending(key)
        case .element(let key, let offset): parent.appending(key).appending(offset)
        }
    }
}

/// The strict app ID shape (§1): `<prefix>.<bundle id>`.
///
/// The prefix must be 10 uppercase letters or digits (a Team ID) — or 8,
/// because Apple's own archived documentation shows an 8-character prefix and
/// old App ID prefixes were not always Team IDs. No other length has been
/// seen, so 9 or 11 characters are more likely a typo than a real prefix.
enum AppIDFormat {
    static let prefixLengths: Set<Int> = [8, 10]

    /// Why `appID` does not have the expected shape, or `nil` if it does.
    static func problem(with appID: String) -> String? {
        // Every file's app IDs are checked on every load: the well-formed
        // case is one pass over the bytes; only a bad ID pays for the
        // explanation.
        isWellFormed(appID) ? nil : explanation(for: appID)
    }

    /// The shape in one pass over the UTF-8 bytes: every byte the shape
    /// allows is ASCII, so bytes and scalars agree wherever it holds.
    static func isWellFormed(_ appID: String) -> Bool {
        var prefixLength = 0
        var sawDot = false
        var previous: UInt8 = 0
        for byte in appID.utf8 {
            if !sawDot {
                if byte == UInt8(ascii: ".") {
                    guard prefixLengths.contains(prefixLength) else { return false }
                    sawDot = true
                } else if (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                {
                    prefixLength += 1
                } else {
                    return false
                }
            } else if byte == UInt8(ascii: ".") {
                // An empty part: the bundle ID starts with a dot, or two in a row.
                guard previous != UInt8(ascii: ".") else { return false }
            } else {
                let allowed =
                    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                guard allowed else { return false }
            }
            previous = byte
        }
        // A bundle ID, not empty and not ending in a dot.
        return sawDot && previous != UInt8(ascii: ".")
    }

    /// Why `appID` does not have the expected shape, or `nil` if it does
    /// (the reference ``isWellFormed(_:)`` agrees with).
    static func explanation(for appID: String) -> String? {
        guard let dot = appID.firstIndex(of: ".") else {
            return "there is no dot between the Team ID and the bundle ID"
        }
        let prefix = appID[..<dot]
        let bundleID = appID[appID.index(after: dot)...]
        let prefixIsUppercaseAlphanumeric = prefix.unicodeScalars.allSatisfy {
            ("A"..."Z").contains($0) || ("0"..."9").contains($0)
        }
        guard prefixIsUppercaseAlphanumeric, prefixLengths.contains(prefix.unicodeScalars.count) else {
            return "the prefix \(quoted(String(prefix))) is not a Team ID (10 uppercase letters and digits)"
        }
        let allowed = bundleID.unicodeScalars.allSatisfy {
            ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "."
        }
        guard !bundleID.isEmpty, allowed,
            !bundleID.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
        else {
            return
                "the bundle ID \(quoted(String(bundleID))) may only hold letters, digits, hyphens and single dots between parts"
        }
        return nil
    }
}
