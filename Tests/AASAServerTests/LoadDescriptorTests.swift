import Testing

@testable import AASAServer

/// What a load holds open: a few descriptors per loading thread, whatever
/// the number of hosts. A load that kept every host directory open from the
/// scan to its read needed one descriptor per host, and at 10,000 hosts
/// under the usual soft limit of 1,024 (256 on macOS) it served none.
@Suite("Descriptors a load holds")
struct LoadDescriptorTests {
    static let hostCount = 120
    static let threads = 2
    /// The root, and per thread a host directory, its file and a symlink's
    /// resolution in flight.
    static let bound = 1 + threads * 3

    @Test func aLoadOfManyHostDirectoriesHoldsAFewAtOnce() throws {
        let site = try TemporarySite()
        for index in 0..<Self.hostCount {
            try site.write(SampleFile.aasa(), host: "h\(index).brand.example")
        }
        try Self.expectAllServedHoldingAFew(site)
    }

    /// A Kubernetes ConfigMap volume: every host a symlink into `..data`.
    /// The scan resolves each link to tell an alias from a host's own
    /// directory, and must not keep what it resolved open either.
    @Test func aLoadOfManySymlinkedHostsHoldsAFewAtOnce() throws {
        let site = try TemporarySite()
        for index in 0..<Self.hostCount {
            let host = "h\(index).brand.example"
            try site.write(SampleFile.aasa(), host: "..data/\(host)")
            try site.symlink(host, to: "..data/\(host)")
        }
        try Self.expectAllServedHoldingAFew(site)
    }

    /// Loads `site` on two threads: every host served, no issue, and at most
    /// ``bound`` handles open at once.
    static func expectAllServedHoldingAFew(_ site: TemporarySite) throws {
        let fileSystem = CountingFileSystem()
        let outcome = try SiteLoader(
            configuration: site.configuration(),
            fileSystem: fileSystem,
            parallelism: threads
        ).load(previous: .empty, force: false)
        #expect(outcome.snapshot.sites.count == hostCount)
        #expect(outcome.issues.isEmpty)
        #expect(fileSystem.mostOpenAtOnce <= bound, "held \(fileSystem.mostOpenAtOnce) at once")
    }

    /// A host directory is opened by the job that reads it, after the scan
    /// looked at it: one that vanishes in between is treated as one gone
    /// before the scan (the same snapshot, the same issues).
    @Test func aHostDirectoryGoneBetweenTheScanAndItsReadIsMissing() throws {
        func staged(removeDuringLoad: Bool) throws -> LoadOutcome {
            let fileSystem = FakeFileSystem()
            fileSystem.write("a.example/apple-app-site-association", SampleFile.aasa())
            fileSystem.write("b.example/apple-app-site-association", SampleFile.aasa())
            let loader = LoaderSeamTests.loader(fileSystem)
            let first = try loader.load(previous: .empty, force: false)
            var removed = false
            if removeDuringLoad {
                fileSystem.onEvent { event in
                    guard event == .openDirectory("a.example"), !removed else { return }
                    removed = true
                    fileSystem.remove("a.example")
                }
            } else {
                fileSystem.remove("a.example")
            }
            let second = try loader.load(previous: first.snapshot, force: false)
            #expect(removed == removeDuringLoad)
            return second
        }
        let during = try staged(removeDuringLoad: true)
        let before = try staged(removeDuringLoad: false)
        #expect(Set(during.snapshot.sites.keys) == Set(before.snapshot.sites.keys))
        #expect(during.snapshot.sites["a.example"] != nil, "a vanished host keeps its grace of one load")
        #expect(during.issues.map(\.description) == before.issues.map(\.description))
        #expect(during.stillServedWhileMissing == before.stillServedWhileMissing)
    }
}
