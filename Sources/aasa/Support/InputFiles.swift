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
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw InputError("\(directory): cannot list the directory")
        }
        let hosts = entries.sorted().filter { name in
            !name.hasPrefix(".") && HostName(name: name) != nil
                && FileManager.default.fileExists(atPath: servedFile(directory: directory, host: name))
        }
        guard !hosts.isEmpty else {
            throw InputError("\(directory): no <host>/apple-app-site-association in the directory")
        }
        return hosts
    }
}
