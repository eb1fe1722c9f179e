import ArgumentParser

// Placeholder until the owner of `aasa test-links` lands it.
struct TestLinksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "test-links")
}
