import Foundation
import Testing

/// The README's offline commands, run as written from the repository's root
/// on the demo brand: a reader who copies one gets exit 0, not a usage error.
@Suite("README commands")
struct ReadmeCommandTests {
    /// Subcommands that need neither the network nor a long-running process.
    static let offline: Set<String> = ["validate", "match", "test-links"]

    static var repository: URL {
        URL(filePath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Every line of a `sh` block that runs `aasa` (`swift run aasa …` or
    /// `aasa …`) without a pipe or a redirect, as its argument words.
    static func commands(in readme: String) -> [[String]] {
        var commands: [[String]] = []
        for block in readme.components(separatedBy: "```sh\n").dropFirst() {
            let body = block.components(separatedBy: "```").first ?? ""
            for line in body.split(separator: "\n") {
                let code = line.components(separatedBy: " #").first ?? ""
                guard !code.contains("|"), !code.contains("<"), !code.contains(">") else { continue }
                var words = ShellWords.split(code)
                if words.starts(with: ["swift", "run"]) { words.removeFirst(2) }
                guard words.first == "aasa", words.count > 1, offline.contains(words[1]) else { continue }
                commands.append(Array(words.dropFirst()))
            }
        }
        return commands
    }

    @Test func theReadmeHasOfflineCommandsOfEachKind() throws {
        let readme = try String(contentsOf: Self.repository.appending(path: "README.md"), encoding: .utf8)
        let kinds = Set(Self.commands(in: readme).map { $0[0] })
        #expect(kinds == Self.offline)
    }

    @Test(.timeLimit(.minutes(2)))
    func everyOfflineCommandExitsZero() async throws {
        let readme = try String(contentsOf: Self.repository.appending(path: "README.md"), encoding: .utf8)
        let commands = Self.commands(in: readme)
        try #require(commands.count >= 5)
        for arguments in commands {
            let result = try await ExecutableTests.run(arguments, in: Self.repository)
            #expect(result.status == 0, "aasa \(arguments.joined(separator: " ")): \(result.error)")
        }
    }

    @Test func wordsSplitLikeAShell() {
        #expect(
            ShellWords.split("aasa match 'https://x/a b?c#d' --file f") == [
                "aasa", "match", "https://x/a b?c#d", "--file", "f",
            ]
        )
        #expect(ShellWords.split("  a   b ") == ["a", "b"])
    }
}

/// Splits a command line into words the way a POSIX shell does for the
/// README's lines: blanks separate, single quotes keep everything literal.
enum ShellWords {
    static func split<S: StringProtocol>(_ line: S) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quoted = false
        for character in line {
            if character == "'" {
                quoted.toggle()
                inWord = true
            } else if !quoted && (character == " " || character == "\t") {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }
}
