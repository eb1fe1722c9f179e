import Dispatch
import Foundation
import Logging
import MetricsTestKit
import NIOConcurrencyHelpers
import Testing

@testable import AASAServer

/// The reloader: what counts as a reload, what it logs and measures, and
/// that reloads never overlap.
@Suite("Reloader")
struct SiteReloaderTests {
    static let file = LoaderSeamTests.file

    struct Fixture {
        let fileSystem = FakeFileSystem()
        let store = SiteStore()
        let metrics = TestMetrics()
        let logs = CapturedLogs()
        let reloader: SiteReloader

        init(gate: ReloadGate = ReloadGate()) {
            fileSystem.write(SiteReloaderTests.file, SampleFile.aasa())
            reloader = SiteReloader(
                store: store,
                loader: LoaderSeamTests.loader(fileSystem),
                pollInterval: nil,
                logger: logs.logger,
                metrics: metrics,
                gate: gate
            )
        }

        func reloads(_ result: String, _ trigger: ReloadTrigger) -> Int64 {
            metrics.counterTotal(
                label: "aasa_reloads_total",
                dimensions: [("result", result), ("trigger", trigger.rawValue)]
            )
        }

        var allReloads: Int64 { metrics.counterTotal(label: "aasa_reloads_total") }
    }

    @Test func aPollThatFindsNothingNewIsNotAReload() async throws {
        let fixture = Fixture()
        _ = try #require(await fixture.reloader.reload(.startup))
        #expect(fixture.reloads("ok", .startup) == 1)
        let lastReload = try #require(fixture.store.status.lastReload)
        _ = fixture.logs.take()

        for _ in 0..<3 { _ = try #require(await fixture.reloader.reload(.poll)) }
        #expect(fixture.allReloads == 1)
        #expect(fixture.store.status.lastReload == lastReload)
        #expect(fixture.logs.take().isEmpty)

        fixture.fileSystem.write(Self.file, SampleFile.aasa(app: "ABCDE12345.com.changed.app"))
        _ = try #require(await fixture.reloader.reload(.poll))
        #expect(fixture.reloads("ok", .poll) == 1)
        #expect(fixture.store.status.lastReload != lastReload)
        #expect(fixture.logs.take().map(\.message) == ["reloaded"])

        // SIGHUP is a reload even when nothing changed: the operator asked.
        _ = try #require(await fixture.reloader.reload(.signal))
        #expect(fixture.reloads("ok", .signal) == 1)
    }

    /// Issue 10, item 7: "problem cleared" was logged right after a file was
    /// rejected again for another reason.
    @Test func aFileRejectedAgainForAnotherReasonIsNotCleared() async throws {
        let fixture = Fixture()
        fixture.fileSystem.write(Self.file, SampleFile.invalid)
        _ = await fixture.reloader.reload(.startup)
        #expect(fixture.logs.take().map(\.message) == ["file rejected", "reloaded"])

        fixture.fileSystem.write(Self.file, "{")
        _ = await fixture.reloader.reload(.poll)
        let second = fixture.logs.take()
        #expect(second.map(\.message) == ["file rejected", "reloaded"])
        #expect(second.first?.metadata["reload.error"]?.contains("json.syntax") == true)

        // Unchanged and still rejected: nothing new, nothing logged.
        _ = await fixture.reloader.reload(.poll)
        #expect(fixture.logs.take().isEmpty)

        fixture.fileSystem.write(Self.file, SampleFile.aasa())
        _ = await fixture.reloader.reload(.poll)
        let fixed = fixture.logs.take()
        #expect(fixed.map(\.message) == ["problem cleared", "reloaded"])
        #expect(fixed.first?.metadata["aasa.path"] == Self.file)
    }

    @Test func aMissingFileIsLoggedOnceAndItsFateToo() async throws {
        let fixture = Fixture()
        _ = await fixture.reloader.reload(.startup)
        _ = fixture.logs.take()
        fixture.fileSystem.remove(Self.file)
        _ = await fixture.reloader.reload(.poll)
        #expect(
            fixture.logs.take().map(\.message) == [
                "missing; the last good version stays served until the next load finds it still missing", "reloaded",
            ]
        )
        _ = await fixture.reloader.reload(.poll)
        let dropped = fixture.logs.take().map(\.message)
        #expect(dropped.contains("removed: still missing at the next load"))
    }

    @Test func certificateExpiryIsAGaugePerHostAndGoesWithTheCertificate() async throws {
        let fixture = Fixture()
        let certificate = try DevCertificate(hosts: ["a.example"])
        fixture.fileSystem.write("a.example/tls/cert.pem", certificate.certificatePEM)
        fixture.fileSystem.write("a.example/tls/key.pem", certificate.keyPEM)
        let outcome = try #require(await fixture.reloader.reload(.startup))
        #expect(outcome.issues.isEmpty)
        let gauge = try fixture.metrics.expectGauge(
            "aasa_tls_certificate_expiry_timestamp_seconds",
            [("host", "a.example")]
        )
        let expected = try #require(outcome.snapshot.sites["a.example"]?.tls?.identity.notValidAfter)
        #expect(gauge.lastValue == expected.timeIntervalSince1970)

        fixture.fileSystem.remove("a.example/tls")
        _ = await fixture.reloader.reload(.signal)
        #expect(throws: (any Error).self) {
            try fixture.metrics.expectGauge(
                "aasa_tls_certificate_expiry_timestamp_seconds",
                [("host", "a.example")]
            )
        }
    }

    /// Two reloads asked for at once: the second waits for the first and
    /// starts from its snapshot, instead of both building generation 2.
    @Test(.timeLimit(.minutes(1))) func reloadsRunOneAtATime() async throws {
        let (queued, queue) = AsyncStream.makeStream(of: Int.self)
        let fixture = Fixture(gate: ReloadGate(onWait: { queue.yield($0) }))
        _ = await fixture.reloader.reload(.startup)
        fixture.fileSystem.write(Self.file, SampleFile.aasa(app: "ABCDE12345.com.changed.app"))

        // The first reload stops inside its load until the second is queued.
        let (inside, entered) = AsyncStream.makeStream(of: Void.self)
        let release = DispatchSemaphore(value: 0)
        let blocked = NIOLockedValueBox(false)
        fixture.fileSystem.onEvent { event in
            guard event == .openFile(Self.file), !blocked.withLockedValue({ $0 }) else { return }
            blocked.withLockedValue { $0 = true }
            entered.yield()
            _ = release.wait(timeout: .now() + 30)
        }
        async let first = fixture.reloader.reload(.signal)
        var insideIterator = inside.makeAsyncIterator()
        _ = await insideIterator.next()
        async let second = fixture.reloader.reload(.signal)
        var queuedIterator = queued.makeAsyncIterator()
        #expect(await queuedIterator.next() == 1)
        release.signal()

        let one = try #require(await first)
        let two = try #require(await second)
        #expect(one.snapshot.generation == 2)
        #expect(two.snapshot === one.snapshot)
        #expect(fixture.store.snapshot.generation == 2)
    }

    @Test(.timeLimit(.minutes(1))) func waitingForAGenerationEndsWhenTheTaskIsCancelled() async throws {
        let store = SiteStore()
        let waiter = Task { try await store.snapshot(after: 5) }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }

    @Test func anUnreadableDirectoryFailsTheStartAndLaterKeepsTheLastGoodState() async throws {
        let fixture = Fixture()
        fixture.fileSystem.setPermissions(nil, readable: false)
        let error = await #expect(throws: StartupError.self) { try await fixture.reloader.initialLoad(strict: false) }
        #expect(error?.message == "/srv/aasa: cannot read the served directory: Permission denied")

        fixture.fileSystem.setPermissions(nil, readable: true)
        _ = try #require(await fixture.reloader.reload(.poll))
        _ = fixture.logs.take()
        fixture.fileSystem.setPermissions(nil, readable: false)
        for _ in 0..<3 { #expect(await fixture.reloader.reload(.poll) == nil) }
        // What `/status` shows names no absolute path; the log line does, once.
        #expect(
            fixture.store.status.lastFailure
                == "cannot read the served directory: Permission denied; still serving the previous state"
        )
        let lines = fixture.logs.take()
        #expect(lines.map(\.message) == ["reload failed"])
        #expect(lines.first?.metadata["aasa.directory"] == "/srv/aasa")
        #expect(fixture.reloads("failed", .poll) == 3)
        #expect(fixture.store.snapshot.sites["a.example"] != nil)
    }
}
