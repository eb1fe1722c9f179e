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
        return site
    }

    /// A first load of `site` with this many threads and files per batch.
    static func load(_ site: TemporarySite, parallelism: Int, batchSize: Int) throws -> LoadOutcome {
        try SiteLoader(
            configuration: site.configuration(),
            fileSystem: PosixFileSystem(),
            parallelism: parallelism,
            batchSize: batchSize
        ).load(previous: .empty, force: true)
    }

    @Test func aParallelLoadEqualsASequentialOne() throws {
        let site = try Self.makeSite()
        let sequential = try SiteLoader(configuration: site.configuration(), parallelism: 1)
            .load(previous: .empty, force: true)
        let parallel = try SiteLoader(configuration: site.configuration(), parallelism: 4)
            .load(previous: .empty, force: true)

        let batched = try Self.load(site, parallelism: 3, batchSize: 7)
        #expect(batched.issues == sequential.issues)
        #expect(batched.warnings == sequential.warnings)
        // Batches large enough to go to the background threads while the
        // next one is read (at 7 a batch is validated in place).
        let overlapped = try Self.load(site, parallelism: 2, batchSize: 40)
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

        #expect(sequential.filesValidated == 160)
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

    /// The verdicts come back in the candidates' order, with more threads
    /// than chunks, a count that does not divide evenly, and one thread.
    @Test(arguments: [1, 2, 3, 16])
    func verdictsKeepTheCandidatesOrder(width: Int) {
        let validator = FileValidator(aasa: .init(), assetLinks: .init(), cacheControl: "max-age=60")
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
        let validation = ParallelValidation(validator: validator, width: width)
        let verdicts = validation.validate(candidates).map(summary)
        #expect(verdicts == candidates.map { summary(validator.validate($0)) })
        // Started in the background (the loader reads the next batch meanwhile).
        #expect(validation.start(candidates).wait().map(summary) == verdicts)
        #expect(verdicts[7] == "h7.example/apple-app-site-association [\"ABCDE12345.com.a.app7\"]")
    }
}
