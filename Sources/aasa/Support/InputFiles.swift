import AASAKit
import Foundation

/// Reading the files the link and schema commands are given, with errors
/// that name the path.
enum InputFiles {
    static func bytes(_ path: String, what: String) throws(InputError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError("\(path): cannot read the \(what)")
        }
        return Array(data)
    }

    static func json(_ path: String, what: String) throws(InputError) -> JSONValue {
        let data = try bytes(path, what: what)
        do {
            return try JSONParser().parse(data).value
        } catch {
            throw InputError("\(path): the \(what) is not JSON: \(error)")
        }
    }

    /// `<dir>/<host>/apple-app-site-association`, the layout `aasa serve` reads.
    static func servedFile(directory: String, host: String) -> String {
        SiteLayout.path(of: .appleAppSiteAssociation, host: host, in: directory)
    }

    /// The hosts a directory laid out for `aasa serve` has a file for: every
    /// visible entry named like a host that holds an
    /// `apple-app-site-association` (symlinked aliases included).
    static func servedHosts(directory: String) throws(InputError) -> [String] {
        let hosts = try servedNames(directory: directory).filter { !$0.hasPrefix("*.") }
        guard !hosts.isEmpty else {
            throw InputError("\(directory): no <host>/apple-app-site-association in the directory")
        }
        return hosts
    }

    /// The association files of a directory laid out for `aasa serve`, by
    /// the host names (and `*.` wildcards) they are served for.
    static func linkTestSites(directory: String) throws(InputError) -> LinkTestSites {
        let names = try servedNames(directory: directory)
        guard !names.isEmpty else {
            throw InputError("\(directory): no <host>/apple-app-site-association in the directory")
        }
        var sites: [String: LinkTestSites.Site] = [:]
        for name in names {
            sites[name] = try linkTestSite(servedFile(directory: directory, host: name))
        }
        return LinkTestSites(byHost: sites)
    }

    /// An association file as a link test sees it: one the system would
    /// ignore whole (over 128 KiB, not JSON) is unusable, not bad input —
    /// it is the thing under test.
    static func linkTestSite(_ path: String) throws(InputError) -> LinkTestSites.Site {
        let bytes = try bytes(path, what: "association file")
        guard bytes.count <= AASAValidator.maximumFileSize else {
            return LinkTestSites.Site(
                name: path,
                content: .unusable(
                    "\(path) is \(bytes.count) bytes; the system reads at most \(AASAValidator.maximumFileSize) and uses none of a larger file"
                )
            )
        }
        do {
            return LinkTestSites.Site(name: path, content: .file(AASAFile(json: try JSONParser().parse(bytes).value)))
        } catch {
            return LinkTestSites.Site(
                name: path,
                content: .unusable("\(path) is not JSON (\(error)); the system ignores the whole file")
            )
        }
    }

    /// Visible entries named like a host or a `*.` wildcard that hold an
    /// `apple-app-site-association`, sorted.
    private static func servedNames(directory: String) throws(InputError) -> [String] {
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw InputError("\(directory): cannot list the directory")
        }
        return entries.sorted().filter { name in
            let host = name.hasPrefix("*.") ? String(name.dropFirst(2)) : name
            return !name.hasPrefix(".") && HostName(name: host) != nil
                && FileManager.default.fileExists(atPath: servedFile(directory: directory, host: name))
        }
    }
}
