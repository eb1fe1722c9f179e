import ArgumentParser

// Placeholder until the owner of `aasa serve` lands it.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve")
}
