import Testing

@testable import AASAServer

/// `aasa serve --strict` (`files.strict`): a deploy pipeline asks for any
/// invalid file to stop the start, rather than a server that starts
/// without serving it.
extension SiteReloaderTests {
    @Test func strictStartRefusesAnInvalidFile() async throws {
        let fixture = Fixture()
        fixture.fileSystem.write(Self.file, SampleFile.invalid)
        let error = await #expect(throws: StartupError.self) { try await fixture.reloader.initialLoad(strict: true) }
        #expect(error?.message.hasPrefix("--strict: 1 problem(s):") == true, "\(String(describing: error))")
        #expect(error?.message.contains("schema.type") == true, "\(String(describing: error))")
    }

    @Test func withoutStrictTheStartGoesOnWithoutTheInvalidFile() async throws {
        let fixture = Fixture()
        fixture.fileSystem.write(Self.file, SampleFile.invalid)
        try await fixture.reloader.initialLoad(strict: false)
        #expect(fixture.store.snapshot.sites.isEmpty)
    }
}
