import Foundation
import Testing

@testable import AASAServer

/// Validating a load's files on several threads gives the load a single
/// thread gives: the same files served, the same issues and warnings, in
/// the same order.
@Suite("Parallel validation")
struct ParallelValidationTests {
    /// No app associated: served, with a warning.
    static let emptyDetails = #"{"applinks":{"details":[]}}"#
    /// An exclusion behind a broader rule never applies: a lint error.
    static let shadowed = """
        {"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],
          "components":[{"/":"/*"},{"/":"/buy/*","exclude":true}]}]}}
        """

    /// 120 hosts: valid, served with a warning, invalid JSON, a lint
    /// error, invalid schema, and some with an assetlinks.json beside the AASA file.
    static func makeSite() throws -> TemporarySite {
        let site = try TemporarySite()
        for index in 0..<120 {
            let host = "h\(index).example"
            let contents =
                switch index % 5 {
                case 0: SampleFile.aasa(app: "ABCDE12345.com.example.a\(index)")
                case 1: emptyDetails
                case 2: "{\"applinks\": [\(index)"
                case 3: shadowed
                default: SampleFile.invalid
                }
            try site.write(contents, host: host)
            if index % 3 == 0 {
                try site.write(index % 2 == 0 ? SampleFile.assetLinks : "[{}]", host: host, file: "assetlinks.json")
            }
        }
        // What the scan of the root sorts out, spread among the hosts: a
        // second directory for a host (names are lowercased), a name that is
        // no host, aliases, a dangling link, a link to no host directory, a
        // host directory without a file, a file beside the hosts.
        for index in stride(from: 7, to: 120, by: 20) {
            try site.write(SampleFile.aasa(), host: "H\(index).EXAMPLE")
            try site.write(SampleFile.aasa(), host: "not a host \(index)")
            try site.symlink("alias\(index).example", to: "h\(index).example")
            try site.symlink("gone\(index).example", to: "nowhere\(index).example")
            try site.symlink("up\(index).example", to: "h\(index).example/apple-app-site-association")
            try site.write(SampleFile.aasa(), host: "empty\(index).example", file: "README")
        }
        try site.write(Data("notes".utf8), host: ".", file: "README.md")
        return site
    }

    /// A first load of `site` with this many threads.
    static func load(_ site: TemporarySite, parallelism: Int) throws -> LoadOutcome {
        try SiteLoader(
            configuration: site.configuration(),
            fileSystem: PosixFileSystem(),
            parallelism: parallelism
        ).load(previous: .empty, force: true)
    }

    @Test func aParallelLoadEqualsASequentialOne() throws {
        let site = try Self.makeSite()
        let sequential = try SiteLoader(configuration: site.configuration(), parallelism: 1)
            .load(previous: .empty, force: true)
        let parallel = try SiteLoader(configuration: site.configuration(), parallelism: 4)
            .load(previous: .empty, force: true)

        let threes = try Self.load(site, parallelism: 3)
        #expect(threes.issues == sequential.issues)
        #expect(threes.warnings == sequential.warnings)
        // The server's own width on this kind of machine: two threads.
        let overlapped = try Self.load(site, parallelism: 2)
        #expect(overlapped.issues == sequential.issues)
        #expect(overlapped.warnings == sequential.warnings)
        #expect(overlapped.filesValidated == sequential.filesValidated)
        for index in 0..<120 {
            let name = "h\(index).example"
            let one = sequential.snapshot.sites[name]
            let other = overlapped.snapshot.sites[name]
            #expect(one?.appleAppSiteAssociation?.etag == other?.appleAppSiteAssociation?.etag, "\(name)")
            #expect(one?.assetLinks?.etag == other?.assetLinks?.etag, "\(name)")
        }

        // The six uppercase twins sort first, so they are served and their
        // lowercase namesakes (two of them with an assetlinks.json) are not.
        #expect(sequential.filesValidated == 158)
        #expect(parallel.snapshot.sites.keys.sorted() == sequential.snapshot.sites.keys.sorted())
        #expect(parallel.snapshot.sites["alias27.example"] === parallel.snapshot.sites["h27.example"])
        #expect(sequential.issues.contains { $0.path == #"not\x20a\x20host\x2047"# })
        #expect(sequential.issues.contains { $0.code == .noServedFile && $0.host == "empty67.example" })
        #expect(parallel.filesValidated == sequential.filesValidated)
        try #require(sequential.issues.count > 70)
        try #require(sequential.warnings.count >= 24)
        #expect(parallel.issues == sequential.issues)
        #expect(parallel.warnings == sequential.warnings)
        for index in 0..<120 {
            let name = "h\(index).example"
            let one = sequential.snapshot.sites[name]
            let other = parallel.snapshot.sites[name]
            #expect((one == nil) == (other == nil), "\(name)")
            #expect(one?.appleAppSiteAssociation?.etag == other?.appleAppSiteAssociation?.etag, "\(name)")
            #expect(one?.assetLinks?.etag == other?.assetLinks?.etag, "\(name)")
            #expect(one?.appleAppSiteAssociation?.appIDs == other?.appleAppSiteAssociation?.appIDs, "\(name)")
        }
    }

    /// The results come back in the jobs' order, with more threads than
    /// chunks, a count that does not divide evenly, one thread, and more
    /// jobs than the largest chunk.
    @Test(arguments: [1, 2, 3, 16])
    func resultsKeepTheJobsOrder(width: Int) {
        let validator = FileValidator(aasa: .init(), assetLinks: .init(), cacheControl: "max-age=60")
        let gzip = GzipPool()
        let candidates = (0..<101).map { index in
            let contents = index % 5 == 4 ? SampleFile.invalid : SampleFile.aasa(app: "ABCDE12345.com.a.app\(index)")
            return FileValidator.Candidate(
                kind: .appleAppSiteAssociation,
                host: "h\(index).example",
                path: "h\(index).example/apple-app-site-association",
                contents: .complete(Array(contents.utf8)),
                stamp: FileStamp(
                    device: 1,
                    inode: UInt64(index),
                    size: 0,
                    modifiedNanoseconds: 0,
                    changedNanoseconds: 0
                ),
                hasPrevious: false
            )
        }
        func summary(_ verdict: FileValidator.Verdict) -> String {
            switch verdict {
            case .accepted(let file, _): "\(file.path) \(file.appIDs)"
            case .rejected(let issues): issues.map(\.description).joined()
            }
        }
        let parallel = ParallelHosts(width: width)
        var verdicts: [String] = []
        let validate = { (index: Int) in summary(validator.validate(candidates[index], gzip: gzip)) }
        parallel.forEach(count: candidates.count, validate) { index, verdict in
            #expect(index == verdicts.count)
            verdicts.append(verdict)
        }
        #expect(verdicts == candidates.map { summary(validator.validate($0, gzip: gzip)) })
        #expect(verdicts[7] == "h7.example/apple-app-site-association [\"ABCDE12345.com.a.app7\"]")
        var many: [Int] = []
        let double = { (index: Int) in index * 2 }
        parallel.forEach(count: 5_000, double) { _, result in many.append(result) }
        #expect(many == (0..<5_000).map { $0 * 2 })
    }
}
