import ArgumentParser

// Placeholder until the owner of `aasa validate-schema` lands it.
struct ValidateSchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "validate-schema")
}
