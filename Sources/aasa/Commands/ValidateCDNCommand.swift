import ArgumentParser

// Placeholder until the owner of `aasa validate-cdn` lands it.
struct ValidateCDNCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "validate-cdn")
}
