import Foundation
import Testing

@testable import AASAServer

/// What a load holds per file while it runs: a candidate keeps its bytes
/// until every file is validated, so those bytes must cost the file's size.
@Suite("Load memory")
struct LoadMemoryTests {
    /// A 2 KB file read under the 128 KiB cap costs about 2 KB, not the cap
    /// (10,000 hosts held 1.3 GB at once before).
    @Test func aReadKeepsTheFilesSizeNotTheCap() throws {
        let site = try TemporarySite()
        let body = SampleFile.aasa(path: "/" + String(repeating: "a", count: 2_000))
        try site.write(body, host: "a.example")
        let file = try PosixFileSystem().openFile(atPath: site.path + "/a.example/apple-app-site-association")
        let version = try FileReader(limit: 131_072).read(file)
        guard case .complete(let bytes) = version.contents else {
            Issue.record("not read whole: \(version.contents)")
            return
        }
        #expect(bytes == Array(body.utf8))
        #expect(bytes.capacity < 2 * body.utf8.count)
    }
}
