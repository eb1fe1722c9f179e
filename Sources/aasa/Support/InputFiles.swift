import AASAKit
import Foundation
import SystemPackage

/// Reading the files the link and schema commands are given, with errors
/// that name the path.
enum InputFiles {
    /// The file's bytes. `sizeHint` (tests) replaces the size the file
    /// says it has, which the read starts from.
    static func bytes(_ path: String, what: String, sizeHint: Int? = nil) throws(InputError) -> [UInt8] {
        // Read straight into the array: `FileManager.contents` filled a
        // `Data` that was then copied, so a 6.6 MB links file was faulted
        // in twice before its scan could start.
        do {
            let descriptor = try FileDescriptor.open(FilePath(path), .readOnly)
            defer { try? descriptor.close() }
            return try readAll(descriptor, sizeHint: try sizeHint ?? Int(descriptor.stat().size))
        } catch {
            throw InputError(path: path, "cannot read the \(what)")
        }
    }

    /// Everything `descriptor` reads until its end: `sizeHint` bytes and one
    /// more in one array, then (a pipe, a file that grew) the rest in blocks.
    static func readAll(_ descriptor: FileDescriptor, sizeHint: Int) throws -> [UInt8] {
        let capacity = max(sizeHint, 0) + 1
        // Small pages, no huge-page advice: see DECISIONS, "Huge pages for
        // the big buffers of a run".
        var bytes = try [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            while count < buffer.count {
                let rest = UnsafeMutableBufferPointer(rebasing: buffer[count...])
                let got = try descriptor.read(into: UnsafeMutableRawBufferPointer(rest))
                if got == 0 { break }
                count += got
            }
        }
        guard bytes.count == capacity else { return bytes }
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = try block.withUnsafeMutableBytes { try descriptor.read(into: $0) }
            if got == 0 { return bytes }
            bytes += block[..<got]
        }
    }

    static func json(_ path: String, what: String) throws(InputError) -> JSONValue {
        let data = try bytes(path, what: what)
        do {
            return try JSONParser().parse(data).value
        } catch {
            throw InputError(path: path, "the \(what) is not JSON: \(error)")
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
        let hosts = try servedNames(directory: directory, holding: [.appleAppSiteAssociation]).filter {
            !$0.hasPrefix("*.")
        }
        guard !hosts.isEmpty else {
            throw InputError("\(directory): no <host>/apple-app-site-association in the directory")
        }
        return hosts
    }

    /// The association file that serves `host` in a directory laid out for
    /// `aasa serve`: the host's own, else the most specific `*.` wildcard's,
    /// as the server picks them; nil when none does.
    static func servingFile(directory: String, host: String) -> String? {
        guard let name = HostName(name: host) else { return nil }
        var candidates = [name.value]
        var rest = name
        while let parent = rest.parent, let next = HostName(name: String(parent)) {
            candidates.append("*." + next.value)
            rest = next
        }
        return candidates.lazy.map { servedFile(directory: directory, host: $0) }
            .first { FileManager.default.fileExists(atPath: $0) }
    }

    /// A one-line note naming the `*.` wildcard directories that `--from-dir`
    /// skips when it lists the hosts to `command`, or nil when there are none:
    /// Apple fetches the file (and its CDN keeps a copy) per host name, and a
    /// wildcard names no host, so skipping one silently hides its hosts.
    static func skippedWildcardsNote(directory: String, command: String) -> String? {
        let names = (try? servedNames(directory: directory, holding: [.appleAppSiteAssociation])) ?? []
        let wildcards = names.filter { $0.hasPrefix("*.") }
        guard let first = wildcards.first else { return nil }
        return """
            note: --from-dir skips \(wildcards.joined(separator: ", ")): Apple fetches the file, and its CDN keeps \
            a copy, per host name, and a wildcard directory names none; give the hosts it serves on the command \
            line (aasa \(command) <name>.\(first.dropFirst(2)) --from-dir \(directory))
            """
    }

    /// The files of a directory laid out for `aasa serve`, by the host
    /// names (and `*.` wildcards) they are served for: every host with an
    /// `apple-app-site-association`, an `assetlinks.json` or both, so an
    /// Android-only host judges its Android entries.
    static func linkTestSites(directory: String) throws(InputError) -> LinkTestSites {
        let names = try servedNames(directory: directory, holding: SiteFile.allCases)
        guard !names.isEmpty else {
            throw InputError(
                "\(directory): no <host>/apple-app-site-association or <host>/assetlinks.json in the directory"
            )
        }
        var sites: [String: LinkTestSites.Site] = [:]
        for name in names {
            let path = servedFile(directory: directory, host: name)
            var site =
                FileManager.default.fileExists(atPath: path)
                ? try linkTestSite(path) : LinkTestSites.Site(name: path, content: .absent(host: name))
            site.assetLinks = try assetLinks(SiteLayout.path(of: .assetLinks, host: name, in: directory))
            sites[name] = site
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

    /// A host's `assetlinks.json` as a link test sees it; `nil` when the
    /// host has none. One Android cannot read (not JSON) is unusable, not
    /// bad input: it is the thing under test.
    static func assetLinks(_ path: String) throws(InputError) -> LinkTestSites.Site.AssetLinks? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let bytes = try bytes(path, what: "assetlinks.json")
        guard let file = AssetLinksFile(bytes: bytes) else {
            return .unusable("\(path) is not JSON; Android verifies no App Link from it")
        }
        return .file(file, name: path)
    }

    /// Visible entries named like a host or a `*.` wildcard that hold at
    /// least one of `files`, sorted.
    private static func servedNames(directory: String, holding files: [SiteFile]) throws(InputError) -> [String] {
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw InputError("\(directory): cannot list the directory")
        }
        return entries.sorted().filter { name in
            let host = name.hasPrefix("*.") ? String(name.dropFirst(2)) : name
            return !name.hasPrefix(".") && HostName(name: host) != nil
                && files.contains {
                    FileManager.default.fileExists(atPath: SiteLayout.path(of: $0, host: name, in: directory))
                }
        }
    }
}
