import AASAKit
import Foundation

/// Follows the `include` statements of an `assetlinks.json` as Google does:
/// only `https://` URLs, only a `200` answer, never through a redirect, each
/// included file validated on its own (a file with errors contributes
/// nothing, the rest of the tree still counts), within a budget, and every
/// URL fetched at most once, so loops end.
///
/// Google publishes no numbers for its budget; these are swift-aasa's
/// (docs/ANDROID.md, "Hosting and includes"): at most ``maximumFiles``
/// included files per host and ``maximumDepth`` levels. A tree that needs
/// more is reported, not silently cut.
public struct AssetLinksIncludeResolver: Sendable {
    /// Included files fetched for one host's file, whatever their depth.
    public static let maximumFiles = 10
    /// Levels of includes followed: an include in the host's file is level 1.
    public static let maximumDepth = 3

    public let fetcher: HTTPFetcher
    /// The request for an include URL. `aasa check` sends includes on the
    /// checked host to the same `--base-url` server as the host's own file.
    public var request: @Sendable (String) -> FetchRequest

    public init(fetcher: HTTPFetcher, request: @escaping @Sendable (String) -> FetchRequest = { FetchRequest($0) }) {
        self.fetcher = fetcher
        self.request = request
    }

    private struct Pending {
        var url: String
        var from: String
        var path: JSONPath
        var depth: Int
    }

    /// Every include reachable from `file` (found at `url`), breadth first,
    /// in the order Google would meet them. `aliases` are other URLs of the
    /// same file (its public URL when it was fetched from a stand-in server),
    /// so an include of it is recognised as a loop.
    public func resolve(_ file: AssetLinksFile, at url: String, aliases: [String] = []) async -> [IncludedFile] {
        var visited = Set(([url] + aliases).map(Self.identity(of:)))
        var queue = Self.includes(of: file, at: url, depth: 1)
        var results: [IncludedFile] = []
        var fetched = 0
        var next = 0
        while next < queue.count {
            let pending = queue[next]
            next += 1
            var included = IncludedFile(
                url: pending.url,
                includedFrom: pending.from,
                path: pending.path,
                depth: pending.depth,
                outcome: .notFollowed(.notHTTPS)
            )
            if !Self.isHTTPS(pending.url) {
                // Stays .notHTTPS.
            } else if !visited.insert(Self.identity(of: pending.url)).inserted {
                included.outcome = .notFollowed(.alreadyIncluded)
            } else if pending.depth > Self.maximumDepth {
                included.outcome = .notFollowed(.tooDeep(limit: Self.maximumDepth))
            } else if fetched >= Self.maximumFiles {
                included.outcome = .notFollowed(.overBudget(limit: Self.maximumFiles))
            } else {
                fetched += 1
                (included.outcome, included.report) = await follow(pending.url)
                if let followed = included.file {
                    queue += Self.includes(of: followed, at: pending.url, depth: pending.depth + 1)
                }
            }
            results.append(included)
        }
        return results
    }

    private func follow(_ url: String) async -> (IncludedFile.Outcome, ValidationReport?) {
        let response: FetchedResponse
        do {
            response = try await fetcher.fetch(request(url))
        } catch {
            return (.notFollowed(.fetch(error)), nil)
        }
        if response.isRedirect {
            return (
                .notFollowed(.redirect(statusLine: response.statusLine, location: response.header("Location"))), nil
            )
        }
        guard response.status == 200 else { return (.notFollowed(.status(response.statusLine)), nil) }
        let report = AssetLinksValidator().validate(bytes: response.body, file: url).locating(in: response.body)
        guard !report.hasErrors, let json = report.json else {
            return (.notFollowed(.invalid(errors: max(report.errorCount, 1))), report)
        }
        return (.followed(AssetLinksFile(json: json)), report)
    }

    private static func includes(of file: AssetLinksFile, at url: String, depth: Int) -> [Pending] {
        file.statements.compactMap { statement in
            guard let include = statement.include else { return nil }
            return Pending(url: include, from: url, path: statement.path.appending("include"), depth: depth)
        }
    }

    private static func isHTTPS(_ url: String) -> Bool {
        guard let parsed = URL(string: url), let host = parsed.host, !host.isEmpty else { return false }
        return parsed.scheme?.lowercased() == "https"
    }

    /// The URL with scheme and host lowercased: the same file however the
    /// include spells them.
    static func identity(of url: String) -> String {
        guard let components = URLComponents(string: url) else { return url }
        var normal = components
        normal.scheme = components.scheme?.lowercased()
        normal.host = components.host?.lowercased()
        normal.fragment = nil
        return normal.string ?? url
    }
}
