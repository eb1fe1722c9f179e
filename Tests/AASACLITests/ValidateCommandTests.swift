import AASAKit
import ArgumentParser
import Foundation
import Testing

@testable import aasa

/// A temporary directory holding the given files, removed on deinit.
final class ScratchDirectory {
    let path: String

    /// - Parameter files: relative path → contents.
    init(_ files: [String: String]) throws {
        path = NSTemporaryDirectory() + "aasa-cli-tests-" + UUID().uuidString
        for (relative, contents) in files {
            let url = URL(fileURLWithPath: path).appendingPathComponent(relative)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try Data(contents.utf8).write(to: url)
        }
    }

    func at(_ relative: String) -> String { path + "/" + relative }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Runs a parsed command's `run(output:)` and returns what it printed and
/// the exit code it threw (0 when it returned normally).
func runCapturing(_ body: (CommandOutput) throws -> Void) throws -> (RecordedOutput, Int32) {
    let (output, record) = CommandOutput.recording()
    do {
        try body(output)
        return (record, 0)
    } catch let exit as ExitCode {
        return (record, exit.rawValue)
    }
}

@Suite("aasa validate")
struct ValidateCommandTests {
    static let valid = #"""
        {"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/buy/*"}]}]},
         "webcredentials":{"apps":["ABCDE12345.com.example.app"]}}
        """#

    /// A typo'd key, a wrong type in components[2], and an unknown service.
    static let broken = #"""
        {"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[
          {"/":"/buy/*"},{"/":"/sell/*","casesensitive":false},{"/":"/admin/*","exclude":"yes"}]}]},
         "webcredential":{"apps":[]}}
        """#

    static let assetLinks = #"""
        [{"relation":["delegate_permission/common.handle_all_urls","delegate_permission/common.get_login_creds"],
          "target":{"namespace":"android_app","package_name":"com.example.app",
          "sha256_cert_fingerprints":["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}}]
        """#

    func validate(_ arguments: [String]) throws -> (RecordedOutput, Int32) {
        let command = try ValidateCommand.parse(arguments)
        return try runCapturing { try command.run(output: $0) }
    }

    @Test func wellFormedFilesPass() throws {
        let scratch = try ScratchDirectory([
            "aasa/example.com/apple-app-site-association": Self.valid,
            "aasa/example.com/assetlinks.json": Self.assetLinks,
            "aasa/.well-known/apple-app-site-association": Self.valid,
            "aasa/example.com/notes.txt": "ignored",
        ])
        let (output, code) = try validate([scratch.at("aasa")])
        #expect(code == 0)
        #expect(output.out == ["3 files, 0 errors, 0 warnings"])
        #expect(output.error.isEmpty)
    }

    @Test func brokenFileFailsWithLinesColumnsAndPaths() throws {
        let scratch = try ScratchDirectory(["aasa/example.com/apple-app-site-association": Self.broken])
        let (output, code) = try validate([scratch.at("aasa")])
        #expect(code == 1)
        let file = scratch.at("aasa/example.com/apple-app-site-association")
        #expect(
            output.out.contains(
                "\(file):2:82: error: applinks.details[0].components[2].exclude: expected boolean, got string [schema.type]"
            )
        )
        #expect(
            output.out.contains {
                $0.hasPrefix(
                    "\(file):2:49: error: applinks.details[0].components[1].casesensitive: unknown key \"casesensitive\""
                )
            }
        )
        #expect(output.out.contains { $0.hasPrefix("\(file):3:18: warning: webcredential: unknown top-level key") })
        #expect(output.out.last == "1 file, 2 errors, 2 warnings")
    }

    @Test(arguments: [
        ("[1,2]", ":1:1: error: (root): expected object, got array", "schema.type"),
        (#"{"applinks": {"details": [}"#, ":1:27: error: (root): invalid JSON at line 1, column 27", "json.syntax"),
        (
            #"{"applinks":{"details":[{"appIDs":"ABCDE12345.com.a"}]}}"#,
            ":1:35: error: applinks.details[0].appIDs: expected array, got string", "schema.type"
        ),
    ])
    func rejectedFiles(_ contents: String, _ expected: String, _ code: String) throws {
        let scratch = try ScratchDirectory(["apple-app-site-association": contents])
        let file = scratch.at("apple-app-site-association")
        let (output, exit) = try validate([file])
        #expect(exit == 1)
        let line = try #require(output.out.first)
        #expect(line.hasPrefix("\(file)\(expected)"), "\(line)")
        #expect(line.hasSuffix("[\(code)]"))
    }

    @Test func twoHundredKilobyteFileIsRejected() throws {
        let big = #"{"applinks":{"details":[]},"padding":""# + String(repeating: "x", count: 200 * 1024) + #""}"#
        let scratch = try ScratchDirectory(["big/apple-app-site-association": big])
        let (output, code) = try validate([scratch.path, "--format", "text"])
        #expect(code == 1)
        let line = try #require(output.out.first)
        #expect(line.hasPrefix("\(scratch.at("big/apple-app-site-association")): (root): error: the file is 204,8"))
        #expect(line.hasSuffix("[file.too-large]"))
    }

    @Test func jsonFormatHasTheDocumentedShape() throws {
        let scratch = try ScratchDirectory([
            "a/apple-app-site-association": Self.broken, "b/assetlinks.json": Self.assetLinks,
        ])
        let (output, code) = try validate([scratch.path, "--format", "json"])
        #expect(code == 1)
        let json = try JSONParser().parse(output.outText).value
        #expect(json.objectValue?.keys == ["files", "errors", "strict", "succeeded", "exitCode"])
        let files = try #require(json["files"]?.arrayValue)
        #expect(
            files.map { $0["path"] } == [
                .string(scratch.at("a/apple-app-site-association")), .string(scratch.at("b/assetlinks.json")),
            ]
        )
        #expect(files.allSatisfy { $0.objectValue?.keys == ["path", "diagnostics"] })
        let first = try #require(files[0]["diagnostics"]?.arrayValue?.first)
        #expect(first.objectValue?.keys == ["severity", "code", "path", "message", "line", "column"])
        #expect(first["line"] == 2)
        #expect(first["column"] == 49)
        #expect(first["path"] == "applinks.details[0].components[1].casesensitive")
        #expect(files[1]["diagnostics"] == [])
    }

    @Test func unreadablePathExitsTwoButStillReportsTheOthers() throws {
        let scratch = try ScratchDirectory(["x/apple-app-site-association": Self.broken])
        let (output, code) = try validate([scratch.at("missing"), scratch.path])
        #expect(code == 2)
        #expect(output.error == ["error: \(scratch.at("missing")): no such file or directory"])
        #expect(output.out.last == "1 file, 2 errors, 2 warnings; 1 path could not be read")
    }

    @Test func aMisnamedFileBesideGoodOnesIsAWarningNotASilentPass() throws {
        let scratch = try ScratchDirectory([
            "aasa/good.example/apple-app-site-association": Self.valid,
            "aasa/typo.example/apple-app-site-association.json": Self.valid,
        ])
        let misnamed = scratch.at("aasa/typo.example/apple-app-site-association.json")
        let (output, code) = try validate([scratch.at("aasa")])
        #expect(code == 0)
        #expect(
            output.out.first
                == "\(misnamed): (root): warning: not validated and not served: the file must be named exactly "
                + "\"apple-app-site-association\", not \"apple-app-site-association.json\"; rename it [file.misnamed]"
        )
        #expect(output.out.last == "2 files, 0 errors, 1 warning")
        #expect(try validate([scratch.at("aasa"), "--strict"]).1 == 1)
    }

    @Test(arguments: [
        ("Apple-App-Site-Association", "apple-app-site-association"),
        ("apple_app_site_association.json", "apple-app-site-association"),
        ("assetlinks.JSON", "assetlinks.json"),
        ("assetlinks", "assetlinks.json"),
        ("apple-app-site-association", nil),
        ("assetlinks.json", nil),
        ("links.json", nil),
        ("README.md", nil),
    ])
    func nearMissesOfTheServedNames(_ name: String, _ served: String?) {
        #expect(ValidationTarget.servedName(nearlyMatching: name) == served)
    }

    @Test func aDirectoryWithOnlyAMisnamedFileSaysSo() throws {
        let scratch = try ScratchDirectory(["h/assetlinks.JSON": "[]"])
        let (output, code) = try validate([scratch.path])
        #expect(code == 2)
        #expect(output.error.first?.hasSuffix("(\(scratch.at("h/assetlinks.JSON")) is not named exactly so)") == true)
    }

    @Test func directoryWithoutFilesIsBadInput() throws {
        let scratch = try ScratchDirectory(["readme.txt": "hello"])
        let (output, code) = try validate([scratch.path])
        #expect(code == 2)
        #expect(output.error.first?.contains("no apple-app-site-association or assetlinks.json") == true)
    }

    @Test func customSchemaIsUsed() throws {
        let scratch = try ScratchDirectory([
            "apple-app-site-association": Self.valid,
            "strict.schema.json": #"{"type":"object","required":["appclips"]}"#,
        ])
        let (output, code) = try validate([
            scratch.at("apple-app-site-association"), "--schema", scratch.at("strict.schema.json"),
        ])
        #expect(code == 1)
        #expect(output.out.first?.hasSuffix("[schema.required]") == true)
    }

    @Test(arguments: [#"{"type": 7}"#, "not json", nil])
    func unusableSchemaExitsTwo(_ schema: String?) throws {
        var files = ["apple-app-site-association": Self.valid]
        if let schema { files["bad.schema.json"] = schema }
        let scratch = try ScratchDirectory(files)
        let (output, code) = try validate([
            scratch.at("apple-app-site-association"), "--schema", scratch.at("bad.schema.json"),
        ])
        #expect(code == 2)
        #expect(output.out.isEmpty)
        #expect(output.error.first?.hasPrefix("error: \(scratch.at("bad.schema.json")):") == true)
    }

    @Test func assetLinksFilesUseTheirOwnValidator() throws {
        let scratch = try ScratchDirectory(["assetlinks.json": "{}"])
        let (output, code) = try validate([scratch.at("assetlinks.json")])
        #expect(code == 1)
        #expect(
            output.out.first?.hasSuffix(
                ":1:1: error: (root): expected array, got object; assetlinks.json must be an array of statements "
                    + "[assetlinks.type]"
            ) == true
        )
    }

    @Test(arguments: [
        ([], "0 files, 0 errors, 0 warnings"),
        (
            [ValidationReport(file: "a", diagnostics: [.error("e", at: .root, "m"), .info("i", at: .root, "m")])],
            "1 file, 1 error, 0 warnings, 1 note"
        ),
    ])
    func summary(_ reports: [ValidationReport], _ expected: String) {
        #expect(DiagnosticPrinter.summary(reports) == expected)
    }
}
