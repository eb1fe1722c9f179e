import AASAKit

extension LinkTestOutput {
    /// One `::error` per failure, on the line of the links file that holds
    /// the URL; one `::warning` per warning (`::error` when strict); then
    /// the summary line.
    ///
    /// The results are made whole once, and each links file is searched
    /// once for all the URLs named (``LinksFileLines``): a CI run over
    /// 100,000 URLs with thousands of findings used to search the whole
    /// list and the whole file per finding.
    func github() -> String {
        let results = report.results
        let failures = results.filter { !$0.passed }
        // A warning names the entry by file and JSON path; its URL is the
        // first result's with both.
        var warned = Set<EntryKey>()
        for warning in report.warnings { warned.insert(EntryKey(file: warning.file, path: warning.path)) }
        var urlsOfWarned: [EntryKey: String] = [:]
        if !warned.isEmpty {
            for result in results {
                let key = EntryKey(file: result.entry.file, path: result.entry.path)
                if warned.contains(key), urlsOfWarned[key] == nil { urlsOfWarned[key] = result.entry.url }
            }
        }
        let lines = fileLines(
            failures.map { ($0.entry.file, $0.entry.url) }
                + urlsOfWarned.map { ($0.key.file, $0.value) }
        )
        var output: [String] = []
        for result in failures {
            let title = "\(result.failure?.title ?? "failed"): \(result.entry.url)"
            let properties = Self.annotationProperties(
                file: result.entry.file,
                url: result.entry.url,
                title: title,
                lines: lines
            )
            output.append("::error \(properties)::\(Self.escapeData(result.summary))")
        }
        let command = strict ? "error" : "warning"
        for warning in report.warnings {
            let url = urlsOfWarned[EntryKey(file: warning.file, path: warning.path)]
            let properties = Self.annotationProperties(
                file: warning.file,
                url: url,
                title: warning.code,
                lines: lines
            )
            output.append("::\(command) \(properties)::\(Self.escapeData(warning.message))")
        }
        output.append(summaryLine)
        return output.joined(separator: "\n")
    }

    /// An entry as warnings name it.
    private struct EntryKey: Hashable {
        var file: String?
        var path: JSONPath
    }

    /// The line index of each links file, for the URLs annotated in it.
    private func fileLines(_ annotated: [(file: String?, url: String)]) -> [String: LinksFileLines] {
        var urlsByFile: [String: Set<String>] = [:]
        for (file, url) in annotated {
            guard let file, linksTexts[file] != nil else { continue }
            urlsByFile[file, default: []].insert(url)
        }
        var lines: [String: LinksFileLines] = [:]
        for (file, urls) in urlsByFile {
            lines[file] = LinksFileLines(text: linksTexts[file] ?? [], urls: urls)
        }
        return lines
    }

    private static func annotationProperties(
        file: String?,
        url: String?,
        title: String,
        lines: [String: LinksFileLines]
    ) -> String {
        var properties: [String] = []
        if let file {
            properties.append("file=\(escapeProperty(file))")
            if let url, let line = lines[file]?.line(of: url) { properties.append("line=\(line)") }
        }
        properties.append("title=\(escapeProperty(title))")
        return properties.joined(separator: ",")
    }
}
