import ArgumentParser

// Placeholder until the owner of `aasa dev-cert` lands it.
struct DevCertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "dev-cert")
}
