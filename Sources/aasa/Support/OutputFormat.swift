import ArgumentParser

/// The `--format` every reporting command accepts.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text
    case json
}
