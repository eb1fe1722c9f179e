import ArgumentParser

// Placeholder until the owner of `aasa validate` lands it.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "validate")
}
