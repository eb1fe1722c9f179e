import ArgumentParser

// Placeholder until the owner of `aasa validate-universal-links` lands it.
struct ValidateUniversalLinksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "validate-universal-links")
}
