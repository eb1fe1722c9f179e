import AASAKit
import Foundation
import Synchronization
import SystemPackage

/// The first links file of a `test-links` command line, read and scanned
/// on a thread of its own while argument-parser parses that command line.
///
/// The parse spends ~3 ms on one core (mostly the runtime's conformance
/// lookups behind argument-parser's reflection); reading and scanning a
/// 100,000-URL list, ~10 ms, was the longer of the two halves a run
/// starts with, and began only after the parse. The run takes what was
/// read for the same path only, so it is the file the command names, read
/// a few milliseconds sooner, once: a failure is kept and given to the run
/// as its own (the same function reads it), never a second read of a file
/// that may have changed or, through `/dev/stdin` on Darwin, been consumed.
final class LinksFileAhead: Sendable {
    /// A links file's entries and bytes.
    typealias Read = (entries: [LinkExpectations.Entry], bytes: [UInt8])

    let path: String
    private let read: BackgroundValue<Result<Read, InputError>>
    private let taken = Mutex(false)

    /// Starts reading the first `--links` file of `arguments` when they are
    /// a `test-links` command line and it names a regular file (a pipe or a
    /// device is left to the run: reading it here would take its bytes).
    init?(arguments: [String]) {
        guard let path = Self.path(in: arguments), (try? FilePath(path).stat().type) == .regular else {
            return nil
        }
        self.path = path
        read = BackgroundValue { Result { () throws(InputError) in try LinkTestInvocation.linksFile(path) } }
    }

    /// Whether the read, once done, holds entries not yet taken (tests
    /// tell by it that a run had the early read to take).
    var holdsEntries: Bool {
        (try? read.value().get()) != nil && !taken.withLock { $0 }
    }

    /// What reading `path` gave (its entries, or the run's error), once it
    /// is done; nil for another path. Taken once: a second call gets nil.
    func take(_ path: String) -> Result<Read, InputError>? {
        guard path == self.path else { return nil }
        let first = taken.withLock { taken in
            defer { taken = true }
            return !taken
        }
        guard first else { return nil }
        return read.value()
    }

    /// The value of the first `--links` (`--links <path>` or
    /// `--links=<path>`) of a `test-links` command line, before any `--`.
    static func path(in arguments: [String]) -> String? {
        guard arguments.first == "test-links" else { return nil }
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst(), argument != "--" {
            if argument == "--links" { return rest.first }
            if argument.hasPrefix("--links=") { return String(argument.dropFirst("--links=".count)) }
        }
        return nil
    }

    /// The one the process started, for the run to take.
    static let started = Mutex<LinksFileAhead?>(nil)

    /// Starts the read for the process's command line (see `init`).
    static func start(arguments: [String]) {
        let ahead = LinksFileAhead(arguments: arguments)
        started.withLock { $0 = ahead }
    }

    /// ``take(_:)`` of the read the process started, if any.
    static func take(_ path: String) -> Result<Read, InputError>? {
        started.withLock { $0 }?.take(path)
    }
}
