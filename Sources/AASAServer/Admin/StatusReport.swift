import AASAKit
import Foundation

/// `/status`: every host with its apps, file sizes, ETags, the last reload
/// and the last error, as JSON. Paths are shown relative to the served
/// directory (see ``PathRedactor``). `descriptors` gives the open-file
/// limit and the connection caps in force (see ``DescriptorPlan``).
struct StatusReport {
    let store: SiteStore
    let redactor: PathRedactor
    let descriptors: DescriptorPlan?

    var json: JSONValue {
        let status = store.status
        let snapshot = store.snapshot
        var hosts: [JSONValue] = []
        // Served hosts, and hosts whose only file was rejected.
        let names = Set(snapshot.sites.keys).union(status.issues.compactMap(\.host))
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
            entry["issues"] = .array(status.issues.filter { $0.host == name }.map { .string(redact($0.description)) })
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
        root["issues"] = .array(status.issues.filter { $0.host == nil }.map { .string(redact($0.description)) })
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
