import ArgumentParser

/// `aasa`: host, validate and test Apple Universal Links association files.
@main
struct AASA: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aasa",
        abstract:
            "Host, validate and test app-link files: apple-app-site-association (Universal Links) and assetlinks.json (Android App Links).",
        discussion: """
            Exit codes: 0 success, 1 findings (invalid file, failed link, differing CDN copy), \
            2 bad input (unreadable file, not JSON, bad arguments).
            """,
        version: BuildInfo.versionLine,
        subcommands: [
            ServeCommand.self,
            ValidateCommand.self,
            MatchCommand.self,
            TestLinksCommand.self,
            CheckCommand.self,
            CDNDiffCommand.self,
            DevCertCommand.self,
            DevCommand.self,
            // The seed validator's command lines, so existing CI keeps working.
            ValidateUniversalLinksCommand.self,
            ValidateSchemaCommand.self,
            ValidateCDNCommand.self,
        ]
    )

    /// Replaces argument-parser's `main()`, which exits 64 on a usage error
    /// and 1 on an error a command did not map: the tool promises CI that 1
    /// means findings and 2 means bad input, whatever went wrong.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        MallocArenas.configure(command: arguments.first)
        LinksFileAhead.start(arguments: arguments)
        await runToExit(arguments: arguments)
    }

    /// ``run(arguments:output:)``, then the process ends on the thread that
    /// ran the command, once its output is flushed (`run` has finished
    /// stdout and stderr is unbuffered). Returning to `main` first went back
    /// to the main thread only to exit, and waited for it to be woken.
    /// `@concurrent` says so whatever the default isolation of a
    /// nonisolated async function becomes (it is the caller's under
    /// `NonisolatedNonsendingByDefault`).
    @concurrent private static func runToExit(arguments: [String]) async -> Never {
        let status = await run(arguments: arguments, output: .standard)
        // An `ExitCode` prints nothing: the message, if any, is out already.
        exit(withError: status == 0 ? nil : ExitCode(status))
    }

    /// Parses `arguments`, runs the command, prints any error or help text
    /// through `output` and returns the exit status: 2 when stdout could not
    /// take all of it, whatever the command found, so a truncated report
    /// never passes.
    static func run(arguments: [String], output: CommandOutput) async -> Int32 {
        let status = await runCommand(arguments: arguments, output: output)
        guard let failure = output.finish() else { return status }
        output.errorLine(failure.description)
        return 2
    }

    private static func runCommand(arguments: [String], output: CommandOutput) async -> Int32 {
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch {
            let status = exitStatus(for: error)
            let message = fullMessage(for: error)
            if !message.isEmpty {
                if status == 0 { output.line(message) } else { output.errorLine(message) }
            }
            return status
        }
    }

    /// The exit status for an error that ended a run: a command's own
    /// `ExitCode` as it is (1 findings, 2 bad input); help
    /// and `--version` 0; anything else, a usage error (argument-parser's
    /// 64) or an error no command mapped (its 1), 2, so it is never taken
    /// for findings.
    static func exitStatus(for error: any Error) -> Int32 {
        let code = exitCode(for: error)
        if error is ExitCode || code.isSuccess { return code.rawValue }
        return 2
    }
}
