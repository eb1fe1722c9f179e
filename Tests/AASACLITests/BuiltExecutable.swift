import Foundation

/// Finds an executable product of this package, built beside the tests.
///
/// SwiftPM puts products and the test bundle in one directory
/// (`.build/debug`): on Linux the bundle is an executable there, on macOS a
/// `.xctest` bundle there, run by a helper elsewhere (so
/// `CommandLine.arguments[0]` alone does not find it). A test that needs the
/// executable fails, saying where it looked, rather than skipping itself.
enum BuiltExecutable {
    private final class Marker {}

    /// `AASA_TEST_EXECUTABLE_DIR` first (to test another build), then the
    /// directory holding the test bundle, then the running executable's.
    static var searchDirectories: [URL] {
        var directories: [URL] = []
        if let override = ProcessInfo.processInfo.environment["AASA_TEST_EXECUTABLE_DIR"] {
            directories.append(URL(fileURLWithPath: override))
        }
        let bundle = Bundle(for: Marker.self).bundleURL
        directories.append(bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle)
        if let executable = Bundle.main.executableURL {
            directories.append(executable.deletingLastPathComponent())
        }
        directories.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        return directories.map(\.standardizedFileURL)
    }

    static func locate(_ name: String) throws -> URL {
        let candidates = searchDirectories.map { $0.appendingPathComponent(name) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw Missing(name: name, looked: candidates.map(\.path))
        }
        return found
    }

    struct Missing: Error, CustomStringConvertible {
        let name: String
        let looked: [String]

        var description: String {
            "the `\(name)` executable was not built beside the tests (looked at \(looked.joined(separator: ", "))); "
                + "run `swift build` first"
        }
    }
}
