import AASAKit
import Foundation

/// `/status`: every host with its apps, file sizes, ETags, the last reload
/// and the last error, as JSON. Paths are shown relative to the served
/// directory (see ``PathRedactor``). `descriptors` gives the open-file
/// limit and the connection caps in force (see ``DescriptorPlan``).
///
/// Built from one snapshot and the status read beside it, so the report is
/// the state of one moment; ``StatusCache`` keeps it until either changes.
/// The work is linear in hosts plus issues: the issues are grouped by host
/// once, not filtered once per host (10,000 rejected hosts made that a
/// hundred million comparisons).
struct StatusReport {
    let snapshot: SiteSnapshot
    let status: SiteStore.Status
    let redactor: PathRedactor
    let descriptors: DescriptorPlan?
    /// The host an issue belongs to; a seam through which tests count how
    /// often the report looks at an issue.
    var hostOf: (LoadIssue) -> String? = { $0.host }

    /// The report as `/status` sends it: pretty JSON and a newline.
    var body: [UInt8] {
        Array((json.serialized(pretty: true) + "\n").utf8)
    }

    var json: JSONValue {
        var byHost: [String: [LoadIssue]] = [:]
        var unattached: [LoadIssue] = []
        for issue in status.issues {
            if let host = hostOf(issue) {
                byHost[host, default: []].append(issue)
            } else {
                unattached.append(issue)
            }
        }
        var hosts: [JSONValue] = []
        // Served hosts, and hosts whose only file was rejected.
        let names = Set(snapshot.sites.keys).union(byHost.keys)
        for name in names.sorted() {
            let host = snapshot.sites[name]
            var entry = JSONObject()
            entry["host"] = .string(name)
            entry["served"] = .bool(host != nil)
            entry["aliasOf"] = host.map { $0.name == name ? .null : .string($0.name) } ?? .null
            var files = JSONObject()
            for kind in SiteFile.allCases {
                if let file = host?.file(kind) { files[kind.rawValue] = describe(file) }
            }
            entry["files"] = .object(files)
            entry["issues"] = .array((byHost[name] ?? []).map { .string(redact($0.description)) })
            entry["lastError"] = status.lastErrors[name].map(describe) ?? .null
            hosts.append(.object(entry))
        }
        var root = JSONObject()
        root["ready"] = .bool(status.isReady)
        root["generation"] = .number(Double(snapshot.generation))
        root["lastReload"] = status.lastReload.map { .string($0.formatted(.iso8601)) } ?? .null
        root["lastReloadSeconds"] =
            status.lastReloadDuration.map {
                .number(Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18)
            }
            ?? .null
        root["lastFailure"] = status.lastFailure.map { .string(redact($0)) } ?? .null
        root["hosts"] = .array(hosts)
        root["issues"] = .array(unattached.map { .string(redact($0.description)) })
        root["descriptors"] = descriptors?.json ?? .null
        return .object(root)
    }

    private func redact(_ text: String) -> String {
        redactor.redact(text)
    }

    private func describe(_ file: ServedFile) -> JSONValue {
        var object = JSONObject()
        object["path"] = .string(redact(file.path))
        object["size"] = .number(Double(file.size))
        object["gzipSize"] = file.gzipSize.map { .number(Double($0)) } ?? .null
        object["etag"] = .string(file.etag)
        object["lastModified"] = .string(HTTPDate.format(file.lastModified))
        object["apps"] = .array(file.appIDs.map(JSONValue.string))
        object["warnings"] = .array(file.warnings.map(JSONValue.string))
        return .object(object)
    }

    private func describe(_ error: SiteStore.LastError) -> JSONValue {
        ["message": .string(redact(error.message)), "at": .string(error.at.formatted(.iso8601))]
    }
}
