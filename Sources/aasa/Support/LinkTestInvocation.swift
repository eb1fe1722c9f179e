import AASAKit
import ArgumentParser

/// One `test-links` run, shared by `aasa test-links` and the seed's
/// `aasa validate-universal-links`.
struct LinkTestInvocation {
    var aasaPath: String
    var linksPath: String
    var domain: String?
    var app: LinkTestApp?
    var format: LinkTestFormat

    /// The rendered report and the exit code: 0 all passed, 1 a failure.
    func execute() throws(InputError) -> (output: String, exitCode: Int32) {
        let file = AASAFile(json: try InputFiles.json(aasaPath, what: "association file"))
        let linksBytes = try InputFiles.bytes(linksPath, what: "links file")
        let expectations: LinkExpectations
        do {
            expectations = try LinkExpectations(bytes: linksBytes, file: linksPath)
        } catch {
            throw InputError(error.description)
        }
        guard !expectations.entries.isEmpty else {
            throw InputError("\(linksPath): the links file lists no URL")
        }
        let report = LinkTestRunner(file: file, domain: domain).run(expectations, app: app)
        let output = LinkTestOutput(
            report: report,
            linksFile: linksPath,
            linksText: String(decoding: linksBytes, as: UTF8.self),
            subject: domain ?? aasaPath
        )
        return (output.render(format), report.failedCount == 0 ? 0 : 1)
    }

    /// Runs, prints through `output`, and throws the exit code when it is not 0.
    func run(output: CommandOutput) throws {
        try output.report(Result { () throws(InputError) in try execute() })
    }

    /// `--bundle-id` / `--app-id`, at most one.
    static func app(bundleID: String?, appID: String?) throws(InputError) -> LinkTestApp? {
        switch (bundleID, appID) {
        case (nil, nil): return nil
        case (let bundleID?, nil): return .bundleID(bundleID)
        case (nil, let appID?): return .appID(appID)
        case (_?, _?): throw InputError("give --bundle-id or --app-id, not both")
        }
    }
}
