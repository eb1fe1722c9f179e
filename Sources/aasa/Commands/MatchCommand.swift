import ArgumentParser

// Placeholder until the owner of `aasa match` lands it.
struct MatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "match")
}
