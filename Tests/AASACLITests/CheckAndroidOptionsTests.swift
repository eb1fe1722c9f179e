import AASAKit
import Testing

@testable import AASAChecks
@testable import aasa

/// `aasa check`'s Android options and `validate`'s include handling: the
/// command layer. The checks themselves are tested against local servers in
/// AASAChecksTests.
@Suite("aasa check: Android options")
struct CheckAndroidOptionsTests {
    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    static let unreachable = ["example.com", "--base-url", "http://127.0.0.1:1", "--timeout", "5"]

    private func check(_ arguments: [String]) async throws -> (RecordedOutput, Int32) {
        let command = try CheckCommand.parse(Self.unreachable + arguments)
        return try await runCapturingAsync { try await command.run(output: $0) }
    }

    /// A fingerprint pasted in lowercase is read in Google's spelling, said
    /// so, and then matches the uppercase file.
    @Test func lowercaseFingerprintIsNormalisedAndMatchesTheFile() async throws {
        let lowercase = Self.fingerprint.lowercased()
        let command = try CheckCommand.parse(
            Self.unreachable + ["--package", "com.example.app", "--fingerprint", lowercase]
        )
        let (expectations, notes) = try command.android.expectations()
        #expect(expectations.fingerprints == [Self.fingerprint])
        #expect(expectations.presence == .required)
        #expect(
            notes == [
                "note: --fingerprint \(lowercase) read as \(Self.fingerprint), the uppercase spelling assetlinks.json must use"
            ]
        )
        let delegation = AndroidDelegation(
            relation: "handle_all_urls",
            packageName: "com.example.app",
            fingerprints: [Self.fingerprint],
            source: "https://example.com/.well-known/assetlinks.json"
        )
        #expect(DelegationCheck(expectations: expectations).check([delegation]).status == .pass)

        let (output, code) = try await check(["--fingerprint", lowercase])
        #expect(code == 1)
        #expect(output.error == notes)
        #expect(output.outText.contains("  FAIL  android.http       could not fetch /.well-known/assetlinks.json"))
    }

    @Test(arguments: [
        (["--fingerprint", "14:6D:E9"], "error: --fingerprint 14:6D:E9: not a SHA-256 fingerprint"),
        (["--package", "app"], "error: --package app: not an Android package name"),
        (["--no-assetlinks", "--package", "com.example.app"], "error: --no-assetlinks skips the Android checks"),
    ])
    func badAndroidOptionsAreUsageErrors(arguments: [String], message: String) async throws {
        let (output, code) = try await check(arguments)
        #expect(code == 2)
        #expect(output.error.first?.hasPrefix(message) == true)
    }

    /// The repository has an assetlinks.json for example.com, so the file is
    /// required there; www.example.com has none, so it is optional there.
    /// The origin does not answer: both fail (no answer proves nothing),
    /// and only the optional one offers --no-assetlinks.
    @Test func fromDirRequiresTheFilesTheDirectoryHolds() async throws {
        let aasa = #"{"applinks":{"details":[]}}"#
        let scratch = try ScratchDirectory([
            "aasa/example.com/apple-app-site-association": aasa,
            "aasa/example.com/assetlinks.json": ValidateCommandTests.assetLinks,
            "aasa/www.example.com/apple-app-site-association": aasa,
        ])
        let command = try CheckCommand.parse([
            "--from-dir", scratch.at("aasa"), "--base-url", "http://127.0.0.1:1", "--format", "json", "--timeout", "5",
        ])
        let (output, _) = try await runCapturingAsync { try await command.run(output: $0) }
        let hosts = try JSONParser().parse(output.outText).value["hosts"]?.arrayValue ?? []
        let results = hosts.map { host in
            host["checks"]?.arrayValue?.first { $0["id"]?.stringValue == "android.http" }
        }
        #expect(results.map { $0?["status"]?.stringValue } == ["fail", "fail"])
        #expect(results.map { $0?["message"]?.stringValue?.contains("--no-assetlinks") } == [false, true])
    }

    /// Without Android options the file is optional (a missing one warns,
    /// AssetLinksHostCheckTests); a host that does not answer still fails,
    /// since that proves nothing; with --no-assetlinks it is not asked for.
    @Test func optionalByDefaultAndIsSkippedOnRequest() async throws {
        #expect(try CheckCommand.parse(Self.unreachable).android.expectations().0.presence == .optional)
        let (failed, _) = try await check(["--format", "json"])
        let json = try JSONParser().parse(failed.outText).value
        let checks = json["hosts"]?.arrayValue?.first?["checks"]?.arrayValue ?? []
        let http = checks.first { $0["id"]?.stringValue == "android.http" }
        #expect(http?["status"]?.stringValue == "fail")
        #expect(http?["message"]?.stringValue?.contains("--no-assetlinks") == true)
        let (skipped, _) = try await check(["--no-assetlinks"])
        #expect(!skipped.outText.contains("android."))
    }
}
