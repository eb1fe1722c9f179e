import ArgumentParser

// Placeholder until the owner of `aasa cdn-diff` lands it.
struct CDNDiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cdn-diff")
}
