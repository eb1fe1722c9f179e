import ArgumentParser

// Placeholder until the owner of `aasa check` lands it.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "check")
}
