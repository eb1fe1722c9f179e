/// What a run will test, worked out before anything is matched: each
/// entry's parsed URL, the entries skipped for another host and the
/// warnings about them and about the hosts, and the apps checked against
/// the files. The warnings about the list's own entries (duplicates, `http`
/// URLs) are the runner's, made beside the records
/// (``appendListWarnings(_:to:)``).
struct LinkTestPlan {
    struct Item: Sendable {
        var entry: LinkExpectations.Entry
        /// The parsed URL; `nil` when it does not parse (``error`` says why).
        ///
        /// Not kept as a `Result`: binding the URL of a `Result` read in
        /// place copies it through the generic `Result` witness (a retain
        /// and a release of each of its strings), several times per URL;
        /// an optional's field is read where it lies.
        let parsed: AASAURL?
        /// Whether the URL parsed and is `http`, made with the URL: the
        /// plan's warnings read this flag, where reading the scheme through
        /// the optional URL in place copied the URL (a retain and a release
        /// of each of its strings).
        let isHTTP: Bool
        /// Whether the URL parsed with the host of the URL parsed before it
        /// in the same chunk of the parse (`lastHost`): the plan's host loop
        /// decides for it what it decided for that URL, where it read (and
        /// copied) every item's host. `false` is always safe.
        let hostRepeats: Bool
        /// The URL's hash when it parsed (``urlHash``), its low 32 bits:
        /// in the padding after the flags, where an `Int` made the item 8
        /// bytes longer (a list's 100,000 items are fresh pages).
        private let hash: UInt32
        /// Why the URL does not parse, boxed: rare, and held inline it made
        /// each of a list's 100,000 items 16 bytes longer.
        private let failure: Failure?

        /// Why the URL does not parse; `nil` when it does.
        var error: AASAURLError? { failure?.error }

        /// The parsed URL's hash (``DuplicateEntries/hash(of:hostHash:)``, of its
        /// bytes, as ``AASAURL``'s `==` compares them); `nil` when it does not
        /// parse. Made with the URL, which is at hand there: hashing it
        /// later, read through the items, copied it twice (a retain and a
        /// release of each of its strings) in a pass of its own.
        var urlHash: Int? { failure == nil ? Int(hash) : nil }

        final class Failure: Sendable {
            let error: AASAURLError

            init(_ error: AASAURLError) {
                self.error = error
            }
        }

        init(entry: LinkExpectations.Entry, url: Result<AASAURL, AASAURLError>, lastHost: inout LastHost) {
            self.entry = entry
            // Consumed: a switch over the parameter copied the URL out of
            // it (a retain of each of its strings) and then released both.
            switch consume url {
            case .success(let url):
                isHTTP = url.schemeKind == .http
                // Usually the very string before (the parser shares it),
                // so `==` ends at its identity check; stored (and its
                // hash made) only when it changes.
                hostRepeats = url.host == lastHost.host
                if !hostRepeats { lastHost = LastHost(url.host) }
                hash = UInt32(truncatingIfNeeded: DuplicateEntries.hash(of: url, hostHash: lastHost.hash))
                (parsed, failure) = (url, nil)
            case .failure(let error):
                (parsed, failure, hash, isHTTP, hostRepeats) = (nil, Failure(error), 0, false, false)
            }
        }

        /// The URL or why it does not parse (exactly one of the two is set).
        var url: Result<AASAURL, AASAURLError> {
            parsed.map { .success($0) } ?? .failure(error!)
        }

        /// The URL's host; `nil` when the URL does not parse.
        var host: String? { parsed?.host }
    }

    var items: [Item] = []
    var skipped: [LinkExpectations.Entry] = []
    /// The warnings about skipped hosts and about one file serving many.
    var warnings: [Diagnostic] = []
    /// The usable files serving the hosts of the tested URLs.
    var files: [(name: String, file: AASAFile)] = []

    init(_ expectations: LinkExpectations, sites: LinkTestSites, domain: String?) throws(LinkTestSetupError) {
        guard !expectations.entries.isEmpty else { throw .emptyList }
        var skippedByHost: [(host: String, entries: [LinkExpectations.Entry])] = []
        var filesBySite: [String: (name: String, file: AASAFile)] = [:]
        var hosts: [String] = []
        var hostSet: Set<String> = []
        // The group of the skipped host of the URL parsed before, for the
        // URLs of the same host after it (`hostRepeats`): a list's URLs are
        // mostly of one host, which is looked at once per run of them.
        var lastGroup: Int?
        // Parsed straight into the items: a separate array of URLs, then
        // each item copied beside it, faulted in twice the pages.
        let parsed = Self.parseItems(expectations.entries)
        var skippedIndices: [Int] = []
        parsed.withUnsafeBufferPointer { parsed in
            for index in parsed.indices {
                if parsed[index].hostRepeats {
                    if let group = lastGroup {
                        skippedByHost[group].entries.append(parsed[index].entry)
                        skippedIndices.append(index)
                    }
                    continue
                }
                guard let host = parsed[index].host else { continue }
                let newHost = hostSet.insert(host).inserted
                lastGroup = nil
                if newHost { hosts.append(host) }
                if let domain, host != domain {
                    let entry = parsed[index].entry
                    if let group = skippedByHost.firstIndex(where: { $0.host == host }) {
                        skippedByHost[group].entries.append(entry)
                        lastGroup = group
                    } else {
                        lastGroup = skippedByHost.count
                        skippedByHost.append((host, [entry]))
                    }
                    skippedIndices.append(index)
                    continue
                }
                if newHost, let (key, site) = sites.site(for: host), let file = site.file {
                    filesBySite[key] = (site.name, file)
                }
            }
        }
        if skippedIndices.isEmpty {
            items = parsed
        } else {
            // `--domain` set aside URLs of other hosts (rare: copied).
            let skippedSet = Set(skippedIndices)
            items = parsed.indices.filter { !skippedSet.contains($0) }.map { parsed[$0] }
        }
        if let domain, items.isEmpty {
            throw .nothingToTest(domain: domain, hostsInList: hosts)
        }
        files = filesBySite.keys.sorted().compactMap { filesBySite[$0] }
        skipped = skippedByHost.flatMap(\.entries)
        warnings += skippedByHost.map { host, entries in
            Self.otherHostWarning(host: host, entries: entries, domain: domain ?? "")
        }
        if sites.servesEveryHost, hosts.count > 1, let first = expectations.entries.first {
            warnings.append(
                Diagnostic(
                    .warning,
                    code: "links.one-file-many-hosts",
                    path: .root,
                    message:
                        "the list has URLs of \(hosts.count) hosts (\(hosts.joined(separator: ", "))), all tested against one file; each host serves its own file, so test a directory of them instead",
                    file: first.file
                )
            )
        }
    }

    /// Each entry with its URL parsed from its bytes, across the cores for
    /// a long list: ``AASAURL/parse(_:parallel:)`` of the strings without
    /// making them, each chunk's URLs sharing the string of a host they
    /// repeat.
    static func parseItems(_ entries: [LinkExpectations.Entry]) -> [Item] {
        let parse: @Sendable (Int, inout ParseState) -> Item = { index, state in
            // One copy of the entry, read in place and then moved into its
            // item: reading the URL through the array (or through the copy,
            // `WrittenURL.withUTF8`) and copying the entry for the item
            // retained and released the links file's bytes, which every
            // entry shares, three times per URL (a reference count both
            // cores kept taking from each other). The error's text is read
            // through a pointer: a closure that captured the array or the
            // copy retained it per URL.
            entries.withUnsafeBufferPointer { entries in
                let address = entries.baseAddress! + index
                let entry = address.pointee
                let url = Self.parseURL(entry.written, original: { address.pointee.url }, host: &state.host)
                return Item(entry: entry, url: url, lastHost: &state.lastHost)
            }
        }
        // `map` writes the items in place (100,000 items are 12 MB, never
        // copied).
        return ParallelBatch.map(count: entries.count, parallel: true, state: ParseState.init, parse)
    }

    /// The URL of `written`, read where it lies: a borrowed enum's payload
    /// is bound without a retain. Not inlined: inlined into the parse's
    /// closure, the payload was retained again. A common URL of the file's
    /// bytes keeps its tail there, retaining the entry's own source (one
    /// of a few hundred entries, so the cores rarely share one).
    @inline(never)
    private static func parseURL(
        _ written: borrowing WrittenURL,
        original: () -> String,
        host: inout String?
    ) -> Result<AASAURL, AASAURLError> {
        switch written {
        case .string(let text):
            text.withLentUTF8 { utf8 in
                Result { () throws(AASAURLError) in try URLByteParser.parse(utf8, original: original, host: &host) }
            }
        case .bytes(let source, let start, let count):
            source.bytes.withUnsafeBufferPointer { bytes in
                let utf8 = UnsafeBufferPointer(rebasing: bytes[Int(start)..<Int(start) + Int(count)])
                let file = URLByteParser.FileSpan(source: source, start: start)
                return Result { () throws(AASAURLError) in
                    try URLByteParser.parse(utf8, original: original, host: &host, in: file)
                }
            }
        }
    }

    /// What a chunk of the parse carries from one URL to the next.
    struct ParseState {
        /// The parser's: the host string a chunk's URLs share.
        var host: String?
        /// The host of the last URL parsed (``Item/hostRepeats``).
        var lastHost = LastHost()
    }

    /// The host of the last URL parsed and its hash, which the URLs of the
    /// same host after it hash from (``DuplicateEntries/hash(of:hostHash:)``):
    /// hashing the host's bytes again for each URL was a third of the hash.
    struct LastHost {
        private(set) var host: String?
        private(set) var hash: UInt64 = 0

        init() {}

        init(_ host: String) {
            self.host = host
            hash = DuplicateEntries.hostHash(host)
        }
    }

    private static func otherHostWarning(
        host: String,
        entries: [LinkExpectations.Entry],
        domain: String
    ) -> Diagnostic {
        let count = entries.count == 1 ? "1 URL" : "\(entries.count) URLs"
        let first = entries[0]
        return Diagnostic(
            .warning,
            code: "links.other-host",
            path: first.path,
            message: "\(count) for \(host) skipped (first: \(first.url)): the run is restricted to \(domain)",
            file: first.file
        )
    }
}
